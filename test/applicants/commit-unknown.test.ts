/**
 * The connection fails during an application's COMMIT (issue 9, item 7), for real:
 * - MySQL: a TCP proxy between the server and MariaDB cuts the connection when it sees the
 *   COMMIT, either before MariaDB receives it (nothing is committed) or after MariaDB committed
 *   and answered (the answer never arrives);
 * - SQLite: the pool's better-sqlite3 handle is closed just before the COMMIT runs (SQLite rolls
 *   the transaction back), or just after running that COMMIT on it (committed, yet the driver
 *   reports a closed connection).
 * Either way the server cannot know the outcome: it answers 503 with a message that does not say
 * the application failed, and keeps the resume. Afterwards: when the row exists its file exists
 * (and the applicant's retry is refused as a duplicate), and when no row exists the orphan sweep
 * removes the file. A connection lost before the COMMIT is a certain failure: the file goes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { startFaultyServer, type FaultyServer } from '../helpers/db-faults.js';
import { makeJob } from '../helpers/factories.js';
import { listFiles, sha256, tableCounts, toFormData, uploadsRoot, validFields } from '../fixtures/apply.js';
import { pdfBytes } from '../fixtures/resumes.js';
import { APPLY_MESSAGES } from '../../src/applicants/apply.service.js';
import { DB_RETRY_AFTER_SECONDS } from '../../src/db/errors.js';
import { UNAVAILABLE_MESSAGES } from '../../src/http/error-handler.js';
import { sweepOrphanFiles } from '../../src/storage/sweep.js';
import type { SweepableStorage } from '../../src/storage/storage.js';
import { captureLog } from '../helpers/log.js';

const COMMIT = /^\s*COMMIT\b/i;

for (const kind of databaseKinds()) {
  describe(`apply: the connection fails during COMMIT [${kind}]`, function () {
    this.timeout(60_000);
    let f: FaultyServer;
    let root: string;
    let log: ReturnType<typeof captureLog>;

    before(async () => {
      f = await startFaultyServer(kind, { APPLY_RATE_LIMIT: '0' });
      root = uploadsRoot(f.s.ctx);
      await makeJob(f.s.ctx.db, { public_id: 'hooked', webhook_enabled: true, webhook_url: 'https://hooks.example.com/commit' });
    });
    after(() => f.close());
    beforeEach(() => {
      log = captureLog();
    });
    afterEach(() => {
      log.restore();
    });

    const url = () => `${f.s.baseUrl}/api/jobs/hooked/apply/`;
    const db = () => f.s.ctx.db;

    async function applyWithFault(email: string, when: 'before' | 'after', pattern = COMMIT) {
      const resume = pdfBytes(300_000);
      const fault = f.failNext(pattern, when);
      const res = await fetch(url(), {
        method: 'POST',
        body: toFormData(validFields({ email, resume: { data: resume, filename: 'cv.pdf' } })),
      });
      await fault;
      return { res, body: await res.json(), resume };
    }

    async function rowFor(email: string) {
      return db()('applications').where({ email }).first();
    }

    const sweep = () => sweepOrphanFiles(db(), f.s.ctx.storage as SweepableStorage, { olderThanMs: 0 });

    it('committed, but the answer was lost: 503 "could not confirm", row and outbox row kept with their file; the retry is a duplicate; the sweep keeps the file', async () => {
      const before = listFiles(root);
      const { res, body, resume } = await applyWithFault('kept@example.com', 'after');
      expect(res.status).to.equal(503);
      expect(res.headers.get('retry-after')).to.equal(String(DB_RETRY_AFTER_SECONDS));
      expect(body).to.deep.equal({ detail: APPLY_MESSAGES.unconfirmed });
      expect(body.detail).not.to.match(/fail/i);

      const row = await rowFor('kept@example.com');
      expect(row, 'the COMMIT went through').to.not.equal(undefined);
      const file = await db()('stored_files').where({ id: row.resume_file_id }).first();
      const stored = path.join(root, file.storage_key);
      expect(fs.existsSync(stored), 'its file is kept').to.equal(true);
      expect(sha256(fs.readFileSync(stored))).to.equal(sha256(resume));
      expect(await db()('application_posts').where({ application_id: row.id })).to.have.length(1);
      expect(listFiles(root)).to.deep.equal([...before, file.storage_key].sort());
      // One line, naming the kept file, no stack.
      expect(log.lines()).to.have.length(1);
      expect(log.lines()[0])
        .to.include('outcome unknown')
        .and.include(file.storage_key)
        .and.not.match(/\n\s+at /);

      // The applicant follows the message and sends it again.
      const again = await fetch(url(), { method: 'POST', body: toFormData(validFields({ email: 'kept@example.com' })) });
      expect(again.status).to.equal(400);
      expect(await again.json()).to.deep.equal({ email: [APPLY_MESSAGES.duplicate] });
      expect(await db()('applications').where({ email: 'kept@example.com' })).to.have.length(1);

      const swept = await sweep();
      expect(swept.removed).to.deep.equal([]);
      expect(fs.existsSync(stored)).to.equal(true);
    });

    it('not committed (the COMMIT never reached the database): 503 "could not confirm", no row, the file kept until the sweep removes it; the retry goes through', async () => {
      const before = listFiles(root);
      const countsBefore = await tableCounts(db());
      const { res, body } = await applyWithFault('lost@example.com', 'before');
      expect(res.status).to.equal(503);
      expect(body).to.deep.equal({ detail: APPLY_MESSAGES.unconfirmed });
      expect(await rowFor('lost@example.com')).to.equal(undefined);
      expect(await tableCounts(db())).to.deep.equal(countsBefore);
      const orphans = listFiles(root).filter((k) => !before.includes(k));
      expect(orphans, 'the file is kept: the server could not know').to.have.length(1);
      expect(log.lines()).to.have.length(1);

      const swept = await sweep();
      expect(swept.removed).to.deep.equal(orphans);
      expect(listFiles(root)).to.deep.equal(before);

      const again = await fetch(url(), { method: 'POST', body: toFormData(validFields({ email: 'lost@example.com' })) });
      expect(again.status, JSON.stringify(await again.clone().json())).to.equal(201);
      const row = await rowFor('lost@example.com');
      const file = await db()('stored_files').where({ id: row.resume_file_id }).first();
      expect(fs.existsSync(path.join(root, file.storage_key))).to.equal(true);
    });

    it('the connection lost before the COMMIT (during an insert) is a certain failure: 503 unavailable, no row, the file removed at once', async () => {
      const before = listFiles(root);
      const countsBefore = await tableCounts(db());
      const { res, body } = await applyWithFault('midway@example.com', 'before', /^insert into `application_skills`/i);
      expect(res.status).to.equal(503);
      expect(body).to.deep.equal({ detail: UNAVAILABLE_MESSAGES.detail });
      expect(await tableCounts(db())).to.deep.equal(countsBefore);
      expect(listFiles(root)).to.deep.equal(before);
      expect(log.lines().join('\n')).not.to.include('outcome unknown');
    });

    it('every row that exists has its file; the server goes on taking applications', async () => {
      const ok = await fetch(url(), { method: 'POST', body: toFormData(validFields({ email: 'after@example.com' })) });
      expect(ok.status).to.equal(201);
      const keys = (await db()('stored_files').select('storage_key')).map((r: { storage_key: string }) => r.storage_key).sort();
      expect(listFiles(root)).to.deep.equal(keys);
      expect(await db()('applications').count({ n: '*' }).first()).to.satisfy((r: { n: number | string }) => Number(r.n) === keys.length);
    });
  });
}
