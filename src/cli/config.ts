/**
 * careers-admin config: the settings in effect (environment over the .env file over the
 * defaults), each with where it came from, secrets masked, then whether they are valid.
 */
import type { Command } from 'commander';
import { ConfigError, SETTINGS, loadConfig, readSettings, sqliteFile } from '../../config/index.js';
import { CliError } from './context.js';
import { printable, table } from './print.js';

const MASK = '********';

/**
 * Names whose whole value is a secret, in any case (`session_secret`, `api_key`, `DB_PASS`,
 * `SMTP_PASSWORD`, `GCP_CREDENTIALS`, `PRIVATE_KEY_PEM`, `METRICS_TOKEN`, `AUTH_…`, `…_SALT`).
 * Masking a name that was no secret costs a look at the file; showing one that was leaks it.
 */
const SECRET_NAME =
  /secret|token|pass(?:word|wd|phrase)?(?:$|[_.-])|pwd|credential|private|api[_.-]?key|(?:^|[_.-])keys?$|auth|salt|cookie|signature|dsn/i;

/** The user-info of a URL (`scheme://user:password@`, `scheme://:password@`, `scheme://key@`) anywhere in a value, up to the authority's last `@`. */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#]*)@/gi;

/** A query parameter whose name says it carries a secret (`?token=…`, `&api_key=…`, `&sig=…`). */
const SECRET_PARAM = /([?&](?:[^=&#\s]*(?:token|key|secret|pass|pwd|auth|sig|credential)[^=&#\s]*)=)[^&#\s]*/gi;

/**
 * A value with the secrets of every URL in it masked: the password of `user:password@` (the user
 * name stays, it tells which account connects), the whole user-info when there is no password (in
 * `https://key@host` the name is the credential), and secret-named query parameters.
 */
function maskUrls(value: string): string {
  return value
    .replace(URL_USERINFO, (_all, scheme: string, info: string) => {
      const colon = info.indexOf(':');
      return `${scheme}${colon >= 0 ? `${info.slice(0, colon)}:${MASK}` : MASK}@`;
    })
    .replace(SECRET_PARAM, `$1${MASK}`);
}

/** How a value is shown: masked whole for a secret setting or name, else with every URL's secrets masked. */
function shown(name: string, value: string, secret?: 'url' | 'all'): string {
  if (value === '') return value;
  if (secret === 'all' || SECRET_NAME.test(name)) return MASK;
  // A URL setting that is no URL is masked whole: it may be one, mistyped (`user:pass@host`).
  if (secret === 'url' && !value.includes('://')) return MASK;
  return maskUrls(value);
}

/** A configuration error's text with every secret value it quotes masked as the table shows it. */
function redacted(message: string, env: Record<string, string | undefined>): string {
  const secretOf = new Map(SETTINGS.map((s) => [s.name, s.secret]));
  let out = message;
  // Longest first, so a value that contains another is replaced whole.
  const values = Object.entries(env)
    .flatMap(([name, value]) => (value ? [[value, shown(name, value, secretOf.get(name))]] : []))
    .filter(([value, masked]) => value !== masked);
  for (const [value, masked] of values.sort((a, b) => b[0].length - a[0].length)) out = out.split(value).join(masked);
  return maskUrls(out);
}

export function registerConfig(program: Command): void {
  program
    .command('config')
    .description('show the settings in effect and where each came from (environment, .env file, default); secrets masked')
    .action(() => {
      let settings: ReturnType<typeof readSettings>;
      try {
        settings = readSettings();
      } catch (err) {
        if (err instanceof ConfigError) throw new CliError(err.message, 2);
        throw err;
      }
      const { env, file, fromFile } = settings;
      const source = (name: string) => (fromFile.has(name) ? `.env file ${file}` : 'environment');
      const rows = SETTINGS.map((s) => {
        const value = env[s.name];
        return value === undefined ? [s.name, s.default, 'default'] : [s.name, shown(s.name, value, s.secret), source(s.name)];
      });
      // The file's other variables (AWS keys for storage, a process manager's own...) are shown too: they reach the process.
      const known = new Set(SETTINGS.map((s) => s.name));
      for (const name of [...fromFile].filter((n) => !known.has(n)).sort()) rows.push([name, shown(name, env[name] ?? ''), source(name)]);
      console.log(`Settings file: ${file ? printable(file) : `none (${printable(process.cwd())}/.env does not exist)`}`);
      console.log(table([['NAME', 'VALUE', 'SOURCE'], ...rows.map((r) => r.map(printable))]));
      try {
        const config = loadConfig(env);
        console.log(
          `Database: ${config.databaseUrl ? printable(maskUrls(config.databaseUrl)) : `SQLite file ${printable(sqliteFile(config))}`}`,
        );
        const s = config.storage;
        const credentials = s.kind === 's3' && s.credentials ? 'keys from AWS_ACCESS_KEY_ID' : "the AWS SDK's default credentials";
        const where =
          s.kind === 's3'
            ? `bucket s3://${s.bucket}/${s.prefix}${s.endpoint ? ` at ${s.endpoint}` : ''} (region ${s.region}, ${credentials})`
            : `folder ${s.root}`;
        console.log(`Uploads: ${printable(where)}`);
      } catch (err) {
        if (err instanceof ConfigError) throw new CliError(redacted(err.message, env), 2);
        throw err;
      }
    });
}
