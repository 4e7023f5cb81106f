/**
 * The database going away under a steady load of applications with files, then coming back
 * (issue 18): during the outage applications answer 503 with Retry-After, afterwards they are
 * taken again, and no 2xx is lost (each 201 has its row and the bytes sent; no other row or file
 * is left, but the file of an application whose COMMIT could not be confirmed: it is kept, as the
 * row may exist, for the files sweep). MySQL through a TCP proxy that cuts every connection and refuses new ones, as a
 * MariaDB restart does (the real server is shared with other tests, so it is not restarted);
 * SQLite with its file made impossible to open (test/helpers/db-faults.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { startFaultyServer, type FaultyServer } from '../helpers/db-faults.js';
import { makeJob } from '../helpers/factories.js';
import { pdfBytes } from '../fixtures/resumes.js';
import { eventually, listFiles, sha256 } from '../fixtures/apply.js';
import { captureLog } from '../helpers/log.js';
import { APPLY_MESSAGES } from '../../src/applicants/apply.service.js';

for (const kind of databaseKinds()) {
  describe(`the database away under a load of applications [${kind}]`, function () {
    this.timeout(120_000);
    let f: FaultyServer;

    before(async () => {
      f = await startFaultyServer(kind, { APPLY_RATE_LIMIT: '0' });
      await makeJob(f.s.ctx.db, { public_id: 'outage-job' });
    });
    after(() => f?.close());

    it('503 with Retry-After while it is away, applications again once it is back, no 2xx lost', async () => {
      const accepted = new Map<string, string>();
      const sentDigests = new Map<string, string>();
      /** Applications answered 503 "could not confirm": their COMMIT was cut with its outcome unknown. */
      const unconfirmed = new Set<string>();
      const statuses = new Map<number, number>();
      let retryAfterMissing = 0;
      let phase: 'before' | 'away' | 'back' = 'before';
      const seenIn = { before: new Set<number>(), away: new Set<number>(), back: new Set<number>() };
      let stop = false;
      const client = async (c: number) => {
        for (let i = 0; !stop; i++) {
          const email = `outage-${c}-${i}@example.com`;
          const resume = Buffer.concat([pdfBytes(100_000), Buffer.from(`%${email}\n`)]);
          const body = new FormData();
          for (const [k, v] of Object.entries({ first_name: 'Out', last_name: 'Age', email, phone: '+919876543210' })) body.set(k, v);
          body.set('resume', new Blob([resume], { type: 'application/pdf' }), 'cv.pdf');
          sentDigests.set(email, sha256(resume));
          const at = phase;
          const res = await fetch(`${f.s.baseUrl}/api/jobs/outage-job/apply/`, { method: 'POST', body });
          const answer = await res.text();
          if (res.status === 503 && answer.includes(APPLY_MESSAGES.unconfirmed)) unconfirmed.add(email);
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          seenIn[at].add(res.status);
          if (res.status === 201) accepted.set(email, sha256(resume));
          if (res.status === 503 && !res.headers.get('retry-after')) retryAfterMissing++;
          if (res.status === 503) await new Promise((resolve) => setTimeout(resolve, 50));
        }
      };
      const log = captureLog();
      const clients = Array.from({ length: 6 }, (_, c) => client(c));
      await eventually(() => {
        expect(accepted.size).to.be.at.least(10);
      }, 20_000);
      await f.takeDatabaseAway();
      phase = 'away';
      await new Promise((resolve) => setTimeout(resolve, 3000));
      await f.bringDatabaseBack();
      phase = 'back';
      const before = accepted.size;
      await eventually(() => {
        expect(accepted.size).to.be.at.least(before + 10);
      }, 30_000);
      stop = true;
      await Promise.all(clients);
      log.restore();
      // The database's notices stay about one a second however many requests failed.
      expect(log.lines().length).to.be.within(1, 10);

      expect(seenIn.away.has(503), `answers while away: ${[...seenIn.away]}`).to.equal(true);
      expect(retryAfterMissing).to.equal(0);
      expect(
        [...statuses.keys()].filter((s) => s !== 201 && s !== 503),
        JSON.stringify([...statuses]),
      ).to.deep.equal([]);
      const db = f.s.ctx.db;
      const uploads = path.join(f.s.testDb.dataDir, 'uploads');
      const rows: { email: string; storage_key: string }[] = await db('applications as a')
        .join('stored_files as s', 's.id', 'a.resume_file_id')
        .select('a.email', 's.storage_key');
      // Every 201 is there. A row may also stand for a 503 whose COMMIT went through as the
      // connection was cut (the answer then says the outcome could not be confirmed).
      const stored = new Set(rows.map((r) => r.email));
      for (const email of accepted.keys()) expect(stored.has(email), email).to.equal(true);
      for (const r of rows) expect(sha256(fs.readFileSync(path.join(uploads, r.storage_key))), r.email).to.equal(sentDigests.get(r.email));
      // A refused upload removes its file: only the rows' files are left, and those of unconfirmed
      // applications without a row (each file ends with its applicant's email).
      const rowKeys = new Set(rows.map((r) => r.storage_key));
      await eventually(() => {
        const files = listFiles(uploads);
        for (const key of rowKeys) expect(files, key).to.include(key);
        for (const key of files.filter((k) => !rowKeys.has(k))) {
          const email = /%(\S+@example\.com)\n$/.exec(fs.readFileSync(path.join(uploads, key), 'latin1'))?.[1];
          expect(
            unconfirmed.has(email ?? ''),
            `${key} (${email}) has no row and its application was not answered "could not confirm"`,
          ).to.equal(true);
        }
      });
    });
  });
}
