/**
 * careers-admin config: the settings in effect (environment over the .env file over the
 * defaults), each with where it came from, secrets masked, then whether they are valid.
 */
import type { Command } from 'commander';
import { ConfigError, SETTINGS, loadConfig, readSettings, sqliteFile } from '../../config/index.js';
import { CliError } from './context.js';
import { printable, table } from './print.js';

/** Names whose whole value is a secret (tokens, keys, passwords), for settings outside SETTINGS. */
const SECRET_NAME = /SECRET|TOKEN|PASSWORD|PASSWD|_KEY$/;

/** A URL with its password replaced; a value that is no URL is masked whole (it may be one, mistyped). */
function maskUrl(value: string): string {
  if (!URL.canParse(value)) return '********';
  const u = new URL(value);
  if (u.password) u.password = '********';
  return u.toString();
}

function shown(name: string, value: string, secret?: 'url' | 'all'): string {
  if (value === '') return value;
  if (secret === 'url') return maskUrl(value);
  return secret === 'all' || SECRET_NAME.test(name) ? '********' : value;
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
        console.log(`Database: ${config.databaseUrl ? printable(maskUrl(config.databaseUrl)) : `SQLite file ${printable(sqliteFile(config))}`}`);
        const s = config.storage;
        const credentials = s.kind === 's3' && s.credentials ? 'keys from AWS_ACCESS_KEY_ID' : "the AWS SDK's default credentials";
        const where = s.kind === 's3' ? `bucket s3://${s.bucket}/${s.prefix}${s.endpoint ? ` at ${s.endpoint}` : ''} (region ${s.region}, ${credentials})` : `folder ${s.root}`;
        console.log(`Uploads: ${printable(where)}`);
      } catch (err) {
        if (err instanceof ConfigError) throw new CliError(err.message, 2);
        throw err;
      }
    });
}
