/**
 * Consent in the apply API (APPLY_CONSENT_TEXT, issue 20 "Everyday polish"), on SQLite and MySQL:
 * off, the API is as before (a `consent` part is ignored, nothing stored); on, an application
 * without a ticked box is refused with a 400 keyed `consent` and nothing is written, and a ticked
 * one keeps the time and the exact text, which the detail API answers under `consent`.
 */
import { expect } from 'chai';
import { fromDbDate } from '../../src/db/codecs.js';
import { databaseKinds } from '../helpers/db.js';
import { hrSession } from '../helpers/hr.js';
import { makeJob } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { APPLY_NOW, listFiles, tableCounts, toFormData, uploadsRoot, validFields, type FormValue } from '../fixtures/apply.js';
import { hr } from './helpers.js';

const CONSENT = 'I agree that Acme may keep my application data for 12 months <and> share it with the hiring team.';
const REFUSED = { consent: ['Please tick the box to agree before you submit your application.'] };

for (const kind of databaseKinds()) {
  describe(`apply API with consent [${kind}]`, function () {
    this.timeout(60_000);

    const post = async (s: TestServer, fields: Record<string, FormValue>) => {
      const res = await fetch(`${s.baseUrl}/api/jobs/consent-1/apply/`, { method: 'POST', body: toFormData(fields) });
      return { status: res.status, body: await res.json() };
    };

    describe('APPLY_CONSENT_TEXT unset', () => {
      let s: TestServer;
      let token: string;
      before(async () => {
        s = await startTestServer(kind, { APPLY_RATE_LIMIT: '0' }, { now: () => APPLY_NOW });
        ({ token } = await hrSession(s.ctx.db));
        await makeJob(s.ctx.db, { public_id: 'consent-1' });
      });
      after(() => s.close());

      it('takes applications as before, with or without a consent part, and keeps no consent', async () => {
        expect(await post(s, validFields({ email: 'none@example.com' }))).to.deep.equal({
          status: 201,
          body: { detail: 'Application submitted.' },
        });
        expect(await post(s, validFields({ email: 'ticked@example.com', consent: 'on' }))).to.deep.equal({
          status: 201,
          body: { detail: 'Application submitted.' },
        });
        expect(await post(s, validFields({ email: 'false@example.com', consent: 'false' }))).to.deep.equal({
          status: 201,
          body: { detail: 'Application submitted.' },
        });
        const rows = await s.ctx.db('applications').orderBy('id').select('id', 'consent_at', 'consent_text');
        expect(rows.map((r) => [r.consent_at, r.consent_text])).to.deep.equal([
          [null, null],
          [null, null],
          [null, null],
        ]);
        const detail = await hr(s.baseUrl, token, `/api/hr/applications/${rows[0].id}/`);
        expect(detail.status).to.equal(200);
        expect(detail.body.consent).to.equal(null);
      });
    });

    describe('APPLY_CONSENT_TEXT set', () => {
      let s: TestServer;
      let token: string;
      before(async () => {
        s = await startTestServer(kind, { APPLY_RATE_LIMIT: '0', APPLY_CONSENT_TEXT: `  ${CONSENT}\n` }, { now: () => APPLY_NOW });
        ({ token } = await hrSession(s.ctx.db));
        await makeJob(s.ctx.db, { public_id: 'consent-1' });
      });
      after(() => s.close());

      const state = async () => ({ counts: await tableCounts(s.ctx.db), files: listFiles(uploadsRoot(s.ctx)) });

      it('refuses a missing, unticked, empty, unknown or repeated consent with a 400 keyed consent, writing nothing', async () => {
        const before = await state();
        for (const consent of [
          undefined,
          'false',
          'off',
          '',
          '0',
          'no',
          'yes please',
          '<script>on</script>',
          "on' OR '1'='1",
          'x'.repeat(100_000),
        ]) {
          const res = await post(s, validFields({ consent }));
          expect(res, JSON.stringify(consent)?.slice(0, 40)).to.deep.equal({ status: 400, body: REFUSED });
        }
        // Sent twice: the apply API's rule for every known field.
        const fd = toFormData(validFields({ consent: 'on' }));
        fd.append('consent', 'on');
        const twice = await fetch(`${s.baseUrl}/api/jobs/consent-1/apply/`, { method: 'POST', body: fd });
        expect(twice.status).to.equal(400);
        expect(await twice.json()).to.deep.equal({ consent: ['This field was sent more than once.'] });
        expect(await state()).to.deep.equal(before);
      });

      it('lists the consent after the other field messages when the form has more than one problem', async () => {
        const res = await post(s, validFields({ first_name: '', consent: 'false' }));
        expect(res.status).to.equal(400);
        expect(Object.keys(res.body)).to.deep.equal(['first_name', 'consent']);
        expect(res.body.consent).to.deep.equal(REFUSED.consent);
      });

      it('keeps the time and the exact text agreed to for "on" and "true" (any case), and the detail API answers them', async () => {
        for (const [email, consent] of [
          ['on@example.com', 'on'],
          ['true@example.com', 'true'],
          ['upper@example.com', ' ON '],
        ]) {
          expect(await post(s, validFields({ email, consent })), email).to.deep.equal({
            status: 201,
            body: { detail: 'Application submitted.' },
          });
        }
        const rows = await s.ctx
          .db('applications')
          .whereIn('email', ['on@example.com', 'true@example.com', 'upper@example.com'])
          .select('id', 'consent_at', 'consent_text', 'created_at');
        expect(rows).to.have.length(3);
        for (const r of rows) {
          expect(fromDbDate(r.consent_at)!.toISOString()).to.equal(APPLY_NOW.toISOString());
          expect(r.consent_text).to.equal(CONSENT);
        }
        const detail = await hr(s.baseUrl, token, `/api/hr/applications/${rows[0].id}/`);
        expect(detail.status).to.equal(200);
        expect(detail.body.consent).to.deep.equal({ given_at: APPLY_NOW.toISOString(), text: CONSENT });
        // The spec's keys are all still there.
        expect(detail.body).to.include.keys(
          'id',
          'first_name',
          'last_name',
          'email',
          'phone',
          'status',
          'created_at',
          'resume_download_url',
          'resume_filename',
          'job_title',
          'job_public_id',
          'skills',
          'professional_experiences',
          'education',
          'answers',
        );
      });

      it('keeps the text of its time: a later change of the setting leaves stored consents as they were', async () => {
        const id = Number((await s.ctx.db('applications').where({ email: 'on@example.com' }).first('id')).id);
        s.ctx.config.applyConsentText = 'A newer text.';
        try {
          expect(await post(s, validFields({ email: 'later@example.com', consent: 'on' }))).to.deep.equal({
            status: 201,
            body: { detail: 'Application submitted.' },
          });
        } finally {
          s.ctx.config.applyConsentText = CONSENT;
        }
        expect((await hr(s.baseUrl, token, `/api/hr/applications/${id}/`)).body.consent.text).to.equal(CONSENT);
        const later = await s.ctx.db('applications').where({ email: 'later@example.com' }).first('consent_text');
        expect(later.consent_text).to.equal('A newer text.');
      });

      it('shows the consent on the applicant page, escaped, and on the apply page the island gets the text', async () => {
        const id = Number((await s.ctx.db('applications').where({ email: 'on@example.com' }).first('id')).id);
        const page = await fetch(`${s.baseUrl}/hr/applicants/${id}`, { headers: { Cookie: `jwt=${token}` } });
        const html = await page.text();
        expect(page.status).to.equal(200);
        expect(html).to.include(
          'Consent given <time datetime="2026-03-15T10:00:00.000Z" data-local="time"><span class="time-part">Mar 15, 2026,</span> <span class="time-part">10:00 AM</span> <span class="time-part">UTC</span></time>',
        );
        expect(html).to.include(CONSENT.replace('<and>', '&lt;and&gt;'));
        const apply = await (await fetch(`${s.baseUrl}/careers/consent-1/apply`)).text();
        expect(apply).to.include(`"consentText":"${CONSENT.replace('<', '\\u003c').replace('>', '\\u003e')}"`);
      });
    });
  });
}
