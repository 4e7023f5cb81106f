/**
 * Test databases: every test that touches the database runs on SQLite and, when TEST_MYSQL_URL is
 * set, on MySQL too. Each suite gets a database of its own with every migration applied, as a
 * fresh migration leaves it, and gives it back afterwards.
 *
 * Migrating costs 9-11 s on MariaDB (its DDL is slow) and 0.1-0.2 s on SQLite, so a run migrates
 * once per process: SQLite suites get a copy of a migrated template file; MySQL suites get a
 * database given back by an earlier suite, emptied (TRUNCATE where rows or an AUTO_INCREMENT
 * moved, so ids start where a fresh database's do) and refilled with the rows the migrations
 * seed, copied from a template database; a new one is migrated only when none is free. A
 * database whose schema a suite changed (migration tests roll back) is dropped, not reused. The
 * migration tests themselves still migrate from empty, up and down (test/db/migration-*.test.ts).
 * On SQLite a transaction opened inside another of the same handle fails at once
 * (nested-transactions.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import { loadConfig, sqliteFile, type Config } from '../../config/index.js';
import { createDb } from '../../src/db/knex.js';
import { migrateLatest } from '../../src/db/migrations.js';
import { failNestedTransactions } from './nested-transactions.js';

export type DbKind = 'sqlite' | 'mysql';

/** SQLite, and MySQL when TEST_MYSQL_URL is set; `TEST_DATABASES=mysql` (or `sqlite`) runs on that one alone. */
export function databaseKinds(): DbKind[] {
  const kinds: DbKind[] = process.env.TEST_MYSQL_URL ? ['sqlite', 'mysql'] : ['sqlite'];
  const only = process.env.TEST_DATABASES?.split(',').map((k) => k.trim());
  return only ? kinds.filter((k) => only.includes(k)) : kinds;
}

/**
 * Browser tests whose subject is database behaviour, with why: they run on both databases. Every
 * other browser test runs on SQLite alone: the browser does not care which database stores the
 * rows, and the API tests under each screen run on both.
 */
const BROWSER_TESTS_ON_BOTH: Record<string, string> = {
  'faults.browser.test.ts':
    'faults injected into the database itself (a cut connection, a commit that is not confirmed): MySQL fails in ways SQLite cannot',
};

/** The databases the browser test `testFile` (its `import.meta.url`) runs on. */
export function browserDatabaseKinds(testFile: string): DbKind[] {
  return path.basename(testFile) in BROWSER_TESTS_ON_BOTH ? databaseKinds() : databaseKinds().filter((k) => k === 'sqlite');
}

export interface TestDb {
  kind: DbKind;
  db: Knex;
  config: Config;
  dataDir: string;
  destroy: () => Promise<void>;
}

function mysqlAdmin(url: string, max = 1): Knex {
  const u = new URL(url);
  u.pathname = '/';
  return knexFactory({ client: 'mysql2', connection: { uri: u.toString() } as any, pool: { min: 0, max } });
}

/** A migrated database of its own plus a config pointing at it. */
export async function createTestDb(kind: DbKind, env: Record<string, string> = {}): Promise<TestDb> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'careers-test-'));
  let databaseUrl: string | undefined;
  let dbName: string | null = null;
  if (kind === 'mysql') {
    dbName = await mysqlPool().take();
    const u = new URL(process.env.TEST_MYSQL_URL!);
    u.pathname = `/${dbName}`;
    databaseUrl = u.toString();
  } else {
    fs.copyFileSync(await sqliteTemplate(), sqliteFile({ dataDir }));
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
  return {
    kind,
    db,
    config,
    dataDir,
    destroy: async () => {
      await db.destroy();
      if (dbName) await mysqlPool().give(dbName);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The run's id (set by the global setup, test/helpers/run-setup.ts, and inherited by every test
 * process of the run): it names the run's MySQL databases and its folder of SQLite templates, so
 * the teardown finds what every process made.
 */
const runId = () => process.env.CAREERS_TEST_RUN ?? 'solo';
const runFolder = () => path.join(os.tmpdir(), `careers-test-run-${runId()}`);
const runDatabasePrefix = () => `careers_t_${runId()}_`;

/** Drops the run's MySQL databases and SQLite templates, whichever process made them (the global teardown). */
export async function dropRunDatabases(): Promise<void> {
  fs.rmSync(runFolder(), { recursive: true, force: true });
  if (!process.env.TEST_MYSQL_URL) return;
  const admin = mysqlAdmin(process.env.TEST_MYSQL_URL);
  try {
    const [rows] = await admin.raw('SELECT SCHEMA_NAME name FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE ?', [
      `${runDatabasePrefix().replaceAll('_', '\\_')}%`,
    ]);
    for (const { name } of rows as { name: string }[]) await admin.raw(`DROP DATABASE IF EXISTS \`${name}\``);
  } finally {
    await admin.destroy();
  }
}

let templateFile: string | null = null;

/** A SQLite file with every migration applied, made once per process. */
async function sqliteTemplate(): Promise<string> {
  if (templateFile) return templateFile;
  fs.mkdirSync(runFolder(), { recursive: true });
  const dataDir = fs.mkdtempSync(path.join(runFolder(), 'sqlite-template-'));
  const db = createDb({ dataDir, databaseUrl: null });
  await migrateLatest(db);
  // Closing checkpoints the write-ahead log into the file, so the file alone is the database.
  await db.destroy();
  templateFile = sqliteFile({ dataDir });
  return templateFile;
}

let pool: MysqlPool | null = null;
const mysqlPool = () => (pool ??= new MysqlPool(process.env.TEST_MYSQL_URL!));

/** What a schema is made of: its tables and views, columns, indexes, triggers and routines, and the migrations applied. */
async function schemaShape(admin: Knex, name: string): Promise<string> {
  const [columns] = await admin.raw(
    'SELECT TABLE_NAME t, COLUMN_NAME c, COLUMN_TYPE y FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? ORDER BY 1, 2',
    [name],
  );
  const [indexes] = await admin.raw(
    'SELECT TABLE_NAME t, INDEX_NAME i, COLUMN_NAME c, SEQ_IN_INDEX n FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? ORDER BY 1, 2, 4',
    [name],
  );
  const [triggers] = await admin.raw('SELECT TRIGGER_NAME t FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = ? ORDER BY 1', [name]);
  const [routines] = await admin.raw('SELECT ROUTINE_NAME r FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = ? ORDER BY 1', [name]);
  const [migrations] = await admin.raw(`SELECT name FROM \`${name}\`.knex_migrations ORDER BY name`).catch(() => [[]]);
  return JSON.stringify([columns, indexes, triggers, routines, migrations]);
}

class MysqlPool {
  private readonly admin: Knex;
  private readonly free: string[] = [];
  /** The run's prefix, then this process's: processes of one run never pick the same name. */
  private readonly prefix = `${runDatabasePrefix()}${randomBytes(3).toString('hex')}_`;
  private template: Promise<{ name: string; shape: string; seeded: string[]; counters: Map<string, number> }> | null = null;

  constructor(url: string) {
    this.admin = mysqlAdmin(url, 2);
  }

  /** A migrated database, emptied to what a fresh migration leaves. */
  async take(): Promise<string> {
    const name = this.free.pop();
    if (!name) return this.migrated(this.newName());
    await this.reset(name);
    return name;
  }

  /** Back to the pool when its schema is still the template's; dropped otherwise. */
  async give(name: string): Promise<void> {
    const { shape } = await this.templateInfo();
    if ((await schemaShape(this.admin, name)) === shape) this.free.push(name);
    else await this.drop(name);
  }

  private made = 0;

  /** A name never used before in this run (databases are dropped along the way). */
  private newName(): string {
    return `${this.prefix}${++this.made}`;
  }

  private async migrated(name: string): Promise<string> {
    await this.admin.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    const u = new URL(process.env.TEST_MYSQL_URL!);
    u.pathname = `/${name}`;
    const db = createDb({ dataDir: os.tmpdir(), databaseUrl: u.toString() });
    try {
      await migrateLatest(db);
    } finally {
      await db.destroy();
    }
    return name;
  }

  private async drop(name: string): Promise<void> {
    await this.admin.raw(`DROP DATABASE IF EXISTS \`${name}\``);
  }

  /** The template: migrated once, never handed out; its seeded tables and AUTO_INCREMENT counters. */
  private templateInfo() {
    this.template ??= (async () => {
      const name = await this.migrated(`${this.prefix}template`);
      const counters = await this.counters(name);
      const seeded: string[] = [];
      for (const t of counters.keys()) {
        const [[{ n }]] = await this.admin.raw(`SELECT COUNT(*) n FROM \`${name}\`.\`${t}\``);
        if (Number(n) > 0) seeded.push(t);
      }
      return { name, shape: await schemaShape(this.admin, name), seeded, counters };
    })();
    return this.template;
  }

  private async counters(name: string): Promise<Map<string, number>> {
    const [rows] = await this.admin.raw('SELECT TABLE_NAME t, AUTO_INCREMENT a FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?', [
      name,
    ]);
    return new Map((rows as { t: string; a: number | null }[]).map((r) => [r.t, Number(r.a ?? 0)]));
  }

  /**
   * Every table as the template has it: connections a suite left behind closed, the tables
   * emptied (TRUNCATE when its AUTO_INCREMENT moved, so the next ids are a fresh database's;
   * DELETE otherwise, much cheaper than DDL) and the seeded rows copied back, on one connection
   * with foreign key checks off.
   */
  private async reset(name: string): Promise<void> {
    const template = await this.templateInfo();
    // Connections a finished suite left open (a server or CLI child still stopping, a context not
    // closed) would hold the tables' metadata locks, or write into the next suite's rows.
    const [left] = await this.admin.raw('SELECT ID id FROM information_schema.PROCESSLIST WHERE DB = ?', [name]);
    for (const { id } of left as { id: number }[]) await this.admin.raw(`KILL ${Number(id)}`).catch(() => undefined);
    const counters = await this.counters(name);
    const conn = await this.admin.client.acquireConnection();
    const q = (sql: string) => this.admin.raw(sql).connection(conn);
    try {
      await q('SET FOREIGN_KEY_CHECKS = 0');
      for (const [table, counter] of counters) {
        const moved = counter !== (template.counters.get(table) ?? 0);
        await q(moved ? `TRUNCATE TABLE \`${name}\`.\`${table}\`` : `DELETE FROM \`${name}\`.\`${table}\``);
        if (template.seeded.includes(table))
          await q(`INSERT INTO \`${name}\`.\`${table}\` SELECT * FROM \`${template.name}\`.\`${table}\``);
      }
    } finally {
      await q('SET FOREIGN_KEY_CHECKS = 1').catch(() => undefined);
      await this.admin.client.releaseConnection(conn);
    }
  }
}
