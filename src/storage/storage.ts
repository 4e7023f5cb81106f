/**
 * One storage interface for every uploaded file (resumes, form uploads). The default keeps files
 * on local disk under DATA_DIR/uploads, outside any public folder; keys are random, never names
 * a user chose, so a hostile file name can never become a path.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';

export interface FileStorage {
  /** A fresh random key (two-level fan-out so no folder grows huge). */
  newKey(): string;
  /** Writes the stream under key; on failure nothing is left behind. */
  write(key: string, source: Readable): Promise<void>;
  read(key: string): Readable;
  exists(key: string): Promise<boolean>;
  /** Deletes; a missing file is not an error. */
  remove(key: string): Promise<void>;
}

const KEY_PATTERN = /^[a-f0-9]{2}\/[a-f0-9]{32}$/;

export class LocalDiskStorage implements FileStorage {
  constructor(public readonly root: string) {
    fs.mkdirSync(root, { recursive: true });
  }

  newKey(): string {
    const hex = randomBytes(16).toString('hex');
    return `${hex.slice(0, 2)}/${hex}`;
  }

  private pathOf(key: string): string {
    if (!KEY_PATTERN.test(key)) throw new Error(`Invalid storage key`);
    return path.join(this.root, key);
  }

  async write(key: string, source: Readable): Promise<void> {
    const file = this.pathOf(key);
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    try {
      await pipeline(source, fs.createWriteStream(file, { flags: 'wx', mode: 0o600 }));
    } catch (err) {
      await this.remove(key);
      throw err;
    }
  }

  read(key: string): Readable {
    return fs.createReadStream(this.pathOf(key));
  }

  async exists(key: string): Promise<boolean> {
    try {
      await fs.promises.access(this.pathOf(key));
      return true;
    } catch {
      return false;
    }
  }

  async remove(key: string): Promise<void> {
    await fs.promises.rm(this.pathOf(key), { force: true });
  }
}
