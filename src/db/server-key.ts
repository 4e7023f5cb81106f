/**
 * The server key (DESIGN.md section 3): 32 random bytes made on first start and kept in the
 * database (`server_keys`, migration 009), so every process and the CLI share it. It keys the
 * hashes of client addresses (rate-limit rows, applications, form entries): a row never holds an
 * address, and without the key a hash cannot be matched against guessed addresses.
 * Made race-free: each process inserts a key if there is none and then reads the one that won.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { toDbDate } from './codecs.js';

const NAME = 'client-hash';

export class ServerKey {
  private loading: Promise<Buffer> | null = null;

  constructor(private readonly db: Knex) {}

  /** The key, made on first use if the database has none; a failed read is tried again next time. */
  get(): Promise<Buffer> {
    this.loading ??= this.load().catch((err) => {
      this.loading = null;
      throw err;
    });
    return this.loading;
  }

  private async load(): Promise<Buffer> {
    await this.db('server_keys')
      .insert({ name: NAME, value: randomBytes(32).toString('hex'), created_at: toDbDate(new Date()) })
      .onConflict('name')
      .ignore();
    const row = await this.db('server_keys').where({ name: NAME }).first('value');
    return Buffer.from(String(row.value), 'hex');
  }

  /** HMAC-SHA256 of `text` under the key, hex (64 characters). */
  async hash(text: string): Promise<string> {
    return createHmac('sha256', await this.get())
      .update(text)
      .digest('hex');
  }
}
