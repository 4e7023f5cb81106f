/**
 * careers-admin doctor [--json]: is this installation healthy? Configuration, database,
 * migrations, storage, SMTP and the three outboxes, each OK or its problem with the fix; exit 1
 * when one fails. It only reads: a missing SQLite file is reported (not created yet, not a fault),
 * never created.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { ConfigError, loadConfig, sqliteFile, type Config } from '../../config/index.js';
import type { Db } from '../db/knex.js';
import { printable } from './print.js';
import { CliError, openDb } from './context.js';

interface Check {
  name: string;
  ok: boolean;
  detail: string;
  fix: string | null;
}

/** Below this, uploads may fail: resumes and form files are up to 10 MB each, 50 MB a submission. */
const MIN_FREE_BYTES = 200 * 1024 * 1024;
/** A due post waiting longer than this means no delivery worker is running. */
const OVERDUE_MS = 10 * 60_000;
const MIGRATE_FIX = 'run careers-admin migrate';

const ok = (name: string, detail: string): Check => ({ name, ok: true, detail, fix: null });
const bad = (name: string, detail: string, fix: string): Check => ({ name, ok: false, detail, fix });
const message = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0];
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

function ago(ms: number): string {
  const min = Math.round(ms / 60_000);
  return min < 120 ? `${min} min` : `${Math.round(min / 60)} h`;
}

/** The bucket answers (STORAGE_URL); else the uploads folder (made on the first upload), or its nearest existing parent: written to and removed, then its free space. */
async function storageCheck(config: Config): Promise<Check> {
  if (config.storage.kind === 's3') {
    const { checkStorage, createStorage, describeStorage } = await import('../storage/create.js');
    const storage = createStorage(config);
    try {
      await checkStorage(storage);
      return ok('storage', `bucket ${describeStorage(storage)} answers`);
    } catch (err) {
      return bad(
        'storage',
        message(err),
        'check STORAGE_URL (bucket, endpoint, region), the AWS credentials and that the storage server is reachable',
      );
    }
  }
  const uploads = path.join(config.dataDir, 'uploads');
  let dir = uploads;
  while (!fs.existsSync(dir) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  const probe = path.join(dir, `.doctor-${process.pid}-${Date.now()}`);
  try {
    fs.writeFileSync(probe, 'ok');
    fs.unlinkSync(probe);
  } catch (err) {
    return bad('storage', `${dir} is not writable: ${message(err)}`, `let the server's user write to ${dir} (or set DATA_DIR)`);
  }
  const stats = await fs.promises.statfs(dir);
  const free = stats.bavail * stats.bsize;
  const where = dir === uploads ? uploads : `${dir} (${uploads} is made on the first upload)`;
  if (free < MIN_FREE_BYTES)
    return bad('storage', `${where}: only ${mb(free)} free`, `free disk space (at least ${mb(MIN_FREE_BYTES)}) or move DATA_DIR`);
  return ok('storage', `${where} writable, ${mb(free)} free`);
}

/** The database checks; null db when it cannot be opened. */
async function databaseChecks(config: Config, db: Db | null, checks: Check[]): Promise<void> {
  const target = config.databaseUrl ? 'MySQL (DATABASE_URL)' : sqliteFile(config);
  if (!db) {
    // A fresh SQLite site (the README's deploy steps run doctor before anything made the file): not
    // a fault, since migrate or the server's first start creates it; said with both ways.
    checks.push(
      ok(
        'database',
        `${target} not created yet: run \`careers-admin migrate\` or start the server once (if this site already has a database, point DATA_DIR at it)`,
      ),
    );
    return;
  }
  const [{ pingDb }, { hasSchema, migrationStatus }, { outboxesHealth }] = await Promise.all([
    import('../db/knex.js'),
    import('../db/migrations.js'),
    import('../posts/index.js'),
  ]);
  try {
    await pingDb(db);
    checks.push(ok('database', `${target} answers`));
  } catch (err) {
    checks.push(bad('database', `${target}: ${message(err)}`, 'check DATABASE_URL and that the database server is running'));
    return;
  }
  const { applied, pending } = await migrationStatus(db);
  checks.push(
    pending.length
      ? bad('migrations', `${pending.length} pending (${pending.join(', ')}), ${applied.length} applied`, MIGRATE_FIX)
      : ok('migrations', `${applied.length} applied, none pending`),
  );
  if (!(await hasSchema(db, 'post_attempts'))) return;
  const now = new Date();
  for (const o of await outboxesHealth(db, now)) {
    const waiting = o.oldestDue ? now.getTime() - o.oldestDue.getTime() : 0;
    const failed = o.failed ? `; ${o.failed} failed (careers-admin posts list --status FAILED)` : '; none failed';
    const due = o.oldestDue ? `oldest due post waiting ${ago(waiting)}` : 'no post waiting';
    checks.push(
      waiting > OVERDUE_MS
        ? bad(`outbox ${o.table}`, `${due}${failed}`, 'start a delivery worker: the server with POSTS_WORKER on, or careers-admin cron')
        : ok(`outbox ${o.table}`, `${due}${failed}`),
    );
  }
}

async function runChecks(): Promise<Check[]> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    const detail = err instanceof ConfigError ? err.problems.join('; ') : message(err);
    return [bad('configuration', detail, 'correct the variable in the environment or the .env file (see careers-admin config)')];
  }
  const checks = [ok('configuration', `valid (NODE_ENV=${config.env})`)];
  // A missing SQLite file stays missing: opening it would create an empty database.
  const db = config.databaseUrl || fs.existsSync(sqliteFile(config)) ? await openDb(config) : null;
  try {
    await databaseChecks(config, db, checks);
  } finally {
    await db?.destroy();
  }
  checks.push(await storageCheck(config));
  if (config.mail.smtpUrl) {
    try {
      const { verifyMail } = await import('../posts/index.js');
      await verifyMail(config.mail.smtpUrl);
      checks.push(ok('smtp', 'SMTP_URL server accepted the connection'));
    } catch (err) {
      checks.push(
        bad('smtp', `SMTP_URL: ${message(err)}`, 'check SMTP_URL (host, port, user, password) and that the mail server is reachable'),
      );
    }
  } else {
    checks.push(ok('smtp', 'SMTP_URL unset: no email is sent'));
  }
  return checks;
}

export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description('check configuration, database, migrations, storage, SMTP and the outboxes; exit 1 on a problem')
    .option('--json', 'print one JSON object {ok, checks: [{name, ok, detail, fix}]}')
    .action(async (opts: { json?: boolean }) => {
      const checks = await runChecks();
      const allOk = checks.every((c) => c.ok);
      if (opts.json) {
        console.log(JSON.stringify({ ok: allOk, checks }));
      } else {
        for (const c of checks) {
          console.log(`${c.ok ? 'OK  ' : 'FAIL'}  ${c.name}: ${printable(c.detail)}`);
          if (c.fix) console.log(`      fix: ${printable(c.fix)}`);
        }
      }
      if (!allOk) throw new CliError(`${checks.filter((c) => !c.ok).length} of ${checks.length} checks failed.`);
    });
}
