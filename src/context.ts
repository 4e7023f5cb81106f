/**
 * What every feature is handed: configuration, log, database, read cache, file storage, document
 * parsers, clock, server key, and the per-process parts the features implement (view and funnel
 * counters, outbox signal, readiness: interfaces in src/http/process-parts.ts). This file imports
 * no feature: the app shell wires the features' parts (src/wiring.ts, createAppContext).
 */
import type { Knex } from 'knex';
import type { Config } from '../config/index.js';
import { createDb } from './db/knex.js';
import { createLogger, type Logger } from './log/logger.js';
import { ReadCache } from './db/read-cache.js';
import { ServerKey } from './db/server-key.js';
import type { FileStorage } from './storage/storage.js';
import { createStorage } from './storage/create.js';
import { DocumentParsers } from './documents/pool.js';
import type { FunnelCounts, JobViewCounts, OutboxSignal, ProcessPartsFactory, Readiness } from './http/process-parts.js';

export interface AppContext {
  config: Config;
  log: Logger;
  db: Knex;
  cache: ReadCache;
  storage: FileStorage;
  /** Parses untrusted documents (resume previews) in child processes with a deadline and a memory cap. */
  documents: DocumentParsers;
  /** Job page views of this process (src/jobs/), written in batches. */
  views: JobViewCounts;
  /** The apply funnel's counts of this process (src/funnel/), flushed like `views`. */
  funnel: FunnelCounts;
  now: () => Date;
  /** Wakes this process's delivery worker when a post is written. */
  outbox: OutboxSignal;
  /** Keys the hashes of client addresses (src/db/server-key.ts). */
  serverKey: ServerKey;
  /** What /readyz answers; the server marks it stopping on SIGTERM/SIGINT. */
  readiness: Readiness;
}

/** The process's logger as the configuration sets it (JSON lines; pino-pretty's on a terminal in development). */
export function configuredLogger(config: Config): Logger {
  return createLogger({ level: config.logLevel, pretty: config.env === 'development' && process.stdout.isTTY });
}

/** The context, with the per-process parts `parts` makes (those given in `overrides` win). */
export function createContext(config: Config, parts: ProcessPartsFactory, overrides: Partial<AppContext> = {}): AppContext {
  // First, so the database's own notices go to it too.
  const log = overrides.log ?? configuredLogger(config);
  const db = overrides.db ?? createDb(config);
  const now = overrides.now ?? (() => new Date());
  const made = parts({ db, log, now });
  return {
    config,
    log,
    db,
    cache: overrides.cache ?? new ReadCache(config.publicCacheSeconds, new Set(config.stampedCacheOff)),
    storage: overrides.storage ?? createStorage(config),
    documents: overrides.documents ?? new DocumentParsers(log),
    views: overrides.views ?? made.views,
    funnel: overrides.funnel ?? made.funnel,
    now,
    outbox: overrides.outbox ?? made.outbox,
    serverKey: overrides.serverKey ?? new ServerKey(db),
    readiness: overrides.readiness ?? made.readiness,
  };
}

/** Writes what the counters hold and stops the document parsers (failures are left to their own log lines). */
export async function settleContext(ctx: AppContext): Promise<void> {
  await Promise.all([
    ctx.views.flush().catch(() => undefined),
    ctx.funnel.flush().catch(() => undefined),
    ctx.documents.close().catch(() => undefined),
  ]);
}

export async function closeContext(ctx: AppContext): Promise<void> {
  await settleContext(ctx);
  await ctx.db.destroy();
}
