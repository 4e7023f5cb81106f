/** What every feature is handed: configuration, database, file storage, view counter, clock. */
import path from 'node:path';
import type { Knex } from 'knex';
import type { Config } from '../config/index.js';
import { createDb } from './db/knex.js';
import { LocalDiskStorage, type FileStorage } from './storage/storage.js';
import { ViewCounter } from './jobs/service.js';

export interface AppContext {
  config: Config;
  db: Knex;
  storage: FileStorage;
  views: ViewCounter;
  now: () => Date;
}

export function createContext(config: Config, overrides: Partial<AppContext> = {}): AppContext {
  const db = overrides.db ?? createDb(config);
  return {
    config,
    db,
    storage: overrides.storage ?? new LocalDiskStorage(path.join(config.dataDir, 'uploads')),
    views: overrides.views ?? new ViewCounter(db),
    now: overrides.now ?? (() => new Date()),
  };
}

export async function closeContext(ctx: AppContext): Promise<void> {
  await ctx.views.flush().catch(() => undefined);
  await ctx.db.destroy();
}
