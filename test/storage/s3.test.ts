/**
 * Uploads in an S3-compatible bucket (STORAGE_URL), against s3rver on 127.0.0.1: the driver's
 * contract (write/read/exists/remove/list/idle, a failed write leaves nothing, a missing key
 * rejects, stray objects are not listed), then end to end on SQLite and MySQL: an application with
 * its resume and a form entry with its file stored in the bucket and downloaded by HR, the
 * orphan sweep and the retention commands as an admin runs them, a storage that stops answering
 * (downloads answer 503, then 200 once it is back), and a server that cannot reach its bucket
 * refusing to start.
 */
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { loadConfig } from '../../config/index.js';
import { createStorage, describeStorage } from '../../src/storage/create.js';
import { S3Storage } from '../../src/storage/s3.js';
import { StorageUnavailable, openReadable, type SweepableStorage } from '../../src/storage/storage.js';
import { databaseKinds } from '../helpers/db.js';
import { hrSession } from '../helpers/hr.js';
import { captureLog } from '../helpers/log.js';
import { makeJob } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { freePort, runServer, cliSync } from '../helpers/child-server.js';
import { S3_BUCKET, startS3Server, type S3TestServer } from '../helpers/s3.js';
import { toFormData, validFields } from '../fixtures/apply.js';
import { pdfBytes } from '../fixtures/resumes.js';
import { hr } from '../applicants/helpers.js';
import { cvPdf, everyFieldForm, GOOD_VALUES, submission } from '../forms/helpers.js';

const tmpDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'careers-s3-app-'));

function s3Storage(env: Record<string, string>): S3Storage {
  // DATA_DIR is only read, never made, when the files go to a bucket.
  const storage = createStorage(loadConfig({ NODE_ENV: 'test', DATA_DIR: path.join(os.tmpdir(), 'careers-s3-unused'), ...env }));
  expect(storage).to.be.instanceOf(S3Storage);
  return storage as S3Storage;
}

async function listAll(storage: SweepableStorage): Promise<string[]> {
  const keys: string[] = [];
  for await (const o of storage.list()) keys.push(o.key);
  return keys.sort();
}

/** Every object name in the test bucket under `prefix`, as S3 has it. */
async function objectNames(s3: S3TestServer, prefix: string): Promise<string[]> {
  const page = await s3.client.send(new ListObjectsV2Command({ Bucket: S3_BUCKET, Prefix: prefix }));
  return (page.Contents ?? []).map((o) => o.Key!).sort();
}

async function text(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** A source that sends `bytes` and then fails, as a refused upload does. */
function failingSource(bytes: number, err: Error): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= bytes) return void this.destroy(err);
      const chunk = Buffer.alloc(Math.min(64 * 1024, bytes - sent), 7);
      sent += chunk.length;
      this.push(chunk);
    },
  });
}

const cli = (args: string[], env: Record<string, string>) =>
  cliSync(args, { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', ...env });

describe('S3Storage: the driver against an S3-compatible server', function () {
  this.timeout(60_000);
  let s3: S3TestServer;
  let storage: S3Storage;
  const prefix = `contract-${randomBytes(4).toString('hex')}/`;

  before(async () => {
    s3 = await startS3Server();
    storage = s3Storage(s3.env(prefix.slice(0, -1)));
  });
  after(async () => {
    await s3.stop();
    fs.rmSync(s3.dir, { recursive: true, force: true });
  });

  it('writes under prefix + key, reads it back, tells exists, lists it with its time, removes it', async () => {
    const key = storage.newKey();
    expect(key).to.match(/^[a-f0-9]{2}\/[a-f0-9]{32}$/);
    const before = Date.now();
    await storage.write(key, Readable.from([Buffer.from('hello '), Buffer.from('bucket')]));
    expect(await objectNames(s3, prefix)).to.deep.equal([prefix + key]);
    expect((await text(await storage.read(key))).toString()).to.equal('hello bucket');
    expect(await storage.exists(key)).to.equal(true);
    const listed = [];
    for await (const o of storage.list()) listed.push(o);
    expect(listed.map((o) => o.key)).to.deep.equal([key]);
    expect(listed[0].mtimeMs).to.be.within(before - 5000, Date.now() + 5000);
    expect(await storage.discard(key)).to.deep.equal({ folderRemoved: false });
    expect(await storage.exists(key)).to.equal(false);
    expect(await objectNames(s3, prefix)).to.deep.equal([]);
    // A missing object is no error; there are no folders to prune.
    await storage.remove(key);
    expect(await storage.pruneEmptyFolders()).to.equal(0);
  });

  it('streams an upload larger than one part (multipart) and reads back every byte', async () => {
    const key = storage.newKey();
    const data = randomBytes(11 * 1024 * 1024 + 123);
    const chunks = [];
    for (let i = 0; i < data.length; i += 256 * 1024) chunks.push(data.subarray(i, i + 256 * 1024));
    await storage.write(key, Readable.from(chunks));
    expect((await text(await storage.read(key))).equals(data)).to.equal(true);
    await storage.remove(key);
  });

  it('a source whose own size, length or start and end say something else is still sent whole, in parts (issue 28 item 11)', async () => {
    const data = randomBytes(6 * 1024 * 1024 + 100);
    const misleading: Record<string, unknown>[] = [{ size: 0 }, { length: 10 }, { start: 0, end: 99 }];
    for (const props of misleading) {
      const key = storage.newKey();
      const source = Object.assign(Readable.from([data.subarray(0, 3_000_000), data.subarray(3_000_000)]), props);
      await storage.write(key, source);
      expect((await text(await storage.read(key))).equals(data), JSON.stringify(props)).to.equal(true);
      await storage.remove(key);
    }
  });

  it('a write whose source fails leaves nothing, single part or multipart, and rejects with the source error', async () => {
    for (const size of [1000, 7 * 1024 * 1024]) {
      const key = storage.newKey();
      const refusal = new Error(`too large ${size}`);
      const err = await storage.write(key, failingSource(size, refusal)).then(
        () => null,
        (e) => e,
      );
      expect(err, `${size}`).to.equal(refusal);
      expect(await storage.exists(key)).to.equal(false);
    }
    expect(await objectNames(s3, prefix)).to.deep.equal([]);
  });

  it('a missing key rejects on read, and openReadable rejects before anything is sent; a bad key is refused', async () => {
    const key = storage.newKey();
    const err = await storage.read(key).catch((e) => e);
    expect(err).to.be.instanceOf(Error).and.not.instanceOf(StorageUnavailable);
    expect(await openReadable(storage, key).catch((e) => e)).to.be.instanceOf(Error);
    for (const bad of ['../etc/passwd', 'ab/cd', 'AB/' + 'A'.repeat(32)]) {
      expect(await storage.read(bad).catch((e) => (e as Error).message)).to.equal('Invalid storage key');
      expect(await storage.write(bad, Readable.from([Buffer.from('x')])).catch((e) => (e as Error).message)).to.equal(
        'Invalid storage key',
      );
    }
  });

  it('lists only keys it could have written, under its prefix, page after page', async () => {
    const put = (name: string) => s3.client.send(new PutObjectCommand({ Bucket: S3_BUCKET, Key: name, Body: 'x' }));
    const good = storage.newKey();
    await storage.write(good, Readable.from([Buffer.from('kept')]));
    // Stray objects: another folder, a name that is no key, a key outside the prefix.
    await Promise.all([
      put(`${prefix}notes.txt`),
      put(`${prefix}ab/short`),
      put(`${prefix}zz/${'a'.repeat(32)}`),
      put(`${prefix}deeper/${good}`),
      put(good),
      put(`other/${good}`),
    ]);
    expect(await listAll(storage)).to.deep.equal([good]);

    // Past one ListObjectsV2 page (1000 keys).
    const many = Array.from({ length: 1005 }, () => storage.newKey());
    for (let i = 0; i < many.length; i += 50) await Promise.all(many.slice(i, i + 50).map((k) => put(prefix + k)));
    expect(await listAll(storage)).to.deep.equal([good, ...many].sort());
  });

  it('idle() waits for the writes and removals in flight', async () => {
    const key = storage.newKey();
    let settled = false;
    const write = storage.write(key, Readable.from([randomBytes(1024)])).then(() => {
      settled = true;
    });
    await storage.idle();
    expect(settled).to.equal(true);
    await write;
    let removed = false;
    void storage.remove(key).then(() => {
      removed = true;
    });
    await storage.idle();
    expect(removed).to.equal(true);
  });

  it('a bucket that does not answer: check() says which, read() is StorageUnavailable, not a missing file', async () => {
    const port = await freePort();
    const down = s3Storage({
      STORAGE_URL: `s3://${S3_BUCKET}/x?endpoint=http://127.0.0.1:${port}`,
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
    });
    expect(describeStorage(down)).to.equal(`s3://${S3_BUCKET}/x/ at http://127.0.0.1:${port}`);
    const err = (await down.check().catch((e) => e)) as Error;
    expect(err.message).to.include(`Cannot reach the file storage (STORAGE_URL bucket s3://${S3_BUCKET}/x/ at http://127.0.0.1:${port}): `);
    expect(await down.read(down.newKey()).catch((e) => e)).to.be.instanceOf(StorageUnavailable);

    const wrong = s3Storage({ ...s3.env('x'), STORAGE_URL: s3.env('x').STORAGE_URL.replace(S3_BUCKET, 'no-such-bucket') });
    expect(((await wrong.check().catch((e) => e)) as Error).message).to.match(
      /Cannot reach the file storage \(STORAGE_URL bucket s3:\/\/no-such-bucket\/x\/ .*\): NotFound \(HTTP 404\)/,
    );
    await s3Storage(s3.env('x')).check();
  });
});

for (const kind of databaseKinds()) {
  describe(`uploads in S3 end to end [${kind}]`, function () {
    this.timeout(120_000);
    let s3: S3TestServer;
    let s: TestServer;
    let token: string;
    let env: Record<string, string>;
    const prefix = `e2e-${kind}-${randomBytes(4).toString('hex')}`;
    const resume = pdfBytes(6000);
    const cv = cvPdf();
    let applicationId: number;
    let entryPath: string;
    let formId: number;
    const storedKeys = async () => (await s.ctx.db('stored_files').select('storage_key')).map((r) => r.storage_key as string).sort();
    const bucketKeys = async () => (await objectNames(s3, `${prefix}/`)).map((k) => k.slice(prefix.length + 1));
    const download = (p: string) => fetch(s.baseUrl + p, { headers: { Authorization: `Bearer ${token}` } });

    before(async () => {
      s3 = await startS3Server();
      s = await startTestServer(kind, { APPLY_RATE_LIMIT: '0', FORM_RATE_LIMIT: '0', ...s3.env(prefix) });
      expect(s.ctx.storage).to.be.instanceOf(S3Storage);
      ({ token } = await hrSession(s.ctx.db));
      env = {
        DATA_DIR: s.testDb.dataDir,
        ...(s.testDb.config.databaseUrl ? { DATABASE_URL: s.testDb.config.databaseUrl } : {}),
        ...s3.env(prefix),
      };
    });
    after(async () => {
      await s?.close();
      await s3?.stop();
      fs.rmSync(s3.dir, { recursive: true, force: true });
    });

    it('an application with its resume and a form entry with its file go to the bucket; HR downloads both', async () => {
      const job = await makeJob(s.ctx, { title: 'Storage Engineer' });
      const applied = await fetch(`${s.baseUrl}/api/jobs/${job.public_id}/apply/`, {
        method: 'POST',
        body: toFormData(validFields({ resume: { data: resume, filename: 'cv.pdf', type: 'application/pdf' } })),
      });
      expect(applied.status, await applied.clone().text()).to.equal(201);
      applicationId = Number((await s.ctx.db('applications').first('id'))!.id);

      const created = await hr(s.baseUrl, token, '/api/hr/forms/', { method: 'POST', body: everyFieldForm({ public_id: 'volunteer' }) });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      formId = created.body.id;
      const submitted = await fetch(`${s.baseUrl}/api/forms/volunteer/submit/`, { method: 'POST', body: submission(GOOD_VALUES, { cv }) });
      expect(submitted.status, await submitted.clone().text()).to.equal(201);

      // Nothing on disk; the bucket holds exactly the files the rows point at.
      expect(fs.existsSync(path.join(s.testDb.dataDir, 'uploads'))).to.equal(false);
      expect(await storedKeys()).to.have.length(2);
      expect(await bucketKeys()).to.deep.equal(await storedKeys());

      const res = await download(`/api/hr/applications/${applicationId}/resume/`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('application/pdf');
      expect(Buffer.from(await res.arrayBuffer()).equals(resume)).to.equal(true);

      const entries = await hr(s.baseUrl, token, `/api/hr/forms/${formId}/entries/`);
      const [entry] = entries.body.results;
      entryPath = `/api/hr/forms/${formId}/entries/${entry.id}/files/${entry.files[0].id}/download/`;
      const file = await download(entryPath);
      expect(file.status).to.equal(200);
      expect(Buffer.from(await file.arrayBuffer()).equals(cv.data)).to.equal(true);
    });

    it('a refused upload (not a resume type) leaves no object behind', async () => {
      const job = await makeJob(s.ctx, { title: 'Another Job' });
      const before = await bucketKeys();
      const res = await fetch(`${s.baseUrl}/api/jobs/${job.public_id}/apply/`, {
        method: 'POST',
        body: toFormData(validFields({ resume: { data: Buffer.alloc(5000, 65), filename: 'cv.pdf' } })),
      });
      expect(res.status).to.equal(400);
      await s.ctx.storage.idle();
      expect(await bucketKeys()).to.deep.equal(before);
    });

    it('careers-admin files sweep removes an object without a row and keeps the referenced ones', async () => {
      const orphan = s.ctx.storage.newKey();
      await s.ctx.storage.write(orphan, Readable.from([Buffer.from('left by a crash')]));
      const kept = await storedKeys();
      const r = cli(['files', 'sweep', '--older-than-minutes', '0'], env);
      expect(r.code, r.err + r.out).to.equal(0);
      expect(r.out).to.include(`removed ${orphan}`);
      expect(r.out).to.include(
        `Checked 3 files in s3://${S3_BUCKET}/${prefix}/ at ${s3.endpoint}: removed 1 file with no database row and 0 empty folders.`,
      );
      expect(await bucketKeys()).to.deep.equal(kept);
    });

    it('careers-admin config names the bucket, doctor checks it; a bad STORAGE_URL stops the CLI with exit code 2', () => {
      const r = cli(['config'], env);
      expect(r.code, r.err).to.equal(0);
      expect(r.out).to.include(
        `Uploads: bucket s3://${S3_BUCKET}/${prefix}/ at ${s3.endpoint} (region us-east-1, keys from AWS_ACCESS_KEY_ID)`,
      );
      expect(r.out).to.match(/AWS_SECRET_ACCESS_KEY\s+\*{8}/);
      const doctor = cli(['doctor', '--json'], env);
      const storageCheck = JSON.parse(doctor.out).checks.find((c: { name: string }) => c.name === 'storage');
      expect(storageCheck).to.deep.equal({
        name: 'storage',
        ok: true,
        detail: `bucket s3://${S3_BUCKET}/${prefix}/ at ${s3.endpoint} answers`,
        fix: null,
      });
      const bad = cli(['files', 'sweep'], { ...env, STORAGE_URL: 's3://user:secret@bucket/x' });
      expect(bad.code).to.equal(2);
      expect(bad.err).to.include('STORAGE_URL must not contain a user name or password').and.not.include('secret@');
    });

    it('a storage that stops answering: downloads and applications answer 503, nothing is kept, the server goes on; back again, 200', async () => {
      const { dir, port } = s3;
      await s3.stop();
      const log = captureLog();
      try {
        for (const p of [`/api/hr/applications/${applicationId}/resume/`, entryPath]) {
          const res = await download(p);
          expect(res.status, p).to.equal(503);
          expect(res.headers.get('retry-after')).to.equal('30');
          expect((await res.json()).detail).to.equal('The file storage cannot be reached just now. Please try again in a moment.');
        }
        // An application cannot be stored either: 503 too, and nothing is kept.
        const job = await makeJob(s.ctx, { title: 'While Down' });
        const applied = await fetch(`${s.baseUrl}/api/jobs/${job.public_id}/apply/`, {
          method: 'POST',
          body: toFormData(validFields({ email: 'down@example.com' })),
        });
        expect(applied.status).to.equal(503);
        expect(applied.headers.get('retry-after')).to.equal('30');
      } finally {
        log.restore();
      }
      // The operator learns why; the bucket's keys are named, never the applicant.
      const lines = log.lines();
      expect(lines.find((l) => l.startsWith('[applicants] a resume cannot be read from storage '))).to.match(
        /the file storage cannot be reached: .*ECONNREFUSED/,
      );
      expect(lines.some((l) => l.startsWith('[forms] an entry file cannot be read from storage '))).to.equal(true);
      expect(lines.filter((l) => l.startsWith('the file storage cannot be reached '))).to.have.length(3);
      expect(lines.join('\n')).to.not.include('down@example.com');
      const keysBefore = await storedKeys();
      s3 = await startS3Server({ dir, port });
      expect(await bucketKeys()).to.deep.equal(keysBefore);
      expect(await s.ctx.db('applications').where({ email: 'down@example.com' }).first()).to.equal(undefined);
      const res = await download(`/api/hr/applications/${applicationId}/resume/`);
      expect(res.status).to.equal(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(resume)).to.equal(true);
    });

    it('careers-admin forms purge and applicants erase remove the objects with the rows', async () => {
      await s.ctx.db('form_entries').update({ created_at: new Date(Date.now() - 3 * 86_400_000) });
      let r = cli(['forms', 'purge', '--older-than', '1d', '--yes'], env);
      expect(r.code, r.err + r.out).to.equal(0);
      expect(r.out).to.include('Removed 1 form entry');
      expect(await bucketKeys()).to.deep.equal(await storedKeys());
      expect(await bucketKeys()).to.have.length(1);

      r = cli(['applicants', 'erase', '--email', 'asha.rao@example.com', '--yes'], env);
      expect(r.code, r.err + r.out).to.equal(0);
      expect(r.out).to.include('Removed 1 application');
      expect(await storedKeys()).to.deep.equal([]);
      expect(await bucketKeys()).to.deep.equal([]);
    });

    // Issue 28 item 11: past S3's 5 MB part size an upload is multipart, and the multipart reader's
    // byte counter (0 when the upload starts) must not be taken for the body's length.
    it('resumes of 5 MB + 100 bytes, 6 MB and 9.5 MB go to the bucket in parts; HR downloads the same bytes', async () => {
      const MB = 1024 * 1024;
      const job = await makeJob(s.ctx, { title: 'Large Resumes' });
      for (const [i, size] of [5 * MB + 100, 6 * MB, 9.5 * MB].entries()) {
        const data = pdfBytes(size);
        // Random bytes inside the PDF, so a part sent twice or out of order shows on comparison.
        randomBytes(size - 200).copy(data, 120);
        const email = `large-${i}@example.com`;
        const applied = await fetch(`${s.baseUrl}/api/jobs/${job.public_id}/apply/`, {
          method: 'POST',
          body: toFormData(validFields({ email, resume: { data, filename: 'big.pdf', type: 'application/pdf' } })),
        });
        expect(applied.status, `${size}: ${await applied.clone().text()}`).to.equal(201);
        const id = Number((await s.ctx.db('applications').where({ email }).first('id'))!.id);
        const res = await download(`/api/hr/applications/${id}/resume/`);
        expect(res.status, `${size}`).to.equal(200);
        const got = Buffer.from(await res.arrayBuffer());
        expect(got.length, `${size}`).to.equal(size);
        expect(got.equals(data), `${size}`).to.equal(true);
      }
      expect(await bucketKeys()).to.deep.equal(await storedKeys());
    });

    it('a 45 MB form submission (three 15 MB files) goes to the bucket; HR downloads each file byte for byte', async () => {
      const MB = 1024 * 1024;
      const fileField = (name: string, order: number) => ({
        name,
        label: name,
        field_type: 'file',
        required: true,
        placeholder: '',
        help_text: '',
        options: [],
        order,
        max_file_size: 20 * MB,
        allowed_extensions: ['pdf'],
      });
      const created = await hr(s.baseUrl, token, '/api/hr/forms/', {
        method: 'POST',
        body: everyFieldForm({
          public_id: 'portfolio',
          sections: [{ title: 'Files', order: 0, fields: [fileField('one', 0), fileField('two', 1), fileField('three', 2)] }],
        }),
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      const files = Object.fromEntries(
        ['one', 'two', 'three'].map((name) => {
          const data = pdfBytes(15 * MB);
          randomBytes(15 * MB - 200).copy(data, 120);
          return [name, { data, name: `${name}.pdf`, type: 'application/pdf' }];
        }),
      );
      const submitted = await fetch(`${s.baseUrl}/api/forms/portfolio/submit/`, { method: 'POST', body: submission({}, files) });
      expect(submitted.status, await submitted.clone().text()).to.equal(201);
      const entries = await hr(s.baseUrl, token, `/api/hr/forms/${created.body.id}/entries/`);
      const [entry] = entries.body.results;
      expect(entry.files).to.have.length(3);
      for (const f of entry.files as { id: number; field_name: string }[]) {
        const res = await download(`/api/hr/forms/${created.body.id}/entries/${entry.id}/files/${f.id}/download/`);
        expect(res.status, f.field_name).to.equal(200);
        expect(Buffer.from(await res.arrayBuffer()).equals(files[f.field_name].data), f.field_name).to.equal(true);
      }
      expect(await bucketKeys()).to.deep.equal(await storedKeys());
    });
  });
}

describe('a server whose bucket cannot be reached', function () {
  this.timeout(60_000);

  it('refuses to start, naming STORAGE_URL and the bucket, with exit code 1', async () => {
    const port = await freePort();
    const dataDir = tmpDir();
    try {
      const c = runServer({
        PORT: String(await freePort()),
        DATA_DIR: dataDir,
        STORAGE_URL: `s3://${S3_BUCKET}/uploads?endpoint=http://127.0.0.1:${port}`,
        AWS_ACCESS_KEY_ID: 'S3RVER',
        AWS_SECRET_ACCESS_KEY: 'S3RVER',
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      });
      const { code } = await c.exited;
      expect(code).to.equal(1);
      expect(c.output()).to.include(
        `Failed to start: Cannot reach the file storage (STORAGE_URL bucket s3://${S3_BUCKET}/uploads/ at http://127.0.0.1:${port}): `,
      );
      expect(c.output()).to.not.include('Careers site on');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
