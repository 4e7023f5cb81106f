/**
 * Offers (issue 34) over HTTP on SQLite and MySQL, with a real SMTP server and a real webhook
 * receiver: making an offer (field errors, hostile input, nothing half-written), its approval (the
 * default chain: any admin; a job's chain in order; "only out of range"; a rejection; a change after
 * an approval restarts it; approving by the emailed link), sending it (refused before approval),
 * the candidate's page without script (noindex, the letter, the PDF), signing (the record and the
 * signature page, the SHA-256 of the PDF shown, signing twice refused), declining, withdrawn and
 * expired offers (refused in plain words), the expiry sweep, the HR PDF download, webhooks
 * (`offer.sent`, `offer.accepted`, `offer.declined`), the timeline, and the templates and chains.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { expect } from 'chai';
import { PDFDocument } from 'pdf-lib';
import { databaseKinds } from '../helpers/db.js';
import { createHrUser, liveToken } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { decodedHeader, readable as readableRaw, startSmtp } from '../helpers/smtp.js';
import { hr } from '../applicants/helpers.js';
import { insertApplications } from '../helpers/applications.js';
import { makeJob } from '../helpers/factories.js';
import { loadConfig } from '../../config/index.js';
import { startReceiver, verifyStandardWebhook, webhookJob, type Receiver } from '../posts/helpers.js';
import { createDelivery } from '../../src/posts/index.js';
import { expireOffers } from '../../src/offers/index.js';
import { removeApplications } from '../../src/applicants/index.js';
import { sweepOrphanFiles } from '../../src/storage/sweep.js';
import type { SweepableStorage } from '../../src/storage/storage.js';
import { OFFER_MESSAGES as M } from '../../src/offers/schema.js';

const DAY = 86_400_000;
const dayAhead = (n: number) => new Date(Date.now() + n * DAY).toISOString().slice(0, 10);
/** A message made readable; a soft line break before a space (which the helper leaves as "= ") joined too. */
const readable = (raw: string) => readableRaw(raw).replace(/= /g, ' ');
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
type Who = { id: number; token: string };

for (const kind of databaseKinds()) {
  describe(`offers [${kind}]`, function () {
    this.timeout(180_000);
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    let receiver: Receiver;
    let s: TestServer;
    let delivery: ReturnType<typeof createDelivery>;
    let dana: Who; // admin
    let rita: Who; // recruiter
    let hank: Who; // hiring manager of the job
    let ivan: Who; // interviewer
    let jobId: number;
    let apps: number[];
    const SECRET = 's3cret-s3cret-s3cret';

    before(async () => {
      smtp = await startSmtp();
      receiver = await startReceiver();
      s = await startTestServer(kind, {
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        MAIL_FROM: 'Acme Careers <jobs@acme.example>',
        COMPANY_NAME: 'Acme',
        PUBLIC_BASE_URL: 'https://careers.acme.example',
        WEBHOOK_ALLOW_PRIVATE: 'true',
        // The tests answer offers many times from one address; the limit has its own test below.
        OFFER_RATE_LIMIT: '1000',
      });
      delivery = createDelivery({ db: s.ctx.db, config: s.ctx.config, now: () => new Date(), log: () => undefined });
      const make = async (name: string, role: 'admin' | 'recruiter' | 'hiring_manager' | 'interviewer') => {
        const id = await createHrUser(s.ctx.db, name, { role });
        await s.ctx
          .db('hr_users')
          .where({ id })
          .update({ email: `${name}@acme.example` });
        return { id, token: await liveToken(s.ctx.db, id) };
      };
      dana = await make('dana', 'admin');
      rita = await make('rita', 'recruiter');
      hank = await make('hank', 'hiring_manager');
      ivan = await make('ivan', 'interviewer');
      const job = await webhookJob(s.ctx.db, receiver.url, SECRET, {
        title: 'Backend Engineer',
        currency: 'EUR',
        min_salary: 60000,
        max_salary: 80000,
        salary_period: 'YEAR',
      });
      jobId = job.id;
      await s.ctx
        .db('job_team_members')
        .insert({ job_id: jobId, user_id: hank.id, role: 'hiring_manager', created_at: '2026-01-01 00:00:00.000' });
      await insertApplications(
        s.ctx.db,
        job.id,
        Array.from({ length: 8 }, (_, i) => ({
          first_name: i === 0 ? 'José' : `Cand${i}`,
          last_name: i === 0 ? 'Müller' : 'Idate',
          email: `cand${i}@example.com`,
          phone: '+15550100',
        })),
        [],
      );
      apps = (await s.ctx.db('applications').where({ job_id: job.id }).orderBy('id').pluck('id')).map(Number);
    });
    after(async () => {
      await delivery?.close();
      await s?.close();
      await smtp?.close();
      await receiver?.close();
    });

    const as =
      (who: Who) =>
      (p: string, init: { method?: string; body?: unknown } = {}) =>
        hr(s.baseUrl, who.token, p, init);
    const offers = (appId: number) => `/api/hr/applications/${appId}/offers/`;
    const one = (id: number, action = '') => `/api/hr/offers/${id}/${action ? `${action}/` : ''}`;
    const valid = (over: Record<string, unknown> = {}) => ({
      base_pay: 70000,
      salary_period: 'YEAR',
      currency: 'EUR',
      start_date: dayAhead(30),
      expires_on: dayAhead(7),
      bonus: '10% yearly target bonus',
      equity: '',
      benefits: '30 days of paid leave\nPension',
      ...over,
    });
    const deliver = async (from: number) => {
      await delivery.worker.runDue();
      return smtp.mails.slice(from);
    };
    const linkIn = (mail: string, path: string) =>
      new RegExp(`https://careers\\.acme\\.example(/${path}/[A-Za-z0-9_-]{43})`).exec(mail)?.[1];
    const page = async (path: string) => {
      const res = await fetch(s.baseUrl + path);
      return { status: res.status, html: await res.text(), res };
    };
    const post = async (path: string, form: Record<string, string>) => {
      const res = await fetch(s.baseUrl + path, { method: 'POST', body: new URLSearchParams(form) });
      return { status: res.status, html: await res.text() };
    };
    const hooks = (event: string) => receiver.received.filter((r) => JSON.parse(r.body).event === event);
    const timeline = async (appId: number) =>
      JSON.stringify((await as(dana)(`/api/hr/applications/${appId}/timeline/?page_size=100`)).body);
    /** A new offer on the application, made and submitted by rita; the default chain asks dana. */
    const submitted = async (appId: number, over: Record<string, unknown> = {}) => {
      const made = await as(rita)(offers(appId), { method: 'POST', body: valid(over) });
      expect(made.status, JSON.stringify(made.body)).to.equal(201);
      const sub = await as(rita)(one(made.body.id, 'submit'), { method: 'POST' });
      expect(sub.status, JSON.stringify(sub.body)).to.equal(200);
      return sub.body;
    };
    const sentOffer = async (appId: number) => {
      const o = await submitted(appId);
      expect((await as(dana)(one(o.id, 'approve'), { method: 'POST', body: {} })).status).to.equal(200);
      const from = smtp.mails.length;
      const sent = await as(rita)(one(o.id, 'send'), { method: 'POST' });
      expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
      const mails = await deliver(from);
      const mail = readable(mails.find((m) => m.to.includes(`cand${apps.indexOf(appId)}@example.com`))!.raw);
      return { offer: sent.body, link: linkIn(mail, 'offer')!, mail };
    };

    it('refuses signed-out callers (401), interviewers (403), unknown applications and offers (404)', async () => {
      for (const [method, p] of [
        ['GET', offers(apps[0])],
        ['POST', offers(apps[0])],
        ['GET', one(1)],
        ['PATCH', one(1)],
        ['POST', one(1, 'send')],
        ['GET', one(1, 'pdf')],
        ['GET', '/api/hr/offer-templates/'],
      ])
        expect((await fetch(s.baseUrl + p, { method })).status, `${method} ${p}`).to.equal(401);
      expect((await as(ivan)(offers(apps[0]))).status).to.equal(403);
      expect((await as(rita)(offers(999_999))).status).to.equal(404);
      expect((await as(rita)(offers(999_999), { method: 'POST', body: valid() })).status).to.equal(404);
      expect((await as(rita)('/api/hr/applications/x/offers/')).status).to.equal(404);
      for (const p of [one(999_999), one(999_999, 'submit'), one(999_999, 'pdf')]) expect((await as(rita)(p)).status, p).to.equal(404);
      expect((await as(rita)('/api/hr/offers/1e3/')).status).to.equal(404);
      // A hiring manager on the job's team in another role (a coordinator) sees the applicant, not the offers.
      const coraId = await createHrUser(s.ctx.db, 'cora', { role: 'hiring_manager' });
      await s.ctx
        .db('job_team_members')
        .insert({ job_id: jobId, user_id: coraId, role: 'coordinator', created_at: '2026-01-01 00:00:00.000' });
      const cora = { id: coraId, token: await liveToken(s.ctx.db, coraId) };
      expect((await as(cora)(`/api/hr/applications/${apps[0]}/`)).status).to.equal(200);
      const hidden = await as(cora)(offers(apps[0]));
      expect(hidden.status).to.equal(403);
      expect(hidden.body.detail).to.equal(M.offersHidden);
      expect((await as(cora)(offers(apps[0]), { method: 'POST', body: valid() })).status).to.equal(403);
      const draft = await as(hank)(offers(apps[0]), { method: 'POST', body: valid() });
      expect(draft.status).to.equal(201);
      for (const [method, p] of [
        ['GET', one(draft.body.id)],
        ['PATCH', one(draft.body.id)],
        ['POST', one(draft.body.id, 'submit')],
        ['GET', one(draft.body.id, 'pdf')],
      ])
        expect((await as(cora)(p, { method, body: method === 'GET' ? undefined : {} })).status, `${method} ${p}`).to.equal(403);
      await s.ctx.db('offers').where({ id: draft.body.id }).delete();
    });

    it('refuses bad input field by field, and writes nothing', async () => {
      const huge = 'x'.repeat(5000);
      for (const [over, field] of [
        [{ base_pay: undefined }, 'base_pay'],
        [{ base_pay: -5 }, 'base_pay'],
        [{ base_pay: 0 }, 'base_pay'],
        [{ base_pay: '12.345' }, 'base_pay'],
        [{ base_pay: 1e15 }, 'base_pay'],
        [{ base_pay: [1] }, 'base_pay'],
        [{ base_pay: 'NaN' }, 'base_pay'],
        [{ salary_period: 'WEEK' }, 'salary_period'],
        [{ currency: 'eur' }, 'currency'],
        [{ currency: 'XYZ' }, 'currency'],
        [{ currency: 5 }, 'currency'],
        [{ start_date: '2027-02-30' }, 'start_date'],
        [{ start_date: 'tomorrow' }, 'start_date'],
        [{ expires_on: '2020-01-01' }, 'expires_on'],
        [{ expires_on: dayAhead(5000) }, 'expires_on'],
        [{ bonus: huge }, 'bonus'],
        [{ equity: { a: 1 } }, 'equity'],
        [{ benefits: 'y'.repeat(2001) }, 'benefits'],
        [{ template_id: 'one' }, 'template_id'],
        [{ template_id: 987_654 }, 'template_id'],
        [{ letter: 42 }, 'letter'],
        [{ letter: '<p>Hello {salary_history}</p>' }, 'letter'],
        [{ letter: '<script>alert(1)</script>' }, 'letter'],
        [{ letter: 'z'.repeat(100_001) }, 'letter'],
      ] as const) {
        const r = await as(rita)(offers(apps[1]), { method: 'POST', body: valid(over as Record<string, unknown>) });
        expect(r.status, JSON.stringify(over).slice(0, 80)).to.equal(400);
        expect(r.body, JSON.stringify(over).slice(0, 80)).to.have.property(field);
      }
      for (const body of [['x'], 'text', null, 5]) {
        const r = await as(rita)(offers(apps[1]), { method: 'POST', body });
        expect(r.status, JSON.stringify(body)).to.equal(400);
      }
      const missing = await as(rita)(offers(apps[1]), { method: 'POST', body: {} });
      expect(Object.keys(missing.body)).to.include.members(['base_pay', 'salary_period', 'currency', 'start_date', 'expires_on']);
      expect(missing.body.base_pay).to.deep.equal([M.required]);
      expect(await s.ctx.db('offers').where({ application_id: apps[1] }).count({ n: '*' })).to.deep.equal([{ n: 0 }]);
    });

    it('makes a draft from the default template, sanitises a written letter, refuses a second open offer and bad changes', async () => {
      const made = await as(rita)(offers(apps[1]), { method: 'POST', body: valid() });
      expect(made.status).to.equal(201);
      expect(made.body).to.include({
        status: 'draft',
        version: 1,
        base_pay: 70000,
        currency: 'EUR',
        in_range: true,
        approval_needed: null,
      });
      expect(made.body.letter).to.include('{first_name}');
      expect((await as(rita)(offers(apps[1]), { method: 'POST', body: valid() })).status).to.equal(409);
      const hostile = await as(rita)(one(made.body.id), {
        method: 'PATCH',
        body: { letter: '<p onclick="x()">Hi {first_name}<script>alert(1)</script><img src=x onerror=y></p><a href="javascript:z">l</a>' },
      });
      expect(hostile.status).to.equal(200);
      expect(hostile.body.letter).to.not.match(/script|onclick|onerror|javascript|<img/);
      expect(hostile.body.version).to.equal(2);
      expect(hostile.body.status).to.equal('draft');
      for (const [body, field] of [
        [{ base_pay: 'lots' }, 'base_pay'],
        [{ expires_on: '2020-01-01' }, 'expires_on'],
        [{ currency: null }, 'currency'],
      ] as const) {
        const r = await as(rita)(one(made.body.id), { method: 'PATCH', body });
        expect(r.status, JSON.stringify(body)).to.equal(400);
        expect(r.body).to.have.property(field);
      }
      const listed = await as(hank)(offers(apps[1]));
      expect(listed.status).to.equal(200);
      expect(listed.body).to.include({ count: 1, next: null, previous: null });
      expect(listed.body.results.map((o: { id: number }) => o.id)).to.deep.equal([made.body.id]);
      // Send is refused before approval.
      const early = await as(rita)(one(made.body.id, 'send'), { method: 'POST' });
      expect(early.status).to.equal(409);
      expect(early.body.detail).to.equal(M.notApproved);
      expect((await as(rita)(one(made.body.id, 'withdraw'), { method: 'POST', body: { reason: 'Role closed' } })).body.status).to.equal(
        'withdrawn',
      );
      // Three offers made at once for one application: one is made.
      const raced = await Promise.all([rita, dana, hank].map((who) => as(who)(offers(apps[6]), { method: 'POST', body: valid() })));
      expect(raced.map((r) => r.status).sort()).to.deep.equal([201, 409, 409]);
      expect(raced.find((r) => r.status === 409)!.body.detail).to.equal(M.openOffer);
      await as(rita)(one(raced.find((r) => r.status === 201)!.body.id, 'withdraw'), { method: 'POST', body: {} });
    });

    it('approves through the default chain (any admin) by the emailed link, sends, and the candidate signs: record, PDF, webhooks, timeline', async () => {
      let from = smtp.mails.length;
      const o = await submitted(apps[0]);
      expect(o).to.include({ status: 'pending_approval', approval_needed: true, can_decide: false });
      expect(o.approvals.map((a: { approver: string; asked: boolean }) => [a.approver, a.asked])).to.deep.equal([['dana', true]]);
      // Rita is not an approver; the send waits.
      expect((await as(rita)(one(o.id, 'approve'), { method: 'POST', body: {} })).status).to.equal(403);
      expect((await as(rita)(one(o.id, 'send'), { method: 'POST' })).status).to.equal(409);
      const askedMail = (await deliver(from)).find((m) => m.to.includes('dana@acme.example'))!.raw;
      expect(decodedHeader(askedMail, 'Subject')).to.equal('Offer to approve: José Müller for Backend Engineer');
      const asked = readable(askedMail);
      const approvalLink = linkIn(asked, 'offer-approvals')!;
      const ap = await page(approvalLink);
      expect(ap.status).to.equal(200);
      expect(ap.html).to.include('noindex').and.include('70,000 EUR per year').and.include('Dear José Müller');
      expect(ap.html).to.include("The pay is inside the job's range.");
      // A rejection needs a comment; the page says so and nothing is decided.
      const noComment = await post(approvalLink, { action: 'reject', comment: '' });
      expect(noComment.status).to.equal(400);
      expect(noComment.html).to.include(M.commentRequired);
      expect((await post(approvalLink, { action: 'approve', comment: 'Fine by me.' })).html).to.include('You approved the offer.');
      expect((await page(approvalLink)).status).to.equal(410);
      const approved = (await as(rita)(one(o.id))).body;
      expect(approved.status).to.equal('approved');
      expect(approved.approvals[0]).to.include({ decision: 'APPROVED', comment: 'Fine by me.' });

      from = smtp.mails.length;
      const sent = await as(rita)(one(o.id, 'send'), { method: 'POST' });
      expect(sent.status).to.equal(200);
      expect(sent.body.status).to.equal('sent');
      expect(sent.body.pdf_sha256).to.match(/^[0-9a-f]{64}$/);
      // A sent offer's terms no longer change.
      const late = await as(rita)(one(o.id), { method: 'PATCH', body: { base_pay: 1 } });
      expect(late.status).to.equal(409);
      expect(late.body.detail).to.equal(M.notEditable('sent'));
      const mails = await deliver(from);
      const mail = readable(mails.find((m) => m.to.includes('cand0@example.com'))!.raw);
      expect(decodedHeader(mails.find((m) => m.to.includes('cand0@example.com'))!.raw, 'Subject')).to.equal(
        'Your offer from Acme: Backend Engineer',
      );
      expect(mail).to.include('accept it by signing with your full name');
      const link = linkIn(mail, 'offer')!;
      expect(await s.ctx.db('offers').where({ id: o.id }).first('token_hash')).to.not.deep.include({ token_hash: link.split('/').at(-1) });
      const sentHook = hooks('offer.sent').find((r) => JSON.parse(r.body).offer_id === o.id)!;
      expect(verifyStandardWebhook(SECRET, sentHook.headers, sentHook.body)).to.equal(true);
      expect(JSON.parse(sentHook.body)).to.deep.include({ application_id: apps[0], base_pay: 70000, currency: 'EUR', status: 'sent' });

      const shown = await page(link);
      expect(shown.status).to.equal(200);
      expect(shown.res.headers.get('cache-control')).to.include('no-store');
      expect(shown.html).to.include('<meta name="robots" content="noindex');
      expect(shown.html).to.include('Your offer from Acme').and.include('Dear José Müller').and.include('10% yearly target bonus');
      expect(shown.html).to.include('name="full_name"').and.include('Decline the offer');
      const pdfRes = await fetch(`${s.baseUrl}${link}/pdf`);
      expect(pdfRes.headers.get('content-type')).to.equal('application/pdf');
      const pdf = Buffer.from(await pdfRes.arrayBuffer());
      expect(pdf.subarray(0, 5).toString()).to.equal('%PDF-');
      expect(sha256(pdf)).to.equal(sent.body.pdf_sha256);
      const shownPages = (await PDFDocument.load(pdf)).getPageCount();

      // A blank name is refused on the page; nothing is signed.
      const blank = await post(link, { action: 'accept', full_name: '   ' });
      expect(blank.status).to.equal(400);
      expect(blank.html).to.include(M.signedName);
      const accepted = await post(link, { action: 'accept', full_name: 'José Müller' });
      expect(accepted.status).to.equal(200);
      expect(accepted.html).to.include('you accepted the offer').and.include('signed “José Müller”');
      const row = await s.ctx.db('offers').where({ id: o.id }).first();
      expect(row.status).to.equal('accepted');
      expect(row.signed_name).to.equal('José Müller');
      expect(row.signer_address_hash).to.match(/^[0-9a-f]{64}$/);
      expect([
        await s.ctx.serverKey.hash('offer-signature:127.0.0.1'),
        await s.ctx.serverKey.hash('offer-signature:::ffff:127.0.0.1'),
      ]).to.include(row.signer_address_hash);
      expect(row.pdf_sha256).to.equal(sha256(pdf));
      // The signed PDF: the pages shown plus a signature page (HR's download, an attachment).
      const signedRes = await fetch(`${s.baseUrl}${one(o.id, 'pdf')}`, { headers: { Authorization: `Bearer ${rita.token}` } });
      expect(signedRes.status).to.equal(200);
      expect(signedRes.headers.get('content-disposition')).to.match(/^attachment; filename="?offer-\d+-signed\.pdf"?/);
      const signed = await PDFDocument.load(Buffer.from(await signedRes.arrayBuffer()));
      expect(signed.getPageCount()).to.equal(shownPages + 1);
      expect(sha256(Buffer.from(await (await fetch(`${s.baseUrl}${link}/pdf`)).arrayBuffer()))).to.not.equal(sha256(pdf));

      // Signing twice, or declining after it, is refused in plain words.
      const again = await post(link, { action: 'accept', full_name: 'José Müller' });
      expect(again.status).to.equal(409);
      expect(again.html).to.include(M.alreadyAccepted);
      expect((await post(link, { action: 'decline', reason: 'changed my mind' })).status).to.equal(409);
      expect((await s.ctx.db('offers').where({ id: o.id }).first('status')).status).to.equal('accepted');

      const fromCopy = smtp.mails.length;
      await delivery.worker.runDue();
      const copy = smtp.mails.slice(fromCopy).find((m) => m.to.includes('cand0@example.com'))!;
      expect(decodedHeader(copy.raw, 'Subject')).to.equal('Your signed offer from Acme');
      expect(readable(copy.raw)).to.include(`https://careers.acme.example${link}`).and.include('signed "José Müller"');
      const acceptedHook = hooks('offer.accepted').find((r) => JSON.parse(r.body).offer_id === o.id)!;
      expect(verifyStandardWebhook(SECRET, acceptedHook.headers, acceptedHook.body)).to.equal(true);
      expect(JSON.parse(acceptedHook.body)).to.deep.include({
        status: 'accepted',
        signed_name: 'José Müller',
        pdf_sha256: sha256(pdf),
        base_pay: 70000,
        salary_period: 'YEAR',
        start_date: valid().start_date,
        bonus: '10% yearly target bonus',
      });
      expect(JSON.parse(acceptedHook.body).candidate).to.deep.equal({
        first_name: 'José',
        last_name: 'Müller',
        email: 'cand0@example.com',
      });
      const line = await timeline(apps[0]);
      for (const text of [
        'Offer drafted',
        'Offer submitted for approval',
        'Offer approved by dana',
        'Offer sent to the candidate',
        'Offer accepted: signed by José Müller',
      ])
        expect(line).to.include(text);
      // Withdrawing an accepted offer is refused.
      expect((await as(rita)(one(o.id, 'withdraw'), { method: 'POST', body: {} })).status).to.equal(409);
    });

    it('lets the candidate decline with a reason (offer.declined), and refuses withdrawn and expired offers in plain words', async () => {
      const declined = await sentOffer(apps[2]);
      const tooLong = await post(declined.link, { action: 'decline', reason: 'r'.repeat(1001) });
      expect(tooLong.status).to.equal(400);
      const ok = await post(declined.link, { action: 'decline', reason: 'I took another offer.' });
      expect(ok.status).to.equal(200);
      expect(ok.html).to.include('You declined the offer');
      expect((await post(declined.link, { action: 'accept', full_name: 'Cand2 Idate' })).html).to.include(M.alreadyDeclined);
      await delivery.worker.runDue();
      expect(JSON.parse(hooks('offer.declined').find((r) => JSON.parse(r.body).offer_id === declined.offer.id)!.body)).to.deep.include({
        status: 'declined',
        reason: 'I took another offer.',
      });

      const withdrawn = await sentOffer(apps[3]);
      const w = await as(rita)(one(withdrawn.offer.id, 'withdraw'), { method: 'POST', body: { reason: 'Budget frozen' } });
      expect(w.body).to.include({ status: 'withdrawn', withdraw_reason: 'Budget frozen' });
      for (const [path, method] of [
        [withdrawn.link, 'GET'],
        [`${withdrawn.link}/pdf`, 'GET'],
      ]) {
        const r = await fetch(s.baseUrl + path, { method });
        expect(r.status).to.equal(410);
        expect(await r.text()).to.include(M.withdrawn);
      }
      const signW = await post(withdrawn.link, { action: 'accept', full_name: 'Cand3 Idate' });
      expect(signW.status).to.equal(410);
      expect(signW.html).to.include('was withdrawn');

      const expired = await sentOffer(apps[4]);
      const yesterday = dayAhead(-1);
      await s.ctx.db('offers').where({ id: expired.offer.id }).update({ expires_on: yesterday });
      const signE = await post(expired.link, { action: 'accept', full_name: 'Cand4 Idate' });
      expect(signE.status).to.equal(410);
      expect(signE.html).to.include('This offer expired on').and.include('can no longer be signed');
      expect((await s.ctx.db('offers').where({ id: expired.offer.id }).first('status')).status).to.equal('sent');
      expect(await expireOffers(s.ctx)).to.equal(1);
      expect(await expireOffers(s.ctx)).to.equal(0);
      expect((await as(rita)(one(expired.offer.id))).body.status).to.equal('expired');
      expect((await page(expired.link)).status).to.equal(410);
      expect(await timeline(apps[4])).to.include('Offer expired unanswered');
      // Unknown and malformed links: 404.
      expect((await page('/offer/' + 'A'.repeat(43))).status).to.equal(404);
      expect((await page('/offer/short')).status).to.equal(404);
      expect((await post('/offer/' + 'A'.repeat(43), { action: 'accept', full_name: 'X' })).status).to.equal(404);
    });

    it('refuses hostile signatures, and of three signatures sent at once keeps exactly one (and its file only)', async () => {
      const { offer, link } = await sentOffer(apps[7]);
      for (const full_name of ['\u202Eevil', 'a\u200Bb', '   ', 'x'.repeat(201), 'line\nbreak']) {
        const r = await post(link, { action: 'accept', full_name });
        expect(r.status, JSON.stringify(full_name)).to.equal(400);
      }
      const repeated = await fetch(s.baseUrl + link, {
        method: 'POST',
        body: 'action=accept&full_name=A&full_name=B',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
      expect(repeated.status).to.equal(400);
      expect((await s.ctx.db('offers').where({ id: offer.id }).first('status')).status).to.equal('sent');
      const keys = async () => (await s.ctx.db('offers').whereNotNull('signed_pdf_key').pluck('signed_pdf_key')).length;
      const root = (s.ctx.config.storage as { root: string }).root;
      const files = () => fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
      const before = await keys();
      const filesBefore = files();
      const answers = await Promise.all([1, 2, 3].map((n) => post(link, { action: 'accept', full_name: `Cand7 Idate ${n}` })));
      expect(answers.map((a) => a.status).sort()).to.deep.equal([200, 409, 409]);
      expect(await keys()).to.equal(before + 1);
      await s.ctx.storage.idle();
      expect(files(), "the losers' signed PDFs are removed").to.equal(filesBefore + 1);
      const row = await s.ctx.db('offers').where({ id: offer.id }).first('signed_name', 'status');
      expect(row.status).to.equal('accepted');
      expect(answers.find((a) => a.status === 200)!.html).to.include(`signed “${row.signed_name}”`);
    });

    it("runs a job's chain in order, restarts it when the offer changes after an approval, and skips it inside the range when told", async () => {
      const bad = await as(dana)(`/api/hr/jobs/${jobId}/offer-approval-chain/`, {
        method: 'PUT',
        body: { mode: 'ORDER', approver_ids: [hank.id, ivan.id, 999_999] },
      });
      expect(bad.status).to.equal(400);
      expect(bad.body).to.have.keys(['approver_ids.1', 'approver_ids.2']);
      for (const body of [
        { mode: 'ORDER' },
        { mode: 'ANY', approver_ids: [hank.id], required: 2 },
        { mode: 'SOME' },
        { approver_ids: 'all' },
      ])
        expect(
          (await as(dana)(`/api/hr/jobs/${jobId}/offer-approval-chain/`, { method: 'PUT', body })).status,
          JSON.stringify(body),
        ).to.equal(400);
      expect((await as(rita)(`/api/hr/jobs/${jobId}/offer-approval-chain/`, { method: 'PUT', body: { mode: 'ANY' } })).status).to.equal(
        403,
      );
      const chain = await as(dana)(`/api/hr/jobs/${jobId}/offer-approval-chain/`, {
        method: 'PUT',
        body: { mode: 'ORDER', approver_ids: [hank.id, dana.id] },
      });
      expect(chain.body).to.deep.equal({
        job_id: jobId,
        mode: 'ORDER',
        required: 2,
        approver_ids: [hank.id, dana.id],
        only_out_of_range: false,
        inherited: false,
      });

      const o = await submitted(apps[5]);
      const asked = () =>
        as(rita)(one(o.id)).then((r) =>
          r.body.approvals.map((a: { approver: string; asked: boolean; decision: string }) => [a.approver, a.asked, a.decision]),
        );
      expect(await asked()).to.deep.equal([
        ['hank', true, 'PENDING'],
        ['dana', false, 'PENDING'],
      ]);
      expect((await as(dana)(one(o.id, 'approve'), { method: 'POST', body: {} })).status).to.equal(403);
      const byHank = await as(hank)(one(o.id, 'approve'), { method: 'POST', body: { comment: 'OK' } });
      expect(byHank.status).to.equal(200);
      expect(await asked()).to.deep.equal([
        ['hank', false, 'APPROVED'],
        ['dana', true, 'PENDING'],
      ]);
      await delivery.worker.runDue();
      const from = smtp.mails.length;
      const changed = await as(rita)(one(o.id), { method: 'PATCH', body: { base_pay: '72000.50' } });
      expect(changed.status).to.equal(200);
      expect(changed.body).to.include({ status: 'pending_approval', base_pay: 72000.5 });
      expect(await asked()).to.deep.equal([
        ['hank', true, 'PENDING'],
        ['dana', false, 'PENDING'],
      ]);
      const again = (await deliver(from)).filter((m) => m.to.includes('hank@acme.example')).map((m) => readable(m.raw));
      expect(again).to.have.length(1);
      expect(again[0]).to.include('72,000.50 EUR per year');
      expect(await timeline(apps[5])).to.include('its approval starts again');
      // A rejection needs a comment, then sends the offer back to draft with it.
      expect((await as(hank)(one(o.id, 'reject'), { method: 'POST', body: {} })).body).to.deep.equal({ comment: [M.commentRequired] });
      const rejected = await as(hank)(one(o.id, 'reject'), { method: 'POST', body: { comment: 'Too high.' } });
      expect(rejected.body).to.include({ status: 'draft', rejection_comment: 'Too high.' });
      expect((await as(hank)(one(o.id, 'approve'), { method: 'POST', body: {} })).status).to.equal(409);
      await as(rita)(one(o.id, 'withdraw'), { method: 'POST', body: {} });

      // Any 2 of hank and dana: both asked at once; one approval is not enough.
      await as(dana)(`/api/hr/jobs/${jobId}/offer-approval-chain/`, {
        method: 'PUT',
        body: { mode: 'ANY', approver_ids: [hank.id, dana.id], required: 2 },
      });
      const two = await submitted(apps[6]);
      expect(two.approvals.map((a: { approver: string; asked: boolean }) => [a.approver, a.asked])).to.deep.equal([
        ['hank', true],
        ['dana', true],
      ]);
      expect((await as(hank)(one(two.id, 'approve'), { method: 'POST', body: {} })).body.status).to.equal('pending_approval');
      expect((await as(hank)(one(two.id, 'approve'), { method: 'POST', body: {} })).status).to.equal(403);
      expect((await as(dana)(one(two.id, 'approve'), { method: 'POST', body: {} })).body.status).to.equal('approved');
      await as(rita)(one(two.id, 'withdraw'), { method: 'POST', body: {} });

      // Only out of range: inside the range it is approved at once, outside it waits.
      await as(dana)(`/api/hr/jobs/${jobId}/offer-approval-chain/`, {
        method: 'PUT',
        body: { mode: 'ANY', approver_ids: [hank.id], only_out_of_range: true },
      });
      const inside = await submitted(apps[6], { base_pay: 6000, salary_period: 'MONTH' });
      expect(inside).to.include({ status: 'approved', approval_needed: false, in_range: true });
      await as(rita)(one(inside.id, 'withdraw'), { method: 'POST', body: {} });
      const outside = await submitted(apps[6], { base_pay: 95000 });
      expect(outside).to.include({ status: 'pending_approval', approval_needed: true, in_range: false });
      await as(rita)(one(outside.id, 'withdraw'), { method: 'POST', body: {} });
      expect((await as(dana)(`/api/hr/jobs/${jobId}/offer-approval-chain/`, { method: 'DELETE' })).status).to.equal(204);
      expect((await as(hank)(`/api/hr/jobs/${jobId}/offer-approval-chain/`)).body).to.include({
        inherited: true,
        mode: 'ANY',
        required: 1,
      });
    });

    it('counts the offers made and accepted in the reports', async () => {
      const today = new Date().toISOString().slice(0, 10);
      const r = await as(dana)(`/api/hr/reports/?job_id=${jobId}&from=${dayAhead(-30)}&to=${today}`);
      expect(r.status).to.equal(200);
      // Sent: apps 0 (accepted), 2 (declined), 3 (withdrawn), 4 (expired), 7 (accepted).
      expect(r.body.offers).to.deep.equal({ made: 5, accepted: 2, declined: 1, acceptance_rate: 40 });
    });

    it('keeps offer templates (admins), with known variables only, sanitised; the last one stays', async () => {
      const list = await as(rita)('/api/hr/offer-templates/');
      expect(list.status).to.equal(200);
      expect(list.body.results).to.have.length(1);
      expect(list.body.results[0]).to.include({ is_default: true, name: 'Standard offer letter' });
      expect(list.body.variables).to.include.members(['first_name', 'job_title', 'base_pay', 'expiry_date']);
      expect((await as(rita)('/api/hr/offer-templates/', { method: 'POST', body: { name: 'X', body: '<p>x</p>' } })).status).to.equal(403);
      for (const [body, field] of [
        [{ name: '', body: '<p>x</p>' }, 'name'],
        [{ name: 'A\u0007B', body: '<p>x</p>' }, 'name'],
        [{ name: 'n'.repeat(101), body: '<p>x</p>' }, 'name'],
        [{ name: 'X', body: '' }, 'body'],
        [{ name: 'X', body: ['<p>x</p>'] }, 'body'],
        [{ name: 'X', body: '<p>{current_salary}</p>' }, 'body'],
        [{ name: 'X', body: '<script>1</script>' }, 'body'],
      ] as const) {
        const r = await as(dana)('/api/hr/offer-templates/', { method: 'POST', body });
        expect(r.status, JSON.stringify(body)).to.equal(400);
        expect(r.body).to.have.property(field);
      }
      const made = await as(dana)('/api/hr/offer-templates/', {
        method: 'POST',
        body: { name: 'Senior', body: '<p style="x">Dear {first_name}, {base_pay} {currency}<iframe></iframe></p>' },
      });
      expect(made.status).to.equal(201);
      expect(made.body.body).to.equal('<p>Dear {first_name}, {base_pay} {currency}</p>');
      const usedBy = await as(rita)(offers(apps[7]), { method: 'POST', body: valid({ template_id: made.body.id }) });
      expect(usedBy.body.letter).to.equal(made.body.body);
      const pdf = await fetch(`${s.baseUrl}${one(usedBy.body.id, 'pdf')}`, { headers: { Authorization: `Bearer ${hank.token}` } });
      expect(pdf.status).to.equal(200);
      expect(pdf.headers.get('content-disposition')).to.match(/^attachment;/);
      expect(
        Buffer.from(await pdf.arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).to.equal('%PDF-');
      await as(rita)(one(usedBy.body.id, 'withdraw'), { method: 'POST', body: {} });
      const put = await as(dana)(`/api/hr/offer-templates/${made.body.id}/`, {
        method: 'PUT',
        body: { name: 'Senior 2', body: '<p>Hi {first_name}</p>' },
      });
      expect(put.body).to.include({ name: 'Senior 2', body: '<p>Hi {first_name}</p>' });
      expect((await as(dana)(`/api/hr/offer-templates/${made.body.id}/`, { method: 'DELETE' })).status).to.equal(204);
      const last = await as(dana)(`/api/hr/offer-templates/${list.body.results[0].id}/`, { method: 'DELETE' });
      expect(last.status).to.equal(409);
      expect(last.body.detail).to.equal(M.lastTemplate);
      expect((await as(dana)('/api/hr/offer-templates/999999/')).status).to.equal(404);
    });
    it("keeps the offer PDFs from the orphan sweep, and an erased applicant's offers and PDFs go", async () => {
      const rows = await s.ctx.db('offers').where({ application_id: apps[7] }).select('pdf_key', 'signed_pdf_key');
      const keys = rows
        .flatMap((r: { pdf_key: string | null; signed_pdf_key: string | null }) => [r.pdf_key, r.signed_pdf_key])
        .filter(Boolean) as string[];
      expect(keys).to.have.length(2);
      const sweep = () => sweepOrphanFiles(s.ctx.db, s.ctx.storage as SweepableStorage, { olderThanMs: 0 });
      expect((await sweep()).removed.filter((k) => keys.includes(k))).to.deep.equal([]);
      for (const k of keys) expect(await s.ctx.storage.exists(k), k).to.equal(true);
      await removeApplications(
        { db: s.ctx.db, storage: s.ctx.storage, now: () => new Date(), log: s.ctx.log },
        { email: 'cand7@example.com' },
        { action: 'erase' },
      );
      expect(await s.ctx.db('offers').where({ application_id: apps[7] }).count({ n: '*' })).to.deep.equal([{ n: 0 }]);
      expect(await s.ctx.db('stored_files').whereIn('storage_key', keys).count({ n: '*' })).to.deep.equal([{ n: 0 }]);
      expect((await sweep()).removed.filter((k) => keys.includes(k)).sort()).to.deep.equal([...keys].sort());
      for (const k of keys) expect(await s.ctx.storage.exists(k), k).to.equal(false);
    });
  });

  describe(`offer answers are rate limited per client address [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    after(async () => s?.close());
    it('answers 429 past OFFER_RATE_LIMIT, before looking at the link', async () => {
      s = await startTestServer(kind, { OFFER_RATE_LIMIT: '2', OFFER_RATE_WINDOW_SECONDS: '600' });
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${s.baseUrl}/offer/${'A'.repeat(43)}`, {
          method: 'POST',
          body: new URLSearchParams({ action: 'accept', full_name: 'X' }),
        });
        statuses.push(res.status);
        await res.arrayBuffer();
      }
      expect(statuses).to.deep.equal([404, 404, 429]);
      // Reading the page is not limited.
      expect((await fetch(`${s.baseUrl}/offer/${'A'.repeat(43)}`)).status).to.equal(404);
    });
  });
}

const DEJAVU = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';

describe('offer PDFs with OFFER_PDF_FONT [sqlite]', function () {
  this.timeout(60_000);
  let s: TestServer;
  after(async () => s?.close());
  it('embeds the font in the letter and the signature page, and signs a name outside Latin-1', async function () {
    if (!fs.existsSync(DEJAVU)) this.skip(); // the machine has no DejaVu font to embed
    s = await startTestServer('sqlite', {
      OFFER_PDF_FONT: DEJAVU,
      OFFER_PDF_FONT_BOLD: DEJAVU.replace('DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'),
      SMTP_URL: 'smtp://127.0.0.1:9',
    });
    const id = await createHrUser(s.ctx.db, 'adm', { role: 'admin' });
    const who = { id, token: await liveToken(s.ctx.db, id) };
    const job = await makeJob(s.ctx.db, { currency: 'EUR', min_salary: 1, max_salary: 2 });
    await insertApplications(
      s.ctx.db,
      job.id,
      [{ first_name: 'Zoë', last_name: 'Łukasiewicz', email: 'zoe@example.com', phone: '+15550100' }],
      [],
    );
    const appId = Number((await s.ctx.db('applications').first('id')).id);
    const call = (p: string, body?: unknown) => hr(s.baseUrl, who.token, p, { method: body === undefined ? 'GET' : 'POST', body });
    const made = await call(`/api/hr/applications/${appId}/offers/`, {
      base_pay: 5,
      salary_period: 'YEAR',
      currency: 'EUR',
      start_date: dayAhead(20),
      expires_on: dayAhead(5),
    });
    expect(made.status).to.equal(201);
    await call(`/api/hr/offers/${made.body.id}/submit/`, {});
    await call(`/api/hr/offers/${made.body.id}/approve/`, {});
    expect((await call(`/api/hr/offers/${made.body.id}/send/`, {})).body.status).to.equal('sent');
    const row = await s.ctx.db('offers').where({ id: made.body.id }).first('pdf_key');
    const chunks: Buffer[] = [];
    for await (const c of await s.ctx.storage.read(row.pdf_key)) chunks.push(c as Buffer);
    const shown = Buffer.concat(chunks).toString('latin1');
    expect(shown).to.match(/\/BaseFont \/[A-Z]{6}\+DejaVuSans/);
    expect(shown).to.not.include('/Helvetica');
    // Signed through the service (the page's own path is tested above), with a name outside Latin-1.
    // The candidate's link (its token is only in the email, which this test does not deliver): a known token's hash put in its place.
    const token = 'T'.repeat(43);
    await s.ctx
      .db('offers')
      .where({ id: made.body.id })
      .update({ token_hash: createHash('sha256').update(token).digest('hex') });
    const res = await fetch(`${s.baseUrl}/offer/${token}`, {
      method: 'POST',
      body: new URLSearchParams({ action: 'accept', full_name: 'Zoë Łukasiewicz 李' }),
    });
    expect(res.status).to.equal(200);
    const signed = await fetch(`${s.baseUrl}/api/hr/offers/${made.body.id}/pdf/`, { headers: { Authorization: `Bearer ${who.token}` } });
    const bytes = Buffer.from(await signed.arrayBuffer());
    expect((await PDFDocument.load(bytes)).getPageCount()).to.equal(2);
    expect(bytes.toString('latin1').match(/\/BaseFont \/[A-Z]{6}\+DejaVuSans/g)!.length).to.be.at.least(2);
    expect(bytes.toString('latin1')).to.not.include('/Helvetica');
  });
});

describe('OFFER_PDF_FONT settings', () => {
  it('refuses a font that is not a .ttf or .otf file, a missing file, and a bold font without the regular one', () => {
    const problem = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return '';
      } catch (err) {
        return (err as Error).message;
      }
    };
    expect(problem({ OFFER_PDF_FONT: '/etc/hostname' })).to.include('OFFER_PDF_FONT must name a .ttf or .otf font file');
    expect(problem({ OFFER_PDF_FONT: '/no/such/font.ttf' })).to.include('OFFER_PDF_FONT names no readable file');
    if (fs.existsSync(DEJAVU)) {
      expect(problem({ OFFER_PDF_FONT_BOLD: DEJAVU })).to.include('OFFER_PDF_FONT_BOLD needs OFFER_PDF_FONT too');
      expect(loadConfig({ OFFER_PDF_FONT: DEJAVU }).offerPdfFonts).to.deep.equal({ regular: DEJAVU, bold: null });
    }
    expect(loadConfig({}).offerPdfFonts).to.deep.equal({ regular: null, bold: null });
  });
});
