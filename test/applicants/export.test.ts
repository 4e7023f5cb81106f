import { expect } from 'chai';
import ExcelJS from 'exceljs';
import { databaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { makeJob } from '../helpers/factories.js';
import { insertApplications, realisticApplications } from '../helpers/applications.js';
import { hrSession } from '../helpers/hr.js';
import { PassThrough } from 'node:stream';
import { BATCHES_AHEAD, escapeCell, textCell, writeWorkbook, XLSX_CONTENT_TYPE, type CellValue } from '../../src/exports/xlsx.js';
import type { Job } from '../../src/jobs/types.js';

const FIXED_HEADERS = [
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
  'Skills',
  'Experience',
  'Education',
  'Resume',
  'Source',
];

async function readSheet(buf: ArrayBuffer): Promise<ExcelJS.Worksheet> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf);
  expect(wb.worksheets).to.have.length(1);
  return wb.worksheets[0];
}

function rowValues(sheet: ExcelJS.Worksheet, n: number): unknown[] {
  return (sheet.getRow(n).values as unknown[]).slice(1);
}

for (const kind of databaseKinds()) {
  describe(`HR applicants export [${kind}]`, () => {
    let s: TestServer;
    let token: string;
    let job: Job;
    let big: Job;
    const get = (path: string, headers: Record<string, string> = { Authorization: `Bearer ${token}` }) =>
      fetch(s.baseUrl + path, { headers });

    before(async () => {
      s = await startTestServer(kind);
      const db = s.ctx.db;
      token = (await hrSession(db)).token;
      job = await makeJob(db, {
        title: 'Export Job',
        questions: [
          { text: '<p>Why <em>us</em>?</p>', answer_type: 'long_text', required: false },
          { text: 'Years', answer_type: 'number', required: false },
          { text: 'Relocate?', answer_type: 'single_choice', options: ['Yes', 'No'], required: false },
          { text: 'Days', answer_type: 'checkbox', options: ['Mon', 'Tue', 'Wed'], required: false },
          { text: 'Removed later', answer_type: 'short_text', required: false },
        ],
      });
      const [why, years, relocate, days, removed] = job.questions;
      await insertApplications(
        db,
        job.id,
        [
          {
            first_name: 'Asha',
            last_name: "D'Souza",
            email: 'Asha@Example.com',
            phone: '+919876543210',
            status: 'REVIEWED',
            created_at: new Date('2026-03-01T10:30:00Z'),
            skills: ['TypeScript', 'SQL'],
            experiences: [
              {
                company: 'Initech',
                role: 'Engineer',
                start: '2019-04',
                end: '2022-08',
                notice_period: '30 days',
                salary: '20 LPA',
                description: 'Built the TPS service.',
              },
              { company: 'Hooli', role: 'Lead', start: '2022-09', end: '', notice_period: '', salary: '', description: '' },
            ],
            education: [{ school: 'IIT Bombay', degree: 'B.Tech', field: 'Computer Science', start: '2015-07', end: '2019-05' }],
            answers: {
              [why.id]: 'Because of the mission.',
              [years.id]: 7,
              [relocate.id]: 'Yes',
              [days.id]: ['Mon', 'Wed'],
              [removed.id]: 'gone',
            },
            resume_name: 'asha-resume.pdf',
          },
          {
            // Hostile texts inserted directly: every one must come out as inert text.
            first_name: 'Mallory',
            last_name: 'Hostile',
            email: 'mallory@example.com',
            phone: '+919812345678',
            created_at: new Date('2026-03-02T08:00:00Z'),
            skills: ['@SUM(A1:A9)', '-2+3'],
            experiences: [
              { company: '=1+1', role: '+cmd|calc', start: '2020-01', end: '2021-01', notice_period: '', salary: '', description: '' },
            ],
            education: [{ school: 'Tab\tSchool', degree: '\tDeg', field: '', start: '2010-01', end: '2014-01' }],
            answers: { [why.id]: '=HYPERLINK("http://evil.example","click")\u0001', [relocate.id]: 'No', [days.id]: ['Tue'] },
            resume_name: '=evil().pdf',
          },
          {
            first_name: 'Noanswers',
            last_name: '',
            email: 'quiet@example.com',
            phone: '+919800000000',
            created_at: new Date('2026-03-03T08:00:00Z'),
            resume_name: null,
          },
        ],
        job.questions,
      );
      await db('job_questions').where({ id: removed.id }).update({ is_deleted: 1 });
      job.questions = job.questions.filter((q) => q.id !== removed.id);

      // More than two export batches, most sharing one created_at, so the keyset's tie-break on id matters.
      big = await makeJob(db, { title: 'Big Job', questions: [{ text: 'City', answer_type: 'short_text', required: true }] });
      const same = new Date('2026-04-01T00:00:00Z');
      await insertApplications(
        db,
        big.id,
        [...realisticApplications(1234, big.questions, { seed: 7, emailTag: 'big' })].map((a, i) => ({
          ...a,
          created_at: i % 3 ? same : a.created_at,
        })),
        big.questions,
        { batchSize: 500 },
      );
    });
    after(() => s.close());

    it('streams a real .xlsx with every applicant, all fields and one column per current question', async () => {
      const res = await get(`/api/hr/jobs/${job.id}/export-basic/`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal(XLSX_CONTENT_TYPE);
      expect(res.headers.get('content-disposition')).to.equal(`attachment; filename="applicants_job_${job.id}.xlsx"`);
      const sheet = await readSheet(await res.arrayBuffer());
      expect(sheet.rowCount).to.equal(4);
      expect(rowValues(sheet, 1)).to.deep.equal([...FIXED_HEADERS, 'Why us?', 'Years', 'Relocate?', 'Days']);

      const asha = rowValues(sheet, 2);
      expect(asha.slice(1, 6)).to.deep.equal(['Asha', "D'Souza", 'asha@example.com', '+919876543210', 'REVIEWED']);
      expect(asha[0]).to.be.a('number');
      expect((asha[9] as Date).toISOString()).to.equal('2026-03-01T10:30:00.000Z');
      expect(asha[10]).to.equal('TypeScript, SQL');
      expect(asha[11]).to.equal(
        'Engineer at Initech, 2019-04 – 2022-08; notice period: 30 days; salary: 20 LPA; Built the TPS service.\nLead at Hooli, 2022-09 – Present',
      );
      expect(asha[12]).to.equal('B.Tech, Computer Science — IIT Bombay, 2015-07 – 2019-05');
      // The resume column holds the download name (the person and the job), not the name sent.
      expect(asha[13]).to.equal(`Asha-D-Souza-Export-Job.pdf`);
      // Issue 21: where the applicant came from; empty for a direct application.
      expect(asha[14] ?? '').to.equal('');
      expect(asha.slice(15)).to.deep.equal(['Because of the mission.', 7, 'Yes', 'Mon, Wed']);

      const quiet = rowValues(sheet, 4);
      expect(quiet[1]).to.equal('Noanswers');
      expect(quiet.slice(10).every((v) => v === undefined || v === '')).to.equal(true);
    });

    it("carries each applicant's stage, outcome and rejection reason", async () => {
      const before = rowValues(await readSheet(await (await get(`/api/hr/jobs/${job.id}/export-basic/`)).arrayBuffer()), 3);
      expect([6, 7, 8].map((i) => before[i] ?? '')).to.deep.equal(['Applied', '', '']);
      const mallory = await s.ctx.db('applications').where({ job_id: job.id, first_name: 'Mallory' }).first('id');
      const res = await fetch(`${s.baseUrl}/api/hr/applications/${mallory.id}/`, {
        method: 'PATCH',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ outcome: 'REJECTED', reason: 'Not a fit' }),
      });
      expect(res.status).to.equal(200);
      const sheet = await readSheet(await (await get(`/api/hr/jobs/${job.id}/export-basic/`)).arrayBuffer());
      expect(rowValues(sheet, 3).slice(5, 9)).to.deep.equal(['ARCHIVED', 'Applied', 'Rejected', 'Not a fit']);
      expect([6, 7, 8].map((i) => rowValues(sheet, 2)[i] ?? '')).to.deep.equal(['Applied', '', '']);
      // The list's export says the same.
      const list = await readSheet(await (await get(`/api/hr/applications/export/?job_id=${job.id}&ordering=created_at`)).arrayBuffer());
      expect(rowValues(list, 1).slice(5, 10)).to.deep.equal(['Status', 'Stage', 'Outcome', 'Rejection Reason', 'Applied At (UTC)']);
      expect(rowValues(list, 3).slice(5, 9)).to.deep.equal(['ARCHIVED', 'Applied', 'Rejected', 'Not a fit']);
      await s.ctx.db('applications').where('id', mallory.id).update({ outcome: null, outcome_reason: null, status: 'NEW' });
    });

    it('escapes formula-like cells and strips characters XML cannot carry', async () => {
      const res = await get(`/api/hr/jobs/${job.id}/export-basic/`);
      const sheet = await readSheet(await res.arrayBuffer());
      const m = rowValues(sheet, 3);
      expect(m[1]).to.equal('Mallory');
      expect(m[4]).to.equal('+919812345678'); // a plain number computes nothing
      expect(m[10]).to.equal("'@SUM(A1:A9), -2+3");
      expect(m[11]).to.equal("'+cmd|calc at =1+1, 2020-01 – 2021-01");
      expect(m[12]).to.equal("'\tDeg — Tab\tSchool, 2010-01 – 2014-01");
      expect(m[13]).to.equal(`Mallory-Hostile-Export-Job.pdf`);
      expect(m[15]).to.equal(`'=HYPERLINK("http://evil.example","click")`);
      sheet.eachRow((row) => row.eachCell((cell) => expect(cell.type, String(cell.address)).to.not.equal(ExcelJS.ValueType.Formula)));
    });

    it('exports every applicant across keyset batches, each exactly once', async () => {
      const res = await get(`/api/hr/jobs/${big.id}/export-basic/`);
      expect(res.status).to.equal(200);
      const sheet = await readSheet(await res.arrayBuffer());
      expect(sheet.rowCount).to.equal(1235);
      const ids = new Set<number>();
      for (let r = 2; r <= sheet.rowCount; r++) ids.add(sheet.getRow(r).getCell(1).value as number);
      const expected = (await s.ctx.db('applications').where({ job_id: big.id }).select('id')).map((r: any) => Number(r.id));
      expect(ids.size).to.equal(1234);
      expect([...ids].sort((a, b) => a - b)).to.deep.equal(expected.sort((a, b) => a - b));
      // Oldest first.
      const dates = Array.from({ length: 1234 }, (_, i) => (sheet.getRow(i + 2).getCell(10).value as Date).getTime());
      expect(dates).to.deep.equal([...dates].sort((a, b) => a - b));
    });

    it('answers 404 for unknown jobs and 401 without a valid token', async () => {
      for (const id of ['999999', 'abc']) {
        const res = await get(`/api/hr/jobs/${id}/export-basic/`);
        expect(res.status).to.equal(404);
        expect(await res.json()).to.deep.equal({ detail: 'Not found.' });
      }
      expect((await get(`/api/hr/jobs/${job.id}/export-basic/`, {})).status).to.equal(401);
      expect((await get(`/api/hr/jobs/${job.id}/export-basic/`, { Authorization: 'Bearer x' })).status).to.equal(401);
    });

    it('survives a client that goes away mid-download', async () => {
      const ac = new AbortController();
      const res = await fetch(`${s.baseUrl}/api/hr/jobs/${big.id}/export-basic/`, {
        headers: { Authorization: `Bearer ${token}` },
        signal: ac.signal,
      });
      const reader = res.body!.getReader();
      await reader.read();
      ac.abort();
      await new Promise((r) => setTimeout(r, 200));
      const again = await get(`/api/hr/jobs/${job.id}/export-basic/`);
      expect(again.status).to.equal(200);
      expect((await readSheet(await again.arrayBuffer())).rowCount).to.equal(4);
    });
  });
}

describe('export cell escaping', () => {
  it('prefixes = + - @ tab and CR with a single quote, leaves plain numbers and other text alone', () => {
    for (const v of ['=1+1', '+A1', '-A1', '@SUM(A1)', '\tx', '\rx', '-2+3', '+91 98765']) expect(escapeCell(v)).to.equal(`'${v}`);
    for (const v of ['+919876543210', '-5', '2.5', 'Asha', " '=quoted", '', 'a=b']) expect(escapeCell(v)).to.equal(v);
  });

  it('textCell strips XML-invalid characters, keeps line breaks and caps the length', () => {
    expect(textCell('a\u0000b\u0007c\nd')).to.equal('abc\nd');
    expect(textCell(null)).to.equal('');
    expect(textCell('x'.repeat(40_000))).to.have.length(32_767);
  });
});

describe('writeWorkbook', () => {
  const columns = [{ header: 'ID' }, { header: 'Text' }];

  it('writes every batch in order and reports the rows written after each', async () => {
    const events: string[] = [];
    async function* rows(): AsyncGenerator<CellValue[][]> {
      for (let i = 0; i < 3; i++) {
        events.push(`read ${i}`);
        yield [[i, `row ${i}`]];
      }
    }
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const written = await writeWorkbook(out, { filename: 'x.xlsx', sheetName: 'Rows', columns, rows: rows() }, (n) =>
      events.push(`wrote ${n}`),
    );
    expect(written).to.equal(3);
    // The batches are read while the workbook's thread writes the ones before (up to BATCHES_AHEAD).
    expect(events).to.deep.equal(['read 0', 'read 1', 'read 2', 'wrote 1', 'wrote 2', 'wrote 3']);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.concat(chunks) as any);
    expect(book.worksheets[0].getRow(4).values).to.deep.equal([undefined, 2, 'row 2']);
  });

  it('passes on a batch that fails to be read, with no unhandled rejection', async () => {
    async function* rows(): AsyncGenerator<CellValue[][]> {
      yield [[1, 'one']];
      yield [[2, 'two']];
      throw new Error('database went away');
    }
    const unhandled: unknown[] = [];
    const onUnhandled = (err: unknown) => unhandled.push(err);
    process.on('unhandledRejection', onUnhandled);
    try {
      const out = new PassThrough();
      out.resume();
      const failure = await writeWorkbook(out, { filename: 'x.xlsx', sheetName: 'Rows', columns, rows: rows() }).then(
        () => null,
        (err: Error) => err,
      );
      expect(failure?.message).to.equal('database went away');
      await new Promise((r) => setTimeout(r, 20));
      expect(unhandled).to.deep.equal([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('reads BATCHES_AHEAD batches ahead while the output drains, and closes the rows when the output closes early', async () => {
    let batchesRead = 0;
    let closed = false;
    async function* rows(): AsyncGenerator<CellValue[][]> {
      try {
        for (;;) {
          batchesRead += 1;
          yield Array.from({ length: 500 }, (_, k) => [k, `${k} ${'x'.repeat(300)}`]);
        }
      } finally {
        closed = true;
      }
    }
    // Nobody reads the output, so the workbook waits for it to drain until it is destroyed.
    const out = new PassThrough();
    let batchesWritten = 0;
    const writing = writeWorkbook(out, { filename: 'x.xlsx', sheetName: 'Rows', columns, rows: rows() }, (n) => (batchesWritten = n / 500));
    // Until writing stops moving (the workbook's thread takes a moment to start).
    let seen = -1;
    for (let waited = 0; waited < 10_000 && (batchesWritten === 0 || batchesWritten !== seen); waited += 200) {
      seen = batchesWritten;
      await new Promise((r) => setTimeout(r, 200));
    }
    // Writing waits for the output: BATCHES_AHEAD batches wait in the workbook's thread, and the
    // one after them was read meanwhile, no more.
    expect(batchesWritten).to.be.greaterThan(0);
    expect(batchesRead).to.equal(batchesWritten + BATCHES_AHEAD + 1);
    out.destroy();
    const failure = await writing.then(
      () => null,
      (err: Error) => err,
    );
    expect(failure?.name).to.equal('ExportAborted');
    expect(closed).to.equal(true);
    expect(batchesRead).to.equal(batchesWritten + BATCHES_AHEAD + 1);
  });
});
