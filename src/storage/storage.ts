/**
 * One storage interface for every uploaded file (resumes, form uploads). The default keeps files
 * on local disk under DATA_DIR/uploads, outside any public folder; keys are random, never names
 * a user chose, so a hostile file name can never become a path.
 *
 * Crash safety (DESIGN.md section 4): `write` resolves only once the file's bytes AND its
 * directory entry are on disk (fsync), and callers commit the database row after that, so a
 * committed row never points at a file a power cut could lose. A crash between the write and the
 * commit leaves a file without a row; the orphan sweep (sweep.ts) removes those later.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { PassThrough, Writable, type Readable } from 'node:stream';

export interface FileStorage {
  /** A fresh random key (two-level fan-out so no folder grows huge). */
  newKey(): string;
  /**
   * Writes the stream under key and makes it durable (fsync) before resolving; on failure
   * nothing is left behind (no partial file, no empty fan-out folder).
   */
  write(key: string, source: Readable): Promise<void>;
  /** The stored bytes; rejects when the file is missing or the storage cannot be reached (StorageUnavailable). */
  read(key: string): Promise<Readable>;
  exists(key: string): Promise<boolean>;
  /** Deletes; a missing file is not an error. An emptied fan-out folder goes too. */
  remove(key: string): Promise<void>;
  /**
   * Resolves once no write or removal is running any more, the removals that failed uploads start
   * as they settle included: a stopping server waits for it, so a cut upload leaves no file.
   */
  idle(): Promise<void>;
}

/** One stored file as the orphan sweep sees it. */
export interface StoredObject {
  key: string;
  /** Last modification, ms since the epoch (a file still being written keeps moving it). */
  mtimeMs: number;
}

/** A storage whose files can be listed, so files without a database row can be found and removed. */
export interface SweepableStorage extends FileStorage {
  /** Every stored file with a valid key, folder by folder; anything else in the folders is ignored. */
  list(): AsyncIterable<StoredObject>;
  /** remove(), telling whether the file's fan-out folder went with it (it was the last file). */
  discard(key: string): Promise<{ folderRemoved: boolean }>;
  /** Removes empty fan-out folders; returns how many went. */
  pruneEmptyFolders(): Promise<number>;
}

export function isSweepable(storage: FileStorage): storage is SweepableStorage {
  const s = storage as Partial<SweepableStorage>;
  return typeof s.list === 'function' && typeof s.discard === 'function' && typeof s.pruneEmptyFolders === 'function';
}

/**
 * The storage could not answer (network, credentials, server error), as opposed to a missing
 * file: a download answers 503 (try again) instead of 404 (gone).
 */
export class StorageUnavailable extends Error {
  constructor(public readonly cause: unknown) {
    super(`the file storage cannot be reached: ${(cause as Error)?.message ?? cause}`);
    this.name = 'StorageUnavailable';
  }
}

/**
 * Opens a stored file and waits until its first bytes can be read, so a file gone from storage
 * (or a key storage refuses) is known before anything is sent: rejects with the cause.
 */
export async function openReadable(storage: FileStorage, key: string): Promise<Readable> {
  let stream: Readable | null = null;
  try {
    const opened = await storage.read(key);
    stream = opened;
    await new Promise<void>((resolve, reject) => {
      opened.once('readable', resolve);
      opened.once('error', reject);
    });
    return opened;
  } catch (err) {
    stream?.destroy();
    throw err;
  }
}

/**
 * A stored file as a stream at once, opened in the background: for readers that need a stream
 * synchronously (yauzl's ranges, src/applicants/lib/file-type.ts). A failed open errors the stream.
 */
export function readLazily(storage: FileStorage, key: string): Readable {
  const out = new PassThrough();
  storage.read(key).then(
    (source) => {
      // The reader may have given up already (a range it no longer needs).
      if (out.destroyed) return void source.destroy();
      source.on('error', (err) => out.destroy(err));
      out.on('close', () => source.destroy());
      source.pipe(out);
    },
    (err) => out.destroy(err),
  );
  return out;
}

const KEY_PATTERN = /^[a-f0-9]{2}\/[a-f0-9]{32}$/;

/** A fresh random key (two-level fan-out: 256 folders on disk, short key prefixes in a bucket). */
export function newStorageKey(): string {
  const hex = randomBytes(16).toString('hex');
  return `${hex.slice(0, 2)}/${hex}`;
}

/** Whether `key` is one newStorageKey() could have made: anything else is refused or ignored. */
export function isStorageKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}
const FOLDER_PATTERN = /^[a-f0-9]{2}$/;
const FILE_PATTERN = /^[a-f0-9]{32}$/;

/** Errors that mean "the folder is not empty (any more) or already gone": another request won a race. */
function isFolderRace(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOENT';
}

/** fsync of a directory, so a new or removed entry in it survives a power cut. Not every platform can. */
async function syncDir(dir: string): Promise<void> {
  let handle: fs.promises.FileHandle | null = null;
  try {
    handle = await fs.promises.open(dir, 'r');
    await handle.sync();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // Windows cannot open a directory; some file systems refuse fsync on one.
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'EACCES') throw err;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** Writes every byte of `buffers` (writev may write only part of them). */
export async function writeAll(handle: Pick<fs.promises.FileHandle, 'writev'>, buffers: Buffer[]): Promise<void> {
  let rest = buffers;
  while (rest.length) {
    const { bytesWritten } = await handle.writev(rest);
    if (bytesWritten === 0) throw new Error('The disk accepted no bytes');
    let n = bytesWritten;
    let i = 0;
    while (i < rest.length && n >= rest[i].length) n -= rest[i++].length;
    rest = rest.slice(i);
    if (n > 0) rest[0] = rest[0].subarray(n);
  }
}

/**
 * A file writer that hands the disk about 256 KB at a time in one writev call, holding the
 * network's own chunks (no copies) until then. fs.WriteStream issues one write per chunk when it
 * is idle, about 32 calls into the thread pool per 2 MB upload; bench/apply.ts measured those as
 * the largest single cost on the main thread.
 */
class BatchedFileWriter extends Writable {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(
    private readonly handle: fs.promises.FileHandle,
    private readonly batchBytes = 256 * 1024,
  ) {
    super();
  }

  _write(chunk: Buffer, _encoding: BufferEncoding, done: (err?: Error | null) => void): void {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pendingBytes < this.batchBytes) done();
    else this.flushPending(done);
  }

  _final(done: (err?: Error | null) => void): void {
    this.flushPending(done);
  }

  private flushPending(done: (err?: Error | null) => void): void {
    const buffers = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    if (!buffers.length) done();
    else writeAll(this.handle, buffers).then(() => done(), done);
  }
}

/** A storage's writes and removals running now, for its idle(). */
export class InFlight {
  private readonly busy = new Set<Promise<unknown>>();

  track<T>(work: Promise<T>): Promise<T> {
    this.busy.add(work);
    const done = () => this.busy.delete(work);
    work.then(done, done);
    return work;
  }

  async idle(): Promise<void> {
    while (this.busy.size) {
      await Promise.allSettled([...this.busy]);
      // A failed upload removes its other files once its writes settle: let those start, then look again.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

export class LocalDiskStorage implements SweepableStorage {
  private readonly inFlight = new InFlight();

  constructor(public readonly root: string) {
    fs.mkdirSync(root, { recursive: true });
  }

  private track<T>(work: Promise<T>): Promise<T> {
    return this.inFlight.track(work);
  }

  idle(): Promise<void> {
    return this.inFlight.idle();
  }

  newKey(): string {
    return newStorageKey();
  }

  private pathOf(key: string): string {
    if (!isStorageKey(key)) throw new Error(`Invalid storage key`);
    return path.join(this.root, key);
  }

  /**
   * Creates the file exclusively (a key is never written twice) and opens it. The fan-out folder
   * may vanish between mkdir and open (another request removed it as empty), so ENOENT means: make
   * it again and retry. Once the file exists the folder is not empty, so it stays.
   */
  private async createFile(file: string): Promise<{ handle: fs.promises.FileHandle; newFolder: boolean }> {
    let newFolder = false;
    for (let attempt = 1; ; attempt++) {
      newFolder = (await fs.promises.mkdir(path.dirname(file), { recursive: true })) !== undefined || newFolder;
      try {
        return { handle: await fs.promises.open(file, 'wx', 0o600), newFolder };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 5) throw err;
      }
    }
  }

  write(key: string, source: Readable): Promise<void> {
    return this.track(this.writeFile(key, source));
  }

  private async writeFile(key: string, source: Readable): Promise<void> {
    const file = this.pathOf(key);
    const dir = path.dirname(file);
    let created: { handle: fs.promises.FileHandle; newFolder: boolean };
    try {
      created = await this.createFile(file);
    } catch (err) {
      // As pipeline would have done: the source is not read any further.
      source.destroy();
      await this.removeFolderIfEmpty(dir);
      throw err;
    }
    const { handle, newFolder } = created;
    let ok = false;
    try {
      // A refused upload (too large, wrong type) is cut off without waiting for the disk; only a
      // complete file is synced.
      await pipeline(source, new BatchedFileWriter(handle));
      await handle.sync();
      await handle.close();
      // The new directory entry (and a new fan-out folder's entry in root) must be durable too.
      await syncDir(dir);
      if (newFolder) await syncDir(this.root);
      ok = true;
    } finally {
      if (!ok) {
        await handle.close().catch(() => undefined);
        await this.remove(key);
      }
    }
  }

  async read(key: string): Promise<Readable> {
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
    await this.discard(key);
  }

  discard(key: string): Promise<{ folderRemoved: boolean }> {
    return this.track(this.discardFile(key));
  }

  private async discardFile(key: string): Promise<{ folderRemoved: boolean }> {
    const file = this.pathOf(key);
    await fs.promises.rm(file, { force: true });
    return { folderRemoved: await this.removeFolderIfEmpty(path.dirname(file)) };
  }

  /** rmdir only succeeds on an empty folder; a folder another request just filled again is left alone. */
  private async removeFolderIfEmpty(dir: string): Promise<boolean> {
    try {
      await fs.promises.rmdir(dir);
      return true;
    } catch (err) {
      if (isFolderRace(err)) return false;
      throw err;
    }
  }

  async *list(): AsyncIterable<StoredObject> {
    let folders: fs.Dirent[];
    try {
      folders = await fs.promises.readdir(this.root, { withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    for (const folder of folders) {
      if (!folder.isDirectory() || !FOLDER_PATTERN.test(folder.name)) continue;
      let entries: fs.Dirent[];
      try {
        entries = await fs.promises.readdir(path.join(this.root, folder.name), { withFileTypes: true });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue; // removed meanwhile
        throw err;
      }
      for (const entry of entries) {
        // A key's folder is its first two characters; anything else here was not written by us.
        if (!entry.isFile() || !FILE_PATTERN.test(entry.name) || !entry.name.startsWith(folder.name)) continue;
        try {
          const st = await fs.promises.lstat(path.join(this.root, folder.name, entry.name));
          yield { key: `${folder.name}/${entry.name}`, mtimeMs: st.mtimeMs };
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        }
      }
    }
  }

  async pruneEmptyFolders(): Promise<number> {
    let folders: fs.Dirent[];
    try {
      folders = await fs.promises.readdir(this.root, { withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw err;
    }
    let removed = 0;
    for (const folder of folders) {
      if (folder.isDirectory() && FOLDER_PATTERN.test(folder.name) && (await this.removeFolderIfEmpty(path.join(this.root, folder.name))))
        removed++;
    }
    return removed;
  }
}
