/**
 * Application email through the delivery engine, against a real SMTP server started here on
 * 127.0.0.1 (smtp-server): the applicant's confirmation and HR's notification, an SMTP 5xx is
 * permanent, a 4xx and a connection failure are retried, and no personal data reaches the log.
 */
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { makeJob } from '../helpers/factories.js';
import { eventually, toFormData, validFields } from '../fixtures/apply.js';
import { fromDbDate } from '../../src/db/codecs.js';
import { startDelivery } from '../../src/posts/index.js';
import { header, readable, startSmtp } from '../helpers/smtp.js';

for (const kind of databaseKinds()) {
  describe(`posts: application email (${kind})`, () => {
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    let s: TestServer;
    let delivery: ReturnType<typeof startDelivery>;
    const logs: string[] = [];

    before(async () => {
      smtp = await startSmtp((rcpt) => {
        if (rcpt.startsWith('bounce')) return { code: 550, message: 'No such user' };
        if (rcpt.startsWith('later')) return { code: 451, message: 'Try again later' };
        return null;
      });
      s = await startTestServer(kind, {
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        MAIL_FROM: 'Acme Careers <careers@acme.example>',
        HR_NOTIFY_EMAIL: 'hr@acme.example',
        COMPANY_NAME: 'Acme Test Corp',
        PUBLIC_BASE_URL: 'https://careers.acme.example',
        APPLY_RATE_LIMIT: '0',
      });
      delivery = startDelivery({ db: s.ctx.db, config: s.ctx.config, now: () => new Date(), log: (l) => logs.push(l) }, s.ctx.outbox);
    });
    after(async () => {
      await delivery.stop();
      await s.close();
      await smtp.close();
    });

    const apply = async (publicId: string, fields: Record<string, string>) => {
      const res = await fetch(`${s.baseUrl}/api/jobs/${publicId}/apply/`, { method: 'POST', body: toFormData(validFields(fields)) });
      expect(res.status).to.equal(201);
    };

    it('sends the applicant a confirmation and HR a notification, as text and HTML', async () => {
      const job = await makeJob(s.ctx.db, { title: 'Platform Engineer' });
      await apply(job.public_id, { email: 'meera@example.com', first_name: 'Meera', last_name: 'Iyer' });
      await eventually(() => void expect(smtp.mails).to.have.length(2), 5000);
      const app = await s.ctx.db('applications').where({ job_id: job.id }).first();
      const texts = smtp.mails.map((m) => readable(m.raw));
      const confirmation = texts.find((t) => header(t, 'Subject') === 'Application received: Platform Engineer')!;
      expect(header(confirmation, 'To')).to.equal('meera@example.com');
      expect(header(confirmation, 'From')).to.equal('Acme Careers <careers@acme.example>');
      expect(header(confirmation, 'Content-Type')).to.match(/^multipart\/alternative/);
      // Written from the "Application received" template (issue 30): its default wording.
      expect(confirmation)
        .to.include('Dear Meera,')
        .and.include('Acme Test Corp')
        .and.include('Our hiring team reviews every application')
        .and.include('<p>Dear Meera,</p>');
      const notice = texts.find((t) => header(t, 'Subject') === 'New application: Meera Iyer for Platform Engineer')!;
      expect(header(notice, 'To')).to.equal('hr@acme.example');
      expect(notice).to.include(`Open the application: https://careers.acme.example/hr/applicants/${app.id}`);
      expect(notice).to.include(`href="https://careers.acme.example/hr/applicants/${app.id}"`);
      expect(smtp.mails.map((m) => m.from)).to.deep.equal(['careers@acme.example', 'careers@acme.example']);
      await eventually(
        async () => void expect((await s.ctx.db('email_posts').where({ application_id: app.id, status: 'SUCCESS' })).length).to.equal(2),
        3000,
      );
      // Email stays out of the API Post Requests log.
      expect(await s.ctx.db('application_posts').where({ application_id: app.id })).to.have.length(0);
    });

    it('writes a title saved with line breaks before the one-line rule on one line, in the body and the subject', async () => {
      const job = await makeJob(s.ctx.db, { title: 'Placeholder' });
      await s.ctx.db('jobs').where({ id: job.id }).update({ title: 'Night\r\nBcc: victim@example.com\u2028Shift' });
      await apply(job.public_id, { email: 'lines@example.com', first_name: 'Lina', last_name: 'Okoro' });
      const app = await s.ctx.db('applications').where({ job_id: job.id }).first();
      const rows = await s.ctx.db('email_posts').where({ application_id: app.id });
      expect(rows).to.have.length(2);
      for (const row of rows) {
        const message = typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload;
        expect(message.subject).to.not.match(/[\r\n\u2028]/);
        expect(message.text).to.include('Night Bcc: victim@example.com Shift');
        expect(message.html).to.include('Night Bcc: victim@example.com Shift');
      }
    });

    it('an SMTP 5xx is permanent; a 4xx is retried later; the log names no person', async () => {
      const job = await makeJob(s.ctx.db, { title: 'Data Analyst' });
      await apply(job.public_id, { email: 'bounce.ravi@example.com', first_name: 'Ravi' });
      await apply(job.public_id, { email: 'later.sita@example.com', first_name: 'Sita' });
      const row = async (email: string) => {
        const app = await s.ctx.db('applications').where({ job_id: job.id, email }).first();
        return s.ctx.db('email_posts').where({ application_id: app.id, template: 'applicant_confirmation' }).first();
      };
      await eventually(async () => void expect((await row('bounce.ravi@example.com')).status).to.equal('FAILED'), 5000);
      await eventually(async () => void expect((await row('later.sita@example.com')).status).to.equal('FAILED'), 5000);
      const bounced = await row('bounce.ravi@example.com');
      expect(bounced).to.include({ status_code: 550, attempts: 1, next_attempt_at: null, error_message: 'SMTP 550' });
      const later = await row('later.sita@example.com');
      expect(later).to.include({ status_code: 451, attempts: 1, error_message: 'SMTP 451' });
      expect(fromDbDate(later.next_attempt_at)!.getTime()).to.be.above(Date.now());
      expect(logs.length).to.be.at.least(2);
      for (const line of logs) expect(line).to.not.match(/ravi|sita|example\.com/i);
    });
  });
}

describe('posts: email when the SMTP server is unreachable', () => {
  it('a connection failure is retried', async () => {
    const s = await startTestServer('sqlite', { SMTP_URL: 'smtp://127.0.0.1:9', APPLY_RATE_LIMIT: '0' });
    const delivery = startDelivery({ db: s.ctx.db, config: s.ctx.config, now: () => new Date(), log: () => undefined }, s.ctx.outbox);
    try {
      const job = await makeJob(s.ctx.db);
      const res = await fetch(`${s.baseUrl}/api/jobs/${job.public_id}/apply/`, { method: 'POST', body: toFormData(validFields()) });
      expect(res.status).to.equal(201);
      await eventually(async () => void expect((await s.ctx.db('email_posts').first()).status).to.equal('FAILED'), 8000);
      const row = await s.ctx.db('email_posts').first();
      expect(row.status_code).to.equal(null);
      expect(row.error_message).to.match(/^SMTP connection failed/);
      expect(row.next_attempt_at).to.not.equal(null);
    } finally {
      await delivery.stop();
      await s.close();
    }
  });
});
