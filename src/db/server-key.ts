/**
 * The server key (DESIGN.md section 3): 32 random bytes made on first start and kept in the
 * database (`server_keys`, migration 009), so every process and the CLI share it. It keys the
 * hashes of client addresses (rate-limit rows, applications, form entries): a row never holds an
 * address, and without the key a hash cannot be matched against guessed addresses.
 * Made race-free: each process inserts a key if there is none and then reads the one that won.
 * It also seals secrets kept at rest (calendar addresses, issue 32): AES-256-GCM under a key
 * derived from it with HKDF, so the hashes and the sealed texts never share a key.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { toDbDate } from './codecs.js';

const NAME = 'client-hash';
/** Sealed texts: `v1.` then base64url of IV (12 bytes), tag (16 bytes) and ciphertext. */
const SEALED_PREFIX = 'v1.';

export class ServerKey {
  private loading: Promise<Buffer> | null = null;
  private sealing: Promise<Buffer> | null = null;

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

  private sealKey(): Promise<Buffer> {
    this.sealing ??= this.get().then(
      (key) => Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'careers sealed secrets v1', 32)),
      (err) => {
        this.sealing = null;
        throw err;
      },
    );
    return this.sealing;
  }

  /** `text` encrypted and authenticated (AES-256-GCM, a fresh IV each time): only `open` with this key reads it. */
  async seal(text: string): Promise<string> {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', await this.sealKey(), iv);
    const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  /** The text `seal` made; throws when it was sealed under another key or changed. */
  async open(sealed: string): Promise<string> {
    if (!sealed.startsWith(SEALED_PREFIX)) throw new Error('Not a sealed text');
    const raw = Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64url');
    if (raw.length < 28) throw new Error('Not a sealed text');
    const decipher = createDecipheriv('aes-256-gcm', await this.sealKey(), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}
