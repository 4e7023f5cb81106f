/** What every feature is handed: configuration, log, database, read cache, file storage, document parsers, view and funnel counters, clock, outbox signal, server key, readiness. */
import type { Knex } from 'knex';
import type { Config } from '../config/index.js';
import { createDb } from './db/knex.js';
import { createLogger, type Logger } from './log/logger.js';
import { ReadCache } from './db/read-cache.js';
import { ServerKey } from './db/server-key.js';
import type { FileStorage } from './storage/storage.js';
import { createStorage } from './storage/create.js';
import { DocumentParsers } from './documents/pool.js';
import { ViewCounter } from './jobs/index.js';
import { FunnelCounter } from './funnel/index.js';
import { OutboxSignal } from './posts/index.js';
import { Readiness } from './ops/index.js';

export interface AppContext {
  config: Config;
  log: Logger;
  db: Knex;
  cache: ReadCache;
  storage: FileStorage;
  /** Parses untrusted documents (resume previews) in child processes with a deadline and a memory cap. */
  documents: DocumentParsers;
  views: ViewCounter;
  /** The apply funnel's counts of this process (src/funnel/), flushed like `views`. */
  funnel: FunnelCounter;
  now: () => Date;
  /** Wakes this process's delivery worker when a post is written. */
  outbox: OutboxSignal;
  /** Keys the hashes of client addresses (src/db/server-key.ts). */
  serverKey: ServerKey;
  /** What /readyz answers; the server marks it stopping on SIGTERM/SIGINT. */
  readiness: Readiness;
}

export function createContext(config: Config, overrides: Partial<AppContext> = {}): AppContext {
  // First, so the database's own notices go to it too.
  const log = overrides.log ?? createLogger({ level: config.logLevel, pretty: config.env === 'development' && process.stdout.isTTY });
  const db = overrides.db ?? createDb(config);
  const now = overrides.now ?? (() => new Date());
  return {
    config,
    log,
    db,
    cache: overrides.cache ?? new ReadCache(config.publicCacheSeconds, new Set(config.stampedCacheOff)),
    storage: overrides.storage ?? createStorage(config),
    documents: overrides.documents ?? new DocumentParsers(log),
    views: overrides.views ?? new ViewCounter(db, log),
    funnel: overrides.funnel ?? new FunnelCounter(db, log, now),
    now,
    outbox: overrides.outbox ?? new OutboxSignal(),
    serverKey: overrides.serverKey ?? new ServerKey(db),
    readiness: overrides.readiness ?? new Readiness(db),
  };
}

export async function closeContext(ctx: AppContext): Promise<void> {
  await Promise.all([
    ctx.views.flush().catch(() => undefined),
    ctx.funnel.flush().catch(() => undefined),
    ctx.documents.close().catch(() => undefined),
  ]);
  await ctx.db.destroy();
}
