/** Shared plumbing for CLI commands: configuration, a database handle, clean exits. */
import type { Knex } from 'knex';
import { ConfigError, loadConfig, type Config } from '../../config/index.js';
import { createDb } from '../db/knex.js';

export class CliError extends Error {
  constructor(message: string, public readonly exitCode = 1) {
    super(message);
  }
}

export async function withDb<T>(fn: (db: Knex, config: Config) => Promise<T>): Promise<T> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(err.message, 2);
    throw err;
  }
  const db = createDb(config);
  try {
    return await fn(db, config);
  } finally {
    await db.destroy();
  }
}

/** Reads all of standard input (for --password-stdin); the trailing newline is dropped. */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}
