/**
 * Issue 35: emails carry the brand. With the company name and a logo set on /hr/settings/site, an
 * applicant's confirmation (through a real SMTP server started here) names the company as set and
 * its HTML part opens with the logo (the PNG, by its absolute, content-hashed URL) named after the
 * company; without a logo the header is the name.
 */
import { expect } from 'chai';
import sharp from 'sharp';
import { databaseKinds } from '../helpers/db.js';
import { createHrUser, liveToken } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { makeJob } from '../helpers/factories.js';
import { eventually, toFormData, validFields } from '../fixtures/apply.js';
import { startDelivery } from '../../src/posts/index.js';
import { header, readable, startSmtp } from '../helpers/smtp.js';

for (const kind of databaseKinds()) {
  describe(`branding: emails carry the company name and logo [${kind}]`, function () {
    this.timeout(60_000);
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    let s: TestServer;
    let delivery: ReturnType<typeof startDelivery>;
    let token = '';

    before(async () => {
      smtp = await startSmtp();
      s = await startTestServer(kind, {
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        MAIL_FROM: 'careers@acme.example',
        COMPANY_NAME: 'Acme Test Corp',
        PUBLIC_BASE_URL: 'https://careers.acme.example',
        APPLY_RATE_LIMIT: '0',
      });
      token = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'brand.mail.admin'));
      delivery = startDelivery({ db: s.ctx.db, config: s.ctx.config, now: () => new Date(), log: () => undefined }, s.ctx.outbox);
    });
    after(async () => {
      await delivery.stop();
      await s.close();
      await smtp.close();
    });

    const apply = async (publicId: string, email: string) => {
      const res = await fetch(`${s.baseUrl}/api/jobs/${publicId}/apply/`, { method: 'POST', body: toFormData(validFields({ email })) });
      expect(res.status).to.equal(201);
    };
    const mailTo = async (to: string) => {
      await eventually(() => void expect(smtp.mails.find((m) => m.to.includes(to))).to.not.equal(undefined), 5000);
      return readable(smtp.mails.find((m) => m.to.includes(to))!.raw);
    };

    it('names the company as the settings do and shows the logo in the HTML part', async () => {
      const put = await fetch(`${s.baseUrl}/api/hr/settings/site/`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ company_name: 'Globex Industries' }),
      });
      expect(put.status).to.equal(200);
      const form = new FormData();
      const png = await sharp({ create: { width: 400, height: 100, channels: 3, background: '#0f766e' } })
        .png()
        .toBuffer();
      form.append('logo', new Blob([new Uint8Array(png)]), 'logo.png');
      const up = await fetch(`${s.baseUrl}/api/hr/settings/site/logo/`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}` },
        body: form,
      });
      expect(up.status).to.equal(201);
      const { logo } = await up.json();

      const job = await makeJob(s.ctx.db, { title: 'Brand Engineer' });
      await apply(job.public_id, 'brand.one@example.com');
      const mail = await mailTo('brand.one@example.com');
      expect(header(mail, 'Subject')).to.equal('Application received: Brand Engineer');
      expect(mail).to.include('Globex Industries').and.not.include('Acme Test Corp');
      expect(mail).to.include(`<img src="https://careers.acme.example${logo.png_url}" alt="Globex Industries" height="40"`);
    });

    it("fills {company_name} in HR's emails with the configured name", async () => {
      const [application] = await s.ctx.db('applications').where({ email: 'brand.one@example.com' });
      const [template] = await s.ctx.db('email_templates').orderBy('id').limit(1);
      const res = await fetch(`${s.baseUrl}/api/hr/applications/${application.id}/emails/preview/`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          template_id: template.id,
          subject: 'News from {company_name}',
          body: 'Hello {first_name}, greetings from {company_name}.',
        }),
      });
      expect(res.status).to.equal(200);
      const preview = await res.json();
      expect(preview.subject).to.equal('News from Globex Industries');
      expect(preview.text).to.contain('greetings from Globex Industries.');
    });

    it('shows the name when there is no logo', async () => {
      const del = await fetch(`${s.baseUrl}/api/hr/settings/site/logo/`, {
        method: 'DELETE',
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(del.status).to.equal(204);
      const job = await makeJob(s.ctx.db, { title: 'Plain Engineer' });
      await apply(job.public_id, 'brand.two@example.com');
      const mail = await mailTo('brand.two@example.com');
      expect(mail).to.include('font-weight: bold">Globex Industries</p>');
      expect(mail).not.to.include('<img');
    });
  });
}
