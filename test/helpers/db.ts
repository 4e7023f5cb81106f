/**
 * Test databases: every test that touches the database runs on SQLite and, when TEST_MYSQL_URL is
 * set, on MySQL too. Each suite gets its own fresh database (a temp SQLite file, or a MySQL
 * database with a random name) with migrations applied, and drops it afterwards. On SQLite a
 * transaction opened inside another of the same handle fails at once (nested-transactions.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import { loadConfig, type Config } from '../../config/index.js';
import { createDb } from '../../src/db/knex.js';
import { failNestedTransactions } from './nested-transactions.js';

export type DbKind = 'sqlite' | 'mysql';

export function databaseKinds(): DbKind[] {
  return process.env.TEST_MYSQL_URL ? ['sqlite', 'mysql'] : ['sqlite'];
}

export interface TestDb {
  kind: DbKind;
  db: Knex;
  config: Config;
  dataDir: string;
  destroy: () => Promise<void>;
}

function mysqlAdmin(url: string): Knex {
  const u = new URL(url);
  u.pathname = '/';
  return knexFactory({ client: 'mysql2', connection: { uri: u.toString() } as any, pool: { min: 0, max: 1 } });
}

/** A fresh, migrated database plus a config pointing at it. */
export async function createTestDb(kind: DbKind, env: Record<string, string> = {}): Promise<TestDb> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'careers-test-'));
  let databaseUrl: string | undefined;
  let dbName: string | null = null;
  if (kind === 'mysql') {
    const base = process.env.TEST_MYSQL_URL!;
    dbName = `careers_t_${randomBytes(6).toString('hex')}`;
    const admin = mysqlAdmin(base);
    await admin.raw(`CREATE DATABASE \`${dbName}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await admin.destroy();
    const u = new URL(base);
    u.pathname = `/${dbName}`;
    databaseUrl = u.toString();
  }
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PORT: '0',
    POSTS_SWEEP_CRON: 'off',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  });
  const db = createDb(config);
  // On SQLite a transaction opened inside another stalls on the one connection: fail it at once instead.
  if (kind === 'sqlite') failNestedTransactions(db);
  await db.migrate.latest();
  return {
    kind,
    db,
    config,
    dataDir,
    destroy: async () => {
      await db.destroy();
      if (dbName) {
        const admin = mysqlAdmin(process.env.TEST_MYSQL_URL!);
        await admin.raw(`DROP DATABASE IF EXISTS \`${dbName}\``);
        await admin.destroy();
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
