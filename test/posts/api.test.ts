/**
 * The posts API and the worker in a running app (SQLite and MySQL): an application to a job whose
 * receiver hangs is answered at once while another job's post is delivered within a second; the
 * API Post Requests list, its export, Retry and a post's attempts.
 */
import { expect } from 'chai';
import ExcelJS from 'exceljs';
import { databaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { hrSession } from '../helpers/hr.js';
import { eventually, toFormData, validFields } from '../fixtures/apply.js';
import { XLSX_CONTENT_TYPE } from '../../src/exports/xlsx.js';
import { startDelivery } from '../../src/posts/index.js';
import { seedPosts, silent, startReceiver, webhookJob, type Receiver } from './helpers.js';

for (const kind of databaseKinds()) {
  describe(`posts API and worker (${kind})`, () => {
    let s: TestServer;
    let token: string;
    let fast: Receiver;
    let hanging: Receiver;
    let delivery: ReturnType<typeof startDelivery>;
    const auth = () => ({ Authorization: `Bearer ${token}` });
    const get = (path: string) => fetch(s.baseUrl + path, { headers: auth() });

    before(async () => {
      s = await startTestServer(kind, { WEBHOOK_ALLOW_PRIVATE: 'true' });
      token = (await hrSession(s.ctx.db)).token;
      fast = await startReceiver(() => ({ status: 200 }));
      hanging = await startReceiver(() => ({ hang: true }));
      delivery = startDelivery({ db: s.ctx.db, config: s.ctx.config, now: () => new Date(), log: silent }, s.ctx.outbox);
    });
    after(async () => {
      await hanging.close(); // its sends fail now, so the worker stops at once
      await delivery.stop();
      await fast.close();
      await s.close();
    });

    it('answers an application within 1 s while its receiver hangs; another job’s post arrives within a second', async () => {
      const slowJob = await webhookJob(s.ctx.db, hanging.url);
      const fastJob = await webhookJob(s.ctx.db, fast.url);
      const apply = async (publicId: string, email: string) => {
        const started = Date.now();
        const res = await fetch(`${s.baseUrl}/api/jobs/${publicId}/apply/`, { method: 'POST', body: toFormData(validFields({ email })) });
        expect(res.status).to.equal(201);
        return Date.now() - started;
      };
      expect(await apply(slowJob.public_id, 'slow@example.com')).to.be.below(1000);
      await eventually(() => void expect(hanging.received).to.have.length(1), 2000);
      const sentAt = Date.now();
      expect(await apply(fastJob.public_id, 'fast@example.com')).to.be.below(1000);
      await eventually(() => void expect(fast.received).to.have.length(1), 1000);
      expect(Date.now() - sentAt).to.be.below(1000);
      expect(JSON.parse(fast.received[0].body)).to.include({ email: 'fast@example.com', job_public_id: fastJob.public_id });
      await eventually(
        async () =>
          void expect(await s.ctx.db('application_posts').where({ job_id: fastJob.id, status: 'SUCCESS' }).count({ n: '*' })).to.deep.equal(
            [{ n: 1 }],
          ),
        2000,
      );
    });

    it('lists posts by status (default SUCCESS, PENDING has its own value), with attempts and next_attempt_at', async () => {
      const failing = await startReceiver(() => ({ status: 500, body: 'nope' }));
      try {
        const job = await webhookJob(s.ctx.db, failing.url);
        const [id] = await seedPosts(s.ctx.db, job, 1, new Date(), 'list');
        s.ctx.outbox.notify();
        await eventually(
          async () => void expect((await s.ctx.db('application_posts').where('id', id).first()).status).to.equal('FAILED'),
          3000,
        );
        const failed = await (await get('/api/hr/application-posts/?status=failed')).json();
        const row = failed.results.find((r: any) => r.id === id);
        expect(row).to.include({
          first_name: 'First0',
          last_name: 'Last0',
          email: `list0-${job.id}@example.com`,
          phone: '+919000000000',
          job_public_id: job.public_id,
          status: 'FAILED',
          status_code: 500,
          attempts: 1,
          error_message: 'nope',
        });
        expect(Date.parse(row.next_attempt_at)).to.be.above(Date.now());
        expect(failed).to.have.keys('count', 'next', 'previous', 'results');
        const success = await (await get('/api/hr/application-posts/')).json();
        expect(success.results.every((r: any) => r.status === 'SUCCESS')).to.equal(true);
        expect(success.count).to.be.at.least(1);
        const pending = await (await get('/api/hr/application-posts/?status=PENDING')).json();
        expect(pending.results.every((r: any) => r.status === 'PENDING')).to.equal(true);

        const attempts = await (await get(`/api/hr/application-posts/${id}/attempts/`)).json();
        expect(attempts.results).to.have.length(1);
        expect(attempts.results[0]).to.include({ status: 'FAILED', status_code: 500, error: 'nope' });

        failing.answer = () => ({ status: 200 });
        const retried = await fetch(`${s.baseUrl}/api/hr/application-posts/${id}/retry/`, { method: 'POST', headers: auth() });
        expect(retried.status).to.equal(200);
        await eventually(
          async () => void expect((await s.ctx.db('application_posts').where('id', id).first()).status).to.equal('SUCCESS'),
          2000,
        );
        const again = await fetch(`${s.baseUrl}/api/hr/application-posts/${id}/retry/`, { method: 'POST', headers: auth() });
        expect(again.status).to.equal(400);
        expect((await again.json()).detail).to.equal('Only a failed post whose job still has its webhook on can be retried.');
      } finally {
        await failing.close();
      }
    });

    it('refuses an unknown status, an unknown post, and callers without a session', async () => {
      const bad = await get('/api/hr/application-posts/?status=LOST');
      expect(bad.status).to.equal(400);
      expect(await bad.json()).to.deep.equal({ status: ['Status must be one of SUCCESS, FAILED, PENDING.'] });
      expect((await get('/api/hr/application-posts/999999/attempts/')).status).to.equal(404);
      expect((await get('/api/hr/application-posts/abc/attempts/')).status).to.equal(404);
      expect((await fetch(`${s.baseUrl}/api/hr/application-posts/`)).status).to.equal(401);
      expect((await fetch(`${s.baseUrl}/api/hr/application-posts/export/?status=SUCCESS`)).status).to.equal(401);
    });

    it('exports a tab as a real, streamed workbook named application_posts_{status}.xlsx', async () => {
      const res = await get('/api/hr/application-posts/export/?status=SUCCESS');
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal(XLSX_CONTENT_TYPE);
      expect(res.headers.get('content-disposition')).to.equal('attachment; filename="application_posts_SUCCESS.xlsx"');
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(await res.arrayBuffer());
      const sheet = wb.worksheets[0];
      expect((sheet.getRow(1).values as unknown[]).slice(1, 9)).to.deep.equal([
        'ID',
        'First Name',
        'Last Name',
        'Email',
        'Phone',
        'Job ID',
        'Status',
        'Code',
      ]);
      expect(sheet.rowCount).to.be.at.least(3);
      expect(sheet.getRow(2).getCell(7).value).to.equal('SUCCESS');
      const pending = await get('/api/hr/application-posts/export/?status=pending');
      expect(pending.headers.get('content-disposition')).to.equal('attachment; filename="application_posts_PENDING.xlsx"');
    });
  });
}
