/**
 * Shared plumbing for CLI commands: configuration, a database handle, clean exits.
 *
 * Every command file loads the features it calls (and Knex) inside its action, with `import()`:
 * the bundle is split (scripts/build.mjs), so `--help` and a usage error (exit 2) load only
 * commander, the settings and the input rules, and a command loads only what it runs.
 */
import fs from 'node:fs';
import type { Knex } from 'knex';
import { ConfigError, loadConfig, sqliteFile, type Config } from '../../config/index.js';

export class CliError extends Error {
  constructor(
    message: string,
    public readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** A zod schema of either flavour, as the features' schema.ts files export them. */
interface OptionSchema<T> {
  safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } };
}

/**
 * An option read by the feature's own input rule (the schema the API uses), so the CLI and the
 * API agree on what an id or a status is; a bad value is a usage error (exit 2) with the rule's message.
 */
export function cliOption<T>(schema: OptionSchema<T>, name: string, raw: string | undefined): T | undefined {
  if (raw === undefined) return undefined;
  const r = schema.safeParse(raw);
  if (!r.success) throw new CliError(`${name}: ${r.error.issues[0].message} (got "${raw}")`, 2);
  return r.data;
}

/** The configuration (environment over the .env file); a bad setting is a usage error naming it. */
export function cliConfig(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(err.message, 2);
    throw err;
  }
}

/**
 * A database handle for `fn`. Only `create` (migrate) may make a new SQLite file: anywhere else a
 * missing file means DATA_DIR points somewhere unexpected, and an empty new database would hide that.
 */
export async function withDb<T>(fn: (db: Knex, config: Config) => Promise<T>, opts: { create?: boolean } = {}): Promise<T> {
  const config = cliConfig();
  if (!config.databaseUrl && !opts.create && !fs.existsSync(sqliteFile(config))) {
    throw new CliError(
      `No database at ${sqliteFile(config)}: check DATA_DIR (or DATABASE_URL), or create it with "careers-admin migrate".`,
    );
  }
  const db = await openDb(config);
  try {
    return await fn(db, config);
  } finally {
    await db.destroy();
  }
}

/**
 * A database handle for a command. From here on the process's log lines (the database's notices,
 * a command's warnings) go to standard error: standard output carries only what the command
 * prints, so `doctor --json` or a list piped on stays what it says it is.
 */
export async function openDb(config: Config): Promise<Knex> {
  const [{ createDb }, { setLogSink }] = await Promise.all([import('../db/knex.js'), import('../log/logger.js')]);
  setLogSink((line) => void process.stderr.write(line));
  return createDb(config);
}

/** Reads all of standard input (for --password-stdin); the trailing newline is dropped. */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}
