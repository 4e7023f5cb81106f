/**
 * Hostile resumes (issue 28, items 1 and 2) over HTTP on SQLite and MySQL: a 2 KB DOC whose sector
 * chain loops and a DOCX of 500,000 empty paragraphs pass the upload check; HR asking for their
 * preview gets 422 "No preview for this file; download it." while /healthz keeps answering within
 * 1 s, the process stays up (a parse on the main thread would abort it: exit 133), the files stay
 * downloadable byte for byte, and the next real resume's preview works.
 */
import fs from 'node:fs';
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { hrSession } from '../helpers/hr.js';
import { makeJob } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { toFormData, validFields } from '../fixtures/apply.js';
import { DOC_SAMPLE_PATH, DOC_SAMPLE_TEXT, emptyParagraphsDocxBytes, loopingDocBytes } from '../fixtures/resumes.js';
import { hr } from './helpers.js';

const NO_PREVIEW = 'No preview for this file; download it.';
const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

for (const kind of databaseKinds()) {
  describe(`hostile resumes: previews off the main thread [${kind}]`, () => {
    let s: TestServer;
    let token: string;
    const applied: Record<string, number> = {};
    const files = {
      loop: { data: loopingDocBytes(), filename: 'cv.doc', type: 'application/msword' },
      paragraphs: { data: emptyParagraphsDocxBytes(500_000), filename: 'cv.docx', type: DOCX_TYPE },
      real: { data: fs.readFileSync(DOC_SAMPLE_PATH), filename: 'cv.doc', type: 'application/msword' },
    };

    before(async () => {
      s = await startTestServer(kind, { APPLY_RATE_LIMIT: '0' });
      ({ token } = await hrSession(s.ctx.db));
      await makeJob(s.ctx.db, { title: 'Hostile Tester', public_id: 'hostile-1' });
      for (const [name, resume] of Object.entries(files)) {
        const email = `${name}@hostile.example`;
        const res = await fetch(`${s.baseUrl}/api/jobs/hostile-1/apply/`, {
          method: 'POST',
          body: toFormData(validFields({ email, resume })),
        });
        expect(res.status, await res.clone().text()).to.equal(201);
        applied[name] = Number((await s.ctx.db('applications').where({ email }).first('id')).id);
      }
    });
    after(() => s.close());

    /** Polls /healthz every 100 ms while `work` runs; the slowest answer in ms. */
    async function slowestHealth<T>(work: () => Promise<T>): Promise<{ result: T; slowestMs: number }> {
      let slowestMs = 0;
      let running = true;
      const poll = (async () => {
        while (running) {
          const t = performance.now();
          const res = await fetch(`${s.baseUrl}/healthz`, { signal: AbortSignal.timeout(5000) });
          expect(res.status).to.equal(200);
          slowestMs = Math.max(slowestMs, performance.now() - t);
          await new Promise((r) => setTimeout(r, 100));
        }
      })();
      try {
        return { result: await work(), slowestMs };
      } finally {
        running = false;
        await poll;
      }
    }

    for (const name of ['loop', 'paragraphs'] as const) {
      it(`answers 422 for the ${name === 'loop' ? 'looping DOC' : 'DOCX of 500,000 empty paragraphs'}, /healthz within 1 s throughout`, async () => {
        const rssBefore = process.memoryUsage().rss;
        const { result, slowestMs } = await slowestHealth(() =>
          hr(s.baseUrl, token, `/api/hr/applications/${applied[name]}/resume/preview/`),
        );
        expect(result.status).to.equal(422);
        expect(result.body).to.deep.equal({ detail: NO_PREVIEW });
        expect(slowestMs).to.be.below(1000);
        // The worker's heap is its own: the server's memory stays where it was.
        expect(process.memoryUsage().rss - rssBefore).to.be.below(200 * 1024 * 1024);
      });
    }

    it('answers every HR user who opens it again, the same way, and keeps the file downloadable', async () => {
      const [a, b] = await Promise.all([0, 1].map(() => hr(s.baseUrl, token, `/api/hr/applications/${applied.loop}/resume/preview/`)));
      expect([a.status, b.status]).to.deep.equal([422, 422]);
      const res = await fetch(`${s.baseUrl}/api/hr/applications/${applied.loop}/resume/`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-disposition')).to.match(/^attachment;/);
      expect(Buffer.from(await res.arrayBuffer()).equals(files.loop.data)).to.equal(true);
      const page = await fetch(`${s.baseUrl}/hr/applicants/${applied.loop}`, { headers: { Cookie: `jwt=${token}` } });
      expect(page.status).to.equal(200);
    });

    it('previews the next real resume as before', async () => {
      const { status, body } = await hr(s.baseUrl, token, `/api/hr/applications/${applied.real}/resume/preview/`);
      expect(status).to.equal(200);
      expect(body.text).to.contain(DOC_SAMPLE_TEXT);
    });
  });
}
