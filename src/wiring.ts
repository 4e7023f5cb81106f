/**
 * The app shell's wiring: the features' implementations of the context's per-process parts
 * (src/http/process-parts.ts). Whoever makes a context (the server, tests, benches) makes it here.
 */
import type { Config } from '../config/index.js';
import { createContext, type AppContext } from './context.js';
import type { ProcessParts } from './http/process-parts.js';
import type { Db } from './db/knex.js';
import type { Logger } from './log/logger.js';
import { ViewCounter } from './jobs/index.js';
import { FunnelCounter } from './funnel/index.js';
import { OutboxSignal } from './posts/index.js';
import { Readiness } from './ops/index.js';

/** The features' per-process parts over the context's database, log and clock. */
function featureParts({ db, log, now }: { db: Db; log: Logger; now: () => Date }): ProcessParts {
  return {
    views: new ViewCounter(db, log),
    funnel: new FunnelCounter(db, log, now),
    outbox: new OutboxSignal(),
    readiness: new Readiness(db),
  };
}

/** A context with the features' parts (those given in `overrides` win). */
export function createAppContext(config: Config, overrides: Partial<AppContext> = {}): AppContext {
  return createContext(config, featureParts, overrides);
}
