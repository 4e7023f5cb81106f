/**
 * The applicants list's Export (GET /api/hr/applications/export/): the page's link carries the
 * list's filters, and following it with the page's session cookie downloads the workbook of
 * exactly those applicants, in the list's order, with a job column.
 */
import { expect } from 'chai';
import ExcelJS from 'exceljs';
import { databaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { makeJob } from '../helpers/factories.js';
import { insertApplications } from '../helpers/applications.js';
import { hrSession } from '../helpers/hr.js';
import { XLSX_CONTENT_TYPE } from '../../src/exports/xlsx.js';
import type { Job } from '../../src/jobs/types.js';
import { listExportRows } from '../../src/applicants/list-export.queries.js';

const HEADERS = [
  'ID',
  'First Name',
  'Last Name',
  'Email',
  'Phone',
  'Status',
  'Stage',
  'Outcome',
  'Rejection Reason',
  'Applied At (UTC)',
  'Job',
  'Job Public ID',
  'Resume',
  'Source',
];

async function sheetRows(res: Response): Promise<unknown[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(await res.arrayBuffer());
  const rows: unknown[][] = [];
  wb.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

for (const kind of databaseKinds()) {
  describe(`HR applicants list export [${kind}]`, () => {
    let s: TestServer;
    let token: string;
    let a: Job;
    let b: Job;

    before(async () => {
      s = await startTestServer(kind);
      const db = s.ctx.db;
      token = (await hrSession(db)).token;
      a = await makeJob(db, { title: 'Alpha Engineer' });
      b = await makeJob(db, { title: 'Beta Designer' });
      const app = (first: string, status: 'NEW' | 'REVIEWED', day: string) => ({
        first_name: first,
        last_name: 'Test',
        email: `${first.toLowerCase()}@example.com`,
        phone: '+919876543210',
        status,
        created_at: new Date(`${day}T09:00:00Z`),
        resume_name: null,
      });
      await insertApplications(
        db,
        a.id,
        [app('Asha', 'NEW', '2026-03-01'), app('Bala', 'REVIEWED', '2026-03-02'), app('Chen', 'NEW', '2026-03-05')],
        a.questions,
      );
      await insertApplications(db, b.id, [app('Dana', 'NEW', '2026-03-03')], b.questions);
    });
    after(() => s.close());

    it("the page's Export link keeps the filters and downloads those applicants, newest first, with their job", async () => {
      const cookie = { Cookie: `jwt=${token}` };
      const html = await (await fetch(`${s.baseUrl}/hr/applicants?status=NEW&date_to=2026-03-04`, { headers: cookie })).text();
      const href = /<a [^>]*href="([^"]+)"[^>]*data-export-download/.exec(html)?.[1].replace(/&amp;/g, '&');
      expect(href).to.equal('/api/hr/applications/export/?status=NEW&date_to=2026-03-04');
      // A link sends the session cookie, not a Bearer header: GETs under /api/hr take the cookie.
      const res = await fetch(s.baseUrl + href!, { headers: cookie });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal(XLSX_CONTENT_TYPE);
      expect(res.headers.get('content-disposition')).to.equal('attachment; filename="applicants.xlsx"');
      const rows = await sheetRows(res);
      expect(rows[0]).to.deep.equal(HEADERS);
      expect(rows.slice(1).map((r) => [r[1], r[5], r[10], r[11]])).to.deep.equal([
        ['Dana', 'NEW', 'Beta Designer', b.public_id],
        ['Asha', 'NEW', 'Alpha Engineer', a.public_id],
      ]);
    });

    it('honours job and ordering, refuses bad filters and signed-out callers', async () => {
      const auth = { Authorization: `Bearer ${token}` };
      const res = await fetch(`${s.baseUrl}/api/hr/applications/export/?job_id=${a.id}&ordering=created_at`, { headers: auth });
      expect((await sheetRows(res)).slice(1).map((r) => r[1])).to.deep.equal(['Asha', 'Bala', 'Chen']);
      const bad = await fetch(`${s.baseUrl}/api/hr/applications/export/?status=LOST`, { headers: auth });
      expect(bad.status).to.equal(400);
      expect(await bad.json()).to.have.property('status');
      expect((await fetch(`${s.baseUrl}/api/hr/applications/export/`)).status).to.equal(401);
    });

    it("writes the dates in the viewer's zone (?tz=), named in the header row; an unknown zone is a 400", async () => {
      const auth = { Authorization: `Bearer ${token}` };
      const rows = await sheetRows(
        await fetch(`${s.baseUrl}/api/hr/applications/export/?job_id=${a.id}&ordering=created_at&tz=Asia/Kolkata`, { headers: auth }),
      );
      expect(rows[0][9]).to.equal('Applied At (Asia/Kolkata)');
      // 09:00 UTC is 14:30 in Kolkata: the cell shows the wall clock there.
      expect((rows[1][9] as Date).toISOString()).to.equal('2026-03-01T14:30:00.000Z');
      const job = await sheetRows(await fetch(`${s.baseUrl}/api/hr/jobs/${a.id}/export-basic/?tz=America/New_York`, { headers: auth }));
      expect(job[0][9]).to.equal('Applied At (America/New_York)');
      expect((job[1][9] as Date).toISOString()).to.equal('2026-03-01T04:00:00.000Z');
      const utc = await sheetRows(
        await fetch(`${s.baseUrl}/api/hr/applications/export/?job_id=${a.id}&ordering=created_at&tz=UTC`, { headers: auth }),
      );
      expect(utc[0][9]).to.equal('Applied At (UTC)');
      expect((utc[1][9] as Date).toISOString()).to.equal('2026-03-01T09:00:00.000Z');
      for (const tz of ['Mars/Olympus', '<script>', 'x'.repeat(100), 'Europe/Paris/../..']) {
        const bad = await fetch(`${s.baseUrl}/api/hr/applications/export/?tz=${encodeURIComponent(tz)}`, { headers: auth });
        expect(bad.status, tz).to.equal(400);
        expect(await bad.json()).to.deep.equal({ tz: ['Unknown time zone: use an IANA name such as Europe/Paris.'] });
      }
      const twice = await fetch(`${s.baseUrl}/api/hr/applications/export/?tz=UTC&tz=Asia/Kolkata`, { headers: auth });
      expect(twice.status).to.equal(400);
    });

    it('batches follow each other in both orders without losing or repeating a row', async () => {
      const filters = { job_id: null, q: '', status: null, date_from: null, date_to: null } as const;
      for (const ordering of ['created_at', '-created_at'] as const) {
        const names: unknown[] = [];
        for await (const batch of listExportRows(s.ctx.db, { ...filters, ordering }, 2)) names.push(...batch.map((r) => r[1]));
        const expected = ['Asha', 'Bala', 'Dana', 'Chen'];
        expect(names).to.deep.equal(ordering === 'created_at' ? expected : expected.reverse());
      }
    });
  });
}
