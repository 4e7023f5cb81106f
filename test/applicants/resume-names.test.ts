/**
 * The name HR's browser saves a resume under, on SQLite and MySQL: the person and the job plus the
 * extension of the type detected from the bytes, whatever name and type the applicant sent. A PDF
 * sent as `resume.html`, `cv.pdf.hta` or `resume%2Epdf%2Ehta` is saved as `.pdf`, and the detail,
 * the list and the export show that same name.
 */
import { expect } from 'chai';
import ExcelJS from 'exceljs';
import { databaseKinds } from '../helpers/db.js';
import { hrSession } from '../helpers/hr.js';
import { makeJob } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { toFormData, validFields } from '../fixtures/apply.js';
import { docxBytes, pdfBytes } from '../fixtures/resumes.js';
import { hr } from './helpers.js';

const SENT_NAMES = ['resume.html', 'cv.pdf.hta', 'resume%2Epdf%2Ehta', '..\\..\\startup\\x.exe', 'a"b\r\nSet-Cookie: x=y.svg', '.htaccess'];

for (const kind of databaseKinds()) {
  describe(`resume download names [${kind}]`, () => {
    let s: TestServer;
    let token: string;
    let jobId: number;

    const apply = async (
      email: string,
      first_name: string,
      last_name: string,
      resume: { data: Buffer; filename: string; type: string },
    ) => {
      const res = await fetch(`${s.baseUrl}/api/jobs/platform-1/apply/`, {
        method: 'POST',
        body: toFormData(validFields({ email, first_name, last_name, resume })),
      });
      expect(res.status, await res.clone().text()).to.equal(201);
      return Number((await s.ctx.db('applications').where({ email }).first('id')).id);
    };
    const download = async (id: number) => {
      const res = await fetch(`${s.baseUrl}/api/hr/applications/${id}/resume/`, { headers: { Authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      return res;
    };

    before(async () => {
      s = await startTestServer(kind, { APPLY_RATE_LIMIT: '0' });
      ({ token } = await hrSession(s.ctx.db));
      jobId = (await makeJob(s.ctx.db, { title: 'Platform Engineer', public_id: 'platform-1' })).id;
    });
    after(() => s.close());

    it('ends every name in the detected type, with the person and the job as the base, whatever name was sent', async () => {
      for (const [i, filename] of SENT_NAMES.entries()) {
        const id = await apply(`sent-${i}@example.com`, 'Élodie', 'Durand', { data: pdfBytes(3000), filename, type: 'text/html' });
        const res = await download(id);
        expect(res.headers.get('content-type'), filename).to.equal('application/pdf');
        expect(res.headers.get('content-disposition'), filename).to.equal(
          "attachment; filename=_lodie-Durand-Platform-Engineer.pdf; filename*=UTF-8''%C3%89lodie-Durand-Platform-Engineer.pdf",
        );
        const detail = await hr(s.baseUrl, token, `/api/hr/applications/${id}/`);
        expect(detail.body.resume_filename, filename).to.equal('Élodie-Durand-Platform-Engineer.pdf');
        const list = await hr(s.baseUrl, token, `/api/hr/applications/?q=sent-${i}%40example.com&detailed=true`);
        expect(
          list.body.results.map((r: any) => r.resume_filename),
          filename,
        ).to.deep.equal(['Élodie-Durand-Platform-Engineer.pdf']);
      }
    });

    it('takes a DOCX extension from the bytes, and keeps apostrophes and spaces of a name out as single dashes', async () => {
      const id = await apply('docx@example.com', 'Asha Maria', "D'Souza", {
        data: docxBytes(),
        filename: 'cv.pdf',
        type: 'application/pdf',
      });
      const res = await download(id);
      expect(res.headers.get('content-disposition')).to.equal('attachment; filename=Asha-Maria-D-Souza-Platform-Engineer.docx');
    });

    it('puts the same names in the export', async () => {
      const res = await fetch(`${s.baseUrl}/api/hr/jobs/${jobId}/export-basic/`, { headers: { Authorization: `Bearer ${token}` } });
      expect(res.status).to.equal(200);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(Buffer.from(await res.arrayBuffer()) as any);
      const sheet = book.worksheets[0];
      const header = (sheet.getRow(1).values as unknown[]).map(String);
      const column = header.indexOf('Resume');
      expect(column, header.join('|')).to.be.greaterThan(0);
      const names = new Set<string>();
      sheet.eachRow((row, n) => n > 1 && names.add(String(row.getCell(column).value)));
      expect([...names].sort()).to.deep.equal(['Asha-Maria-D-Souza-Platform-Engineer.docx', 'Élodie-Durand-Platform-Engineer.pdf']);
    });
  });
}
