/**
 * Local disk storage and the orphan sweep (DESIGN.md section 4: a crash leaves the whole
 * application or none of it). The storage: a failed write leaves no partial file and no empty
 * fan-out folder, also when writes and removals race in one folder. The sweep: files without a
 * stored_files row older than the grace period go, files with a row and young files stay, keys
 * are checked in batches, empty folders are removed. On SQLite and, with TEST_MYSQL_URL, MySQL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { expect } from 'chai';
import { databaseKinds, createTestDb, type TestDb } from '../helpers/db.js';
import { listFiles } from '../fixtures/apply.js';
import { toDbDate } from '../../src/db/codecs.js';
import { LocalDiskStorage, isSweepable, writeAll } from '../../src/storage/storage.js';
import { DEFAULT_SWEEP_GRACE_MS, scheduleUploadSweeps, sweepOrphanFiles } from '../../src/storage/sweep.js';

const HOUR = 60 * 60 * 1000;

function tempRoot(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'careers-storage-'));
}

/** Folders under root (relative), to catch empty fan-out folders that listFiles cannot see. */
function listFolders(root: string): string[] {
  return fs
    .readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

/** A source that sends `bytes` then fails (a client going away, a refused file). */
function failingSource(bytes: number): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(Buffer.alloc(bytes, 0x41));
      } else this.destroy(new Error('upload refused (test)'));
    },
  });
}

/** A key in a chosen fan-out folder, so tests can crowd one folder. */
function keyIn(folder: string): string {
  return `${folder}/${folder}${randomBytes(15).toString('hex')}`;
}

describe('local disk storage: durable writes, nothing left behind', () => {
  let root: string;
  let storage: LocalDiskStorage;
  beforeEach(() => {
    root = tempRoot();
    storage = new LocalDiskStorage(root);
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('writes a file under its key, readable back, private to the server', async () => {
    const key = storage.newKey();
    const data = randomBytes(300_000);
    await storage.write(key, Readable.from([data.subarray(0, 100_000), data.subarray(100_000)]));
    expect(fs.readFileSync(path.join(root, key)).equals(data)).to.equal(true);
    expect(fs.statSync(path.join(root, key)).mode & 0o777).to.equal(0o600);
    expect(await storage.exists(key)).to.equal(true);
    expect(isSweepable(storage)).to.equal(true);
  });

  it('a failed write leaves neither the partial file nor an empty fan-out folder', async () => {
    const key = storage.newKey();
    let error: Error | null = null;
    await storage.write(key, failingSource(200_000)).catch((e: Error) => (error = e));
    expect(error).to.have.property('message', 'upload refused (test)');
    expect(listFiles(root)).to.deep.equal([]);
    expect(listFolders(root)).to.deep.equal([]);
  });

  it('a failed write keeps a folder that still holds another file', async () => {
    const kept = keyIn('ab');
    await storage.write(kept, Readable.from([Buffer.from('kept')]));
    await storage.write(keyIn('ab'), failingSource(10)).catch(() => undefined);
    expect(listFiles(root)).to.deep.equal([kept]);
  });

  it('remove deletes the file and its folder once empty; a missing file is no error', async () => {
    const a = keyIn('cd');
    const b = keyIn('cd');
    await storage.write(a, Readable.from([Buffer.from('a')]));
    await storage.write(b, Readable.from([Buffer.from('b')]));
    await storage.remove(a);
    expect(listFolders(root)).to.deep.equal(['cd']);
    await storage.remove(b);
    expect(listFolders(root)).to.deep.equal([]);
    await storage.remove(b);
    await storage.remove(keyIn('ef'));
  });

  it('writes, failures and removals racing in one folder: every good file is written, no partial file or empty folder remains', async () => {
    let previous: string[] = [];
    for (let round = 0; round < 20; round++) {
      const good = Array.from({ length: 4 }, () => keyIn('aa'));
      const results = await Promise.allSettled([
        // The last round's files are removed (emptying the folder) while this round's writes start.
        ...previous.map((k) => storage.remove(k)),
        ...good.map((k) => storage.write(k, Readable.from([randomBytes(2048)]))),
        ...Array.from({ length: 4 }, () =>
          storage.write(keyIn('aa'), failingSource(1024)).then(
            () => Promise.reject(new Error('should have failed')),
            () => undefined,
          ),
        ),
      ]);
      const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(
        failed.map((r) => String(r.reason)),
        `round ${round}`,
      ).to.deep.equal([]);
      expect(listFiles(root), `round ${round}`).to.deep.equal([...good].sort());
      previous = good;
    }
    await Promise.all(previous.map((k) => storage.remove(k)));
    expect(listFolders(root)).to.deep.equal([]);
  });

  it("a fan-out folder removed (as empty) between its mkdir and the file's creation is made again", async () => {
    const key = keyIn('bb');
    const original = fs.promises.open;
    let interfered = 0;
    // Another request's cleanup wins the race: the just-made empty folder is gone when the file is created.
    (fs.promises as { open: typeof original }).open = (async (file: fs.PathLike, ...rest: unknown[]) => {
      if (String(file) === path.join(root, key) && rest[0] === 'wx' && interfered++ === 0) fs.rmdirSync(path.dirname(String(file)));
      return (original as (...a: unknown[]) => Promise<fs.promises.FileHandle>)(file, ...rest);
    }) as typeof original;
    try {
      await storage.write(key, Readable.from([Buffer.from('made it')]));
    } finally {
      (fs.promises as { open: typeof original }).open = original;
    }
    expect(interfered).to.equal(2);
    expect(fs.readFileSync(path.join(root, key), 'utf8')).to.equal('made it');
  });

  it('never lists what it did not write: foreign names, symlinks and files outside a fan-out folder', async () => {
    const key = keyIn('12');
    await storage.write(key, Readable.from([Buffer.from('x')]));
    fs.writeFileSync(path.join(root, 'README'), 'not ours');
    fs.mkdirSync(path.join(root, 'zz'));
    fs.writeFileSync(path.join(root, 'zz', 'notes.txt'), 'not ours');
    fs.writeFileSync(path.join(root, '12', 'not-a-key'), 'not ours');
    // A well-formed name in the wrong folder is not a key either.
    fs.writeFileSync(path.join(root, '12', `34${'0'.repeat(30)}`), 'not ours');
    fs.symlinkSync(path.join(root, 'README'), path.join(root, '12', `12${'f'.repeat(30)}`));
    const listed: string[] = [];
    for await (const f of storage.list()) listed.push(f.key);
    expect(listed).to.deep.equal([key]);
  });
});

for (const kind of databaseKinds()) {
  describe(`orphan sweep of uploaded files [${kind}]`, function () {
    this.timeout(60_000);
    let t: TestDb;
    let root: string;
    let storage: LocalDiskStorage;

    before(async () => {
      t = await createTestDb(kind);
    });
    after(() => t.destroy());
    beforeEach(async () => {
      await t.db('stored_files').del();
      root = tempRoot();
      storage = new LocalDiskStorage(root);
    });
    afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

    /** A file on disk, last changed `ageMs` ago, with or without its stored_files row. */
    async function file(opts: { ageMs: number; row: boolean; key?: string }): Promise<string> {
      let key = opts.key ?? storage.newKey();
      // Folder ff is kept for the test that needs an orphan alone in its folder.
      while (!opts.key && key.startsWith('ff/')) key = storage.newKey();
      await storage.write(key, Readable.from([Buffer.from(`file ${key}`)]));
      const when = new Date(Date.now() - opts.ageMs);
      fs.utimesSync(path.join(root, key), when, when);
      if (opts.row) {
        await t.db('stored_files').insert({
          storage_key: key,
          original_name: 'cv.pdf',
          content_type: 'application/pdf',
          size: 10,
          sha256: '0'.repeat(64),
          created_at: toDbDate(new Date()),
        });
      }
      return key;
    }

    it('removes old files without a row; keeps files with a row, old or young, and young orphans (grace 1 hour)', async () => {
      const oldWithRow = await file({ ageMs: 30 * 24 * HOUR, row: true });
      const youngWithRow = await file({ ageMs: 0, row: true });
      const oldOrphan = await file({ ageMs: 2 * HOUR, row: false });
      const youngOrphan = await file({ ageMs: 10 * 60 * 1000, row: false });
      // An orphan alone in its folder: the folder goes with it.
      const loneOrphan = await file({ ageMs: 3 * HOUR, row: false, key: keyIn('ff') });

      expect(DEFAULT_SWEEP_GRACE_MS).to.equal(HOUR);
      const foldersBefore = listFolders(root);
      const result = await sweepOrphanFiles(t.db, storage);
      expect(result.foldersRemoved)
        .to.equal(foldersBefore.length - listFolders(root).length)
        .and.to.be.greaterThan(0);
      expect(result.removed.sort()).to.deep.equal([oldOrphan, loneOrphan].sort());
      expect(result.scanned).to.equal(5);
      expect(result.keptYoung).to.equal(1);
      expect(listFiles(root)).to.deep.equal([oldWithRow, youngWithRow, youngOrphan].sort());
      expect(listFolders(root)).not.to.include('ff');
      // Rows are never touched.
      expect((await t.db('stored_files').select('storage_key')).map((r: any) => r.storage_key).sort()).to.deep.equal(
        [oldWithRow, youngWithRow].sort(),
      );

      // Grace 0 (what the crash test and `files sweep --older-than-minutes 0` use): the young orphan goes too.
      const again = await sweepOrphanFiles(t.db, storage, { olderThanMs: 0 });
      expect(again.removed).to.deep.equal([youngOrphan]);
      expect(listFiles(root)).to.deep.equal([oldWithRow, youngWithRow].sort());
    });

    it('checks keys in batches: one stored_files query per batch, never one per file', async () => {
      const orphans: string[] = [];
      const kept: string[] = [];
      for (let i = 0; i < 10; i++) orphans.push(await file({ ageMs: 2 * HOUR, row: false }));
      for (let i = 0; i < 3; i++) kept.push(await file({ ageMs: 2 * HOUR, row: true }));
      const queries: string[] = [];
      const onQuery = (q: { sql: string }) => queries.push(q.sql);
      t.db.on('query', onQuery);
      try {
        const result = await sweepOrphanFiles(t.db, storage, { batchSize: 5 });
        expect(result.removed.sort()).to.deep.equal(orphans.sort());
      } finally {
        t.db.off('query', onQuery);
      }
      const lookups = queries.filter((q) => /stored_files/.test(q));
      expect(lookups).to.have.length(3); // 13 files, 5 a batch
      for (const q of lookups) expect(q).to.match(/ in \(/i);
      expect(listFiles(root)).to.deep.equal(kept.sort());
    });

    it('removes empty fan-out folders left by older versions, and leaves foreign files alone', async () => {
      fs.mkdirSync(path.join(root, 'a1'));
      fs.mkdirSync(path.join(root, 'b2'));
      fs.writeFileSync(path.join(root, 'README'), 'not ours');
      fs.mkdirSync(path.join(root, 'c3'));
      fs.writeFileSync(path.join(root, 'c3', 'keep.txt'), 'not ours');
      const result = await sweepOrphanFiles(t.db, storage, { olderThanMs: 0 });
      expect(result).to.deep.include({ scanned: 0, removed: [], foldersRemoved: 2 });
      expect(listFolders(root)).to.deep.equal(['c3']);
      expect(fs.existsSync(path.join(root, 'README'))).to.equal(true);
    });

    it('runs in the background at start, logs what it removed, and stops cleanly', async () => {
      const orphan = await file({ ageMs: 2 * HOUR, row: false });
      const lines: string[] = [];
      const sweeps = scheduleUploadSweeps(t.db, storage, { schedule: null, log: (l) => lines.push(l) });
      await sweeps.initial;
      await sweeps.stop();
      expect(lines).to.deep.equal(['Upload sweep: removed 1 orphaned file(s) with no database row.']);
      expect(fs.existsSync(path.join(root, orphan))).to.equal(false);

      // Nothing to remove: nothing logged. A failing database is logged, never thrown.
      const quiet: string[] = [];
      const s2 = scheduleUploadSweeps(t.db, storage, { schedule: null, log: (l) => quiet.push(l) });
      await s2.initial;
      await s2.stop();
      expect(quiet).to.deep.equal([]);
      await file({ ageMs: 2 * HOUR, row: false });
      const errors: string[] = [];
      const failingDb = Object.assign(
        () => {
          throw new Error('database is down (test)');
        },
        { client: t.db.client },
      ) as unknown as typeof t.db;
      const s3 = scheduleUploadSweeps(failingDb, storage, {
        schedule: null,
        log: () => undefined,
        logError: (l, err) => errors.push(`${l} ${(err as Error).message}`),
      });
      await s3.initial;
      await s3.stop();
      expect(errors).to.deep.equal(['[uploads] orphan sweep failed: database is down (test)']);
    });

    it('is scheduled with node-cron (daily by default) and stop() ends the schedule', async () => {
      const sweeps = scheduleUploadSweeps(t.db, storage, { log: () => undefined });
      await sweeps.initial;
      await sweeps.stop();
      // A bad schedule is a programming error: node-cron throws at once.
      expect(() => scheduleUploadSweeps(t.db, storage, { schedule: 'not a cron', log: () => undefined })).to.throw();
    });
  });
}

describe('storage: batched writes', () => {
  it('writeAll finishes a writev the disk took only part of, in order', async () => {
    const written: Buffer[] = [];
    // A disk that takes at most 5 bytes per call, so every buffer is split somewhere.
    const handle = {
      writev: async (buffers: Buffer[]) => {
        const all = Buffer.concat(buffers).subarray(0, 5);
        written.push(Buffer.from(all));
        return { bytesWritten: all.length, buffers };
      },
    } as any;
    const parts = ['abc', 'defghij', '', 'k', 'lmnopqrstuvwxyz'].map((t) => Buffer.from(t));
    await writeAll(handle, parts);
    expect(Buffer.concat(written).toString()).to.equal('abcdefghijklmnopqrstuvwxyz');
    const stuck = { writev: async (buffers: Buffer[]) => ({ bytesWritten: 0, buffers }) } as any;
    let err: unknown = null;
    await writeAll(stuck, [Buffer.from('x')]).catch((e) => (err = e));
    expect(String(err)).to.include('The disk accepted no bytes');
  });

  it('stores an upload of many small and large chunks byte for byte', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'careers-batched-'));
    try {
      const storage = new LocalDiskStorage(root);
      const chunks = Array.from({ length: 300 }, (_, i) => randomBytes(i % 7 === 0 ? 70_000 : 1 + ((i * 37) % 4000)));
      const key = storage.newKey();
      await storage.write(key, Readable.from(chunks));
      expect(fs.readFileSync(path.join(root, key)).equals(Buffer.concat(chunks))).to.equal(true);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
