/**
 * Emails to candidates over HTTP on SQLite and MySQL (issue 20): the templates API (admins only;
 * a recruiter gets 403), its defaults, and its bad input (unknown variables, CR/LF in the subject,
 * huge bodies, wrong types); the two interview reminder templates (issue 32: their times, their
 * own variables, never deleted, never offered to send); a preview and a send to one application (values escaped in the HTML
 * part, the subject one line); a bulk send with a rejection in one transaction (over 500 ids,
 * unknown reasons and removed jobs write nothing, ids that do not exist are answered back);
 * without SMTP_URL every send is a 409 and templates can still be edited; and the timeline says
 * who sent what to whom and whether it was delivered.
 */
import { expect } from 'chai';
import type { Knex } from 'knex';
import { databaseKinds } from '../helpers/db.js';
import { createHrUser, liveToken } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { insertApplications } from '../helpers/applications.js';
import { makeJob } from '../helpers/factories.js';
import { hr, seedPeople, type Seeded } from '../applicants/helpers.js';
import { fromDbJson } from '../../src/db/codecs.js';

const OFF = 'Email is off: set SMTP_URL to send email.';

/** Alice (admin) and Rita (recruiter), each with a live session. */
async function adminAndRecruiter(db: Knex): Promise<{ admin: { id: number; token: string }; recruiter: { id: number; token: string } }> {
  const adminId = await createHrUser(db, 'alice');
  const recruiterId = await createHrUser(db, 'rita', { role: 'recruiter' });
  return {
    admin: { id: adminId, token: await liveToken(db, adminId) },
    recruiter: { id: recruiterId, token: await liveToken(db, recruiterId) },
  };
}

for (const kind of databaseKinds()) {
  describe(`emails to candidates API [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    let seeded: Seeded;
    let admin: { id: number; token: string };
    let recruiter: { id: number; token: string };

    before(async () => {
      // Email on, no delivery worker here: queued emails stay PENDING for the checks.
      s = await startTestServer(kind, { SMTP_URL: 'smtp://127.0.0.1:9', COMPANY_NAME: 'Acme & Sons' });
      seeded = await seedPeople(s.ctx.db);
      ({ admin, recruiter } = await adminAndRecruiter(s.ctx.db));
    });
    after(() => s.close());

    const as =
      (who: { token: string }) =>
      (p: string, init: { method?: string; body?: unknown } = {}) =>
        hr(s.baseUrl, who.token, p, init);
    const count = async (table: string, where: Record<string, unknown> = {}) =>
      Number((await s.ctx.db(table).where(where).count({ n: '*' }))[0].n);
    const templateByPurpose = async (purpose: string) =>
      (await as(admin)('/api/hr/email-templates/')).body.results.find((t: any) => t.purpose === purpose);
    const payloadOf = (row: any) => fromDbJson<any>(row.payload, null);

    describe('templates', () => {
      it('lists the nine defaults with good wording', async () => {
        const res = await as(admin)('/api/hr/email-templates/');
        expect(res.status).to.equal(200);
        expect(res.body.results.map((t: any) => [t.name, t.purpose, t.remind_24h, t.remind_1h])).to.deep.equal([
          ['Application received', 'receipt', null, null],
          ['Rejection', 'rejection', null, null],
          ['Interview invitation', 'interview', null, null],
          ['Interview reminder', 'reminder_candidate', true, true],
          ['Interview reminder for interviewers', 'reminder_interviewer', true, true],
          ['Job alert confirmation', 'alert_confirm', null, null],
          ['Job alert digest', 'alert_digest', null, null],
          ['Talent pool invitation', 'pool_invite', null, null],
          ['Talent pool consent request', 'pool_consent', null, null],
        ]);
        const rejection = res.body.results[1];
        expect(rejection.subject).to.equal('Your application for {job_title} at {company_name}');
        expect(rejection.body)
          .to.match(/^Dear \{first_name\},\n\n/)
          .and.include('not to move forward');
        const one = await as(admin)(`/api/hr/email-templates/${rejection.id}/`);
        expect(one.body).to.deep.equal(rejection);
      });

      it('keeps the job alert templates (issue 35): edited with their own variables, never deleted, sent or given a delay', async () => {
        const digest = await templateByPurpose('alert_digest');
        const put = (body: Record<string, unknown>) => as(admin)(`/api/hr/email-templates/${digest.id}/`, { method: 'PUT', body });
        const ok = await put({
          name: 'Job alert digest',
          subject: '{job_count} new at {company_name}',
          body: '{jobs}\n\n{unsubscribe_link}',
        });
        expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
        const unknown = await put({ name: 'Job alert digest', subject: 'Hi {first_name}', body: '{jobs}' });
        expect(unknown.status).to.equal(400);
        expect(unknown.body.subject[0]).to.match(/^Unknown variable \{first_name\}: use .*\{jobs\}/);
        const delayed = await put({ name: 'Job alert digest', subject: 'x', body: '{jobs}', default_delay_minutes: 60 });
        expect(delayed.status).to.equal(400);
        const gone = await as(admin)(`/api/hr/email-templates/${digest.id}/`, { method: 'DELETE' });
        expect(gone.status).to.equal(409);
        expect(gone.body).to.deep.equal({ detail: 'The job alert templates cannot be deleted: edit their text instead.' });
        const choices = await as(admin)('/api/hr/applications/emails/');
        expect(choices.body.templates.map((t: any) => t.purpose)).to.not.include.members(['alert_confirm', 'alert_digest']);
        const send = await as(admin)(`/api/hr/applications/${[...seeded.ids.values()][0]}/emails/`, {
          method: 'POST',
          body: { template_id: digest.id },
        });
        expect(send.status).to.equal(400);
      });

      it('creates, reads, replaces and deletes a template', async () => {
        const created = await as(admin)('/api/hr/email-templates/', {
          method: 'POST',
          body: { name: '  Offer ', subject: 'Offer: {job_title}', body: 'Hi {first_name} {last_name},\r\n\r\nWelcome to {company_name}.' },
        });
        expect(created.status, JSON.stringify(created.body)).to.equal(201);
        expect(created.body).to.include({
          name: 'Offer',
          subject: 'Offer: {job_title}',
          body: 'Hi {first_name} {last_name},\n\nWelcome to {company_name}.',
          purpose: null,
        });
        const id = created.body.id;
        const put = await as(admin)(`/api/hr/email-templates/${id}/`, {
          method: 'PUT',
          body: { name: 'Offer letter', subject: 'Your offer', body: 'Hello {first_name}.' },
        });
        expect(put.status).to.equal(200);
        expect(put.body).to.include({ id, name: 'Offer letter', subject: 'Your offer', body: 'Hello {first_name}.' });
        expect((await as(admin)(`/api/hr/email-templates/${id}/`)).body.name).to.equal('Offer letter');
        const dup = await as(admin)('/api/hr/email-templates/', {
          method: 'POST',
          body: { name: 'offer LETTER', subject: 'x', body: 'y' },
        });
        expect(dup.status).to.equal(400);
        expect(dup.body).to.deep.equal({ name: ['A template with this name already exists.'] });
        expect((await as(admin)(`/api/hr/email-templates/${id}/`, { method: 'DELETE' })).status).to.equal(204);
        expect((await as(admin)(`/api/hr/email-templates/${id}/`)).status).to.equal(404);
        expect((await as(admin)(`/api/hr/email-templates/${id}/`, { method: 'DELETE' })).body).to.deep.equal({ detail: 'Not found.' });
        expect(
          (await as(admin)(`/api/hr/email-templates/${id}/`, { method: 'PUT', body: { name: 'a', subject: 'b', body: 'c' } })).status,
        ).to.equal(404);
        expect((await as(admin)('/api/hr/email-templates/abc/')).status).to.equal(404);
      });

      it('refuses bad templates with a 400 naming the problem, writing nothing', async () => {
        const before = await count('email_templates');
        const post = (body: unknown) => as(admin)('/api/hr/email-templates/', { method: 'POST', body });
        const cases: [unknown, Record<string, string[]>][] = [
          [
            { name: 'A', subject: 'Hello {firstname}', body: 'Hi {first_name} from {team} and {team}' },
            {
              subject: [
                'Unknown variable {firstname}: use {first_name}, {last_name}, {job_title}, {company_name}, {sender_name}, {stage}, {application_date} or {job_url}.',
              ],
              body: [
                'Unknown variable {team}: use {first_name}, {last_name}, {job_title}, {company_name}, {sender_name}, {stage}, {application_date} or {job_url}.',
              ],
            },
          ],
          [
            { name: 'B', subject: 'Hello\r\nBcc: victim@example.com', body: 'x' },
            { subject: ['The subject must be one line: no line breaks.'] },
          ],
          [{ name: 'C', subject: 'Hello\nthere', body: 'x' }, { subject: ['The subject must be one line: no line breaks.'] }],
          [{ name: 'C2', subject: 'Hello\u0007\tthere', body: 'x' }, { subject: ['The subject must not contain control characters.'] }],
          [{ name: 'D', subject: 's', body: 'x'.repeat(10_001) }, { body: ['Ensure this field has no more than 10000 characters.'] }],
          [{ name: 'E', subject: 's'.repeat(201), body: 'x' }, { subject: ['Ensure this field has no more than 200 characters.'] }],
          [{ name: 'n'.repeat(101), subject: 's', body: 'x' }, { name: ['Enter a name of 1 to 100 characters on one line.'] }],
          [
            { name: 42, subject: ['s'], body: { a: 1 } },
            { name: ['Must be text.'], subject: ['Must be text.'], body: ['Must be text.'] },
          ],
          [{}, { name: ['This field is required.'], subject: ['This field is required.'], body: ['This field is required.'] }],
          [
            { name: '   ', subject: '  ', body: '\n' },
            {
              name: ['Enter a name of 1 to 100 characters on one line.'],
              subject: ['This field may not be blank.'],
              body: ['This field may not be blank.'],
            },
          ],
          [[1, 2], { detail: 'Must be an object.' } as never],
        ];
        for (const [body, errors] of cases) {
          const res = await post(body);
          expect(res.status, JSON.stringify(body).slice(0, 80)).to.equal(400);
          expect(res.body, JSON.stringify(body).slice(0, 80)).to.deep.include(errors);
        }
        // A 1 MB body is refused as well, before anything is written.
        const huge = await post({ name: 'Huge', subject: 's', body: 'x'.repeat(1_000_000) });
        expect(huge.status).to.equal(400);
        // Braces that are not a variable are text; HTML is text too.
        const ok = await post({ name: '<b>Tags</b>', subject: 'Set {a b} <i>', body: 'JSON like {"k": 1} and {} stay.' });
        expect(ok.status, JSON.stringify(ok.body)).to.equal(201);
        expect(await count('email_templates')).to.equal(before + 1);
        await as(admin)(`/api/hr/email-templates/${ok.body.id}/`, { method: 'DELETE' });
      });

      it('the interview reminder templates: times saved with PUT, their own variables, bad input refused (400, nothing written), never deleted', async () => {
        const reminder = await templateByPurpose('reminder_candidate');
        const forInterviewers = await templateByPurpose('reminder_interviewer');
        const rejection = await templateByPurpose('rejection');
        const put = (t: any, over: Record<string, unknown>) =>
          as(admin)(`/api/hr/email-templates/${t.id}/`, {
            method: 'PUT',
            body: { name: t.name, subject: t.subject, body: t.body, remind_24h: t.remind_24h, remind_1h: t.remind_1h, ...over },
          });
        const rows = async () => s.ctx.db('email_templates').orderBy('id').select();
        const before = await rows();
        const known =
          '{first_name}, {last_name}, {job_title}, {company_name}, {sender_name}, {stage}, {application_date}, {job_url}, {interview_time}, {interview_type}, {interview_place}, {interviewers}, {interview_notes}';
        const cases: [any, Record<string, unknown>, Record<string, string[]>][] = [
          [
            reminder,
            { remind_24h: undefined, remind_1h: undefined },
            { remind_24h: ['This field is required.'], remind_1h: ['This field is required.'] },
          ],
          [
            reminder,
            { remind_24h: 'true', remind_1h: 1 },
            { remind_24h: ['Must be true or false.'], remind_1h: ['Must be true or false.'] },
          ],
          [
            reminder,
            { remind_24h: null, remind_1h: ['yes'] },
            { remind_24h: ['Must be true or false.'], remind_1h: ['Must be true or false.'] },
          ],
          [reminder, { remind_1h: { a: 1 }, name: 42 }, { name: ['Must be text.'], remind_1h: ['Must be true or false.'] }],
          [
            reminder,
            { default_delay_minutes: 60 },
            { default_delay_minutes: ['A reminder template is sent before each interview, never later: leave this out or null.'] },
          ],
          // The candidate's reminder has no scorecard link nor interviewer's name; no template has an unknown variable.
          [
            reminder,
            { subject: 'In {hours_before}: {scorecard_link}', body: 'Hi {interviewer_name} at {interview_time} {room}' },
            {
              subject: [`Unknown variable {scorecard_link}: use ${known} or {hours_before}.`],
              body: [`Unknown variables {interviewer_name}, {room}: use ${known} or {hours_before}.`],
            },
          ],
          [
            forInterviewers,
            { body: 'Kit: {scorecard_link}, {hours}' },
            { body: [`Unknown variable {hours}: use ${known}, {hours_before}, {interviewer_name} or {scorecard_link}.`] },
          ],
          // Elsewhere the reminders' variables stay unknown, and there are no reminder times.
          [
            rejection,
            { subject: 'At {interview_time}', remind_24h: true, remind_1h: false },
            {
              subject: [
                'Unknown variable {interview_time}: use {first_name}, {last_name}, {job_title}, {company_name}, {sender_name}, {stage}, {application_date} or {job_url}.',
              ],
              remind_24h: ['Only the interview reminder templates are sent before interviews: leave this out or null.'],
              remind_1h: ['Only the interview reminder templates are sent before interviews: leave this out or null.'],
            },
          ],
        ];
        for (const [t, over, errors] of cases) {
          const res = await put(t, over);
          expect(res.status, JSON.stringify(over)).to.equal(400);
          expect(res.body, JSON.stringify(over)).to.deep.equal(errors);
        }
        // A new template has no purpose: no reminder times, no reminder variables.
        const post = await as(admin)('/api/hr/email-templates/', {
          method: 'POST',
          body: { name: 'Soon', subject: 'In {hours_before}', body: 'x', remind_1h: false },
        });
        expect(post.status).to.equal(400);
        expect(post.body).to.have.keys('subject', 'remind_1h');
        expect(await rows()).to.deep.equal(before);

        // Times and the reminders' variables saved; null on the others is what GET answers and is taken back.
        const saved = await put(reminder, {
          subject: 'Soon: {interview_type} in {hours_before}',
          body: 'At {interview_time}, {interview_place}, with {interviewers}.\n\n{interview_notes}',
          remind_24h: false,
          remind_1h: true,
          default_delay_minutes: null,
        });
        expect(saved.status, JSON.stringify(saved.body)).to.equal(200);
        expect(saved.body).to.include({ purpose: 'reminder_candidate', remind_24h: false, remind_1h: true, default_delay_minutes: null });
        expect((await as(admin)(`/api/hr/email-templates/${reminder.id}/`)).body).to.deep.equal(saved.body);
        const kit = await put(forInterviewers, { body: 'Hello {interviewer_name}: {scorecard_link}', remind_24h: true, remind_1h: false });
        expect(kit.body).to.include({ remind_24h: true, remind_1h: false });
        expect((await put(rejection, { remind_24h: null, remind_1h: null })).status).to.equal(200);

        // Never deleted (409, still there); never offered where HR sends, nor taken by a send.
        for (const t of [reminder, forInterviewers]) {
          const del = await as(admin)(`/api/hr/email-templates/${t.id}/`, { method: 'DELETE' });
          expect(del.status).to.equal(409);
          expect(del.body).to.deep.equal({ detail: 'The interview reminder templates cannot be deleted: untick both times to send none.' });
          expect(await count('email_templates', { id: t.id })).to.equal(1);
        }
        const choices = await as(recruiter)('/api/hr/applications/emails/');
        expect(choices.body.templates.map((t: any) => t.purpose)).to.deep.equal(['receipt', 'rejection', 'interview']);
        const appId = seeded.ids.get('priya@patel.dev')!;
        const emailsBefore = await count('email_posts');
        for (const [path, body] of [
          [`/api/hr/applications/${appId}/emails/preview/`, { template_id: reminder.id }],
          [`/api/hr/applications/${appId}/emails/`, { template_id: forInterviewers.id }],
          ['/api/hr/applications/emails/bulk/preview/', { ids: [appId], template_id: reminder.id }],
          ['/api/hr/applications/emails/bulk/', { ids: [appId], template_id: reminder.id, outcome: 'REJECTED', reason: 'Not a fit' }],
        ] as const) {
          const res = await as(recruiter)(path, { method: 'POST', body });
          expect(res.status, path).to.equal(400);
          expect(res.body, path).to.deep.equal({ template_id: ['Select a valid template.'] });
        }
        expect(await count('email_posts')).to.equal(emailsBefore);
        expect((await s.ctx.db('applications').where({ id: appId }).first()).outcome).to.equal(null);
        for (const t of [reminder, forInterviewers]) expect((await put(t, {})).status).to.equal(200);
      });

      it('is admin only: a recruiter gets 403 on every template call and on the page', async () => {
        const id = (await templateByPurpose('rejection')).id;
        for (const [method, path, body] of [
          ['GET', '/api/hr/email-templates/', undefined],
          ['POST', '/api/hr/email-templates/', { name: 'x', subject: 'y', body: 'z' }],
          ['GET', `/api/hr/email-templates/${id}/`, undefined],
          ['PUT', `/api/hr/email-templates/${id}/`, { name: 'x', subject: 'y', body: 'z' }],
          ['DELETE', `/api/hr/email-templates/${id}/`, undefined],
        ] as const) {
          const res = await as(recruiter)(path, { method, body });
          expect(res.status, `${method} ${path}`).to.equal(403);
          expect(res.body).to.deep.equal({ detail: 'You do not have permission to perform this action. Only admins can.' });
        }
        expect(await count('email_templates', { id })).to.equal(1);
        const page = await fetch(`${s.baseUrl}/hr/settings/email-templates`, {
          headers: { Cookie: `jwt=${recruiter.token}` },
          redirect: 'manual',
        });
        expect(page.status).to.equal(403);
        const adminPage = await fetch(`${s.baseUrl}/hr/settings/email-templates`, {
          headers: { Cookie: `jwt=${admin.token}` },
          redirect: 'manual',
        });
        expect(adminPage.status).to.equal(200);
        expect(await adminPage.text()).to.include('<h1>Email templates</h1>');
        // No session: 401, as every HR call.
        expect((await fetch(`${s.baseUrl}/api/hr/email-templates/`)).status).to.equal(401);
      });
    });

    describe('one application', () => {
      it('offers the templates to any HR user, with email on', async () => {
        const res = await as(recruiter)('/api/hr/applications/emails/');
        expect(res.status).to.equal(200);
        expect(res.body).to.include({ email_on: true, off_reason: null });
        expect(res.body.templates.map((t: any) => t.purpose)).to.deep.equal(['receipt', 'rejection', 'interview']);
      });

      it('previews the email for this applicant, and sends it as previewed (201), HTML escaped, subject on one line', async () => {
        const job = await makeJob(s.ctx.db, { title: 'Placeholder' });
        // A title saved before the one-line rule, with a header injection attempt and markup.
        await s.ctx.db('jobs').where({ id: job.id }).update({ title: 'Night <Shift>\r\nBcc: victim@example.com' });
        await insertApplications(
          s.ctx.db,
          job.id,
          [
            {
              first_name: '<script>alert(1)</script>',
              last_name: "O'Brien & Co",
              email: 'html@example.com',
              phone: '+15550000000',
              status: 'NEW',
              created_at: new Date(),
            },
          ],
          [],
        );
        const appId = Number((await s.ctx.db('applications').where({ email: 'html@example.com' }).first()).id);
        const rejection = await templateByPurpose('rejection');

        const preview = await as(recruiter)(`/api/hr/applications/${appId}/emails/preview/`, {
          method: 'POST',
          body: { template_id: rejection.id },
        });
        expect(preview.status, JSON.stringify(preview.body)).to.equal(200);
        expect(preview.body.to).to.equal('html@example.com');
        expect(preview.body.subject).to.equal('Your application for Night <Shift> Bcc: victim@example.com at Acme & Sons');
        expect(preview.body.text).to.match(/^Dear <script>alert\(1\)<\/script>,\n\n/);
        expect(preview.body.html).to.include('<p>Dear &#60;script&#62;alert(1)&#60;/script&#62;,</p>');
        expect(preview.body.html).to.include('Night &#60;Shift&#62; Bcc: victim@example.com').and.include('Acme &#38; Sons');
        expect(preview.body.html).to.not.include('<script>');
        expect(await count('email_posts', { application_id: appId })).to.equal(0);

        // Edited before sending: the edit is sent, the template stays.
        const edited = { template_id: rejection.id, subject: 'About {job_title}', body: 'Dear {first_name} {last_name},\n\nThank you.' };
        const editedPreview = await as(recruiter)(`/api/hr/applications/${appId}/emails/preview/`, { method: 'POST', body: edited });
        const sent = await as(recruiter)(`/api/hr/applications/${appId}/emails/`, { method: 'POST', body: edited });
        expect(sent.status, JSON.stringify(sent.body)).to.equal(201);
        expect(sent.body).to.include({
          application_id: appId,
          to: 'html@example.com',
          subject: 'About Night <Shift> Bcc: victim@example.com',
          template_id: rejection.id,
          template_name: 'Rejection',
          status: 'PENDING',
          detail: 'Email queued.',
        });
        const row = await s.ctx.db('email_posts').where({ id: sent.body.id }).first();
        expect(row).to.include({ status: 'PENDING', template: 'hr_template', template_name: 'Rejection' });
        expect(Number(row.sent_by)).to.equal(recruiter.id);
        expect(Number(row.template_id)).to.equal(rejection.id);
        const message = payloadOf(row);
        // Issue 30: the sender's name goes in From ("rita via <company> Careers"); no Reply-To without MAIL_REPLY_TO.
        expect(message).to.deep.equal({
          to: 'html@example.com',
          subject: editedPreview.body.subject,
          text: editedPreview.body.text,
          html: editedPreview.body.html,
          fromName: 'rita via Acme & Sons Careers',
        });
        expect(message.subject).to.not.match(/[\r\n]/);
        expect(message.html).to.include('Dear &#60;script&#62;alert(1)&#60;/script&#62; O&#39;Brien &#38; Co,');
        expect((await as(admin)(`/api/hr/email-templates/${rejection.id}/`)).body.subject).to.equal(rejection.subject);

        // The timeline says who sent what to whom, and that it waits for delivery.
        const timeline = await as(admin)(`/api/hr/applications/${appId}/timeline/`);
        const entry = timeline.body.results.find((e: any) => e.id === `email-${sent.body.id}`);
        expect(entry).to.deep.include({ type: 'email', action: 'queued', actor: { id: recruiter.id, username: 'rita' } });
        expect(entry.text).to.equal('“Rejection” email to html@example.com by rita: About Night <Shift> Bcc: victim@example.com');
        expect(entry.email).to.deep.equal({
          id: sent.body.id,
          send_after: null,
          to: 'html@example.com',
          subject: 'About Night <Shift> Bcc: victim@example.com',
          template: 'Rejection',
          status: 'PENDING',
          delivered_at: null,
          attempts: 0,
          error: null,
          to_hr: false,
        });
        // Delivered: the entry says so, with the time.
        const deliveredAt = new Date('2026-03-01T10:00:00.000Z');
        await s.ctx
          .db('email_posts')
          .where({ id: sent.body.id })
          .update({ status: 'SUCCESS', attempts: 1, delivered_at: '2026-03-01 10:00:00.000', next_attempt_at: null });
        const after = (await as(admin)(`/api/hr/applications/${appId}/timeline/`)).body.results.find(
          (e: any) => e.id === `email-${sent.body.id}`,
        );
        expect(after.email).to.include({ status: 'SUCCESS', delivered_at: deliveredAt.toISOString(), attempts: 1 });
      });

      it('refuses bad sends: unknown application 404, bad template 400, bad edits 400, nothing queued', async () => {
        const appId = seeded.ids.get('priya@patel.dev')!;
        const rejection = await templateByPurpose('rejection');
        const before = await count('email_posts');
        const send = (id: number | string, body: unknown) => as(recruiter)(`/api/hr/applications/${id}/emails/`, { method: 'POST', body });
        expect((await send(999_999, { template_id: rejection.id })).status).to.equal(404);
        expect((await send('x1', { template_id: rejection.id })).status).to.equal(404);
        expect(
          (await as(recruiter)('/api/hr/applications/999999/emails/preview/', { method: 'POST', body: { template_id: rejection.id } }))
            .status,
        ).to.equal(404);
        const cases: [unknown, Record<string, string[]>][] = [
          [{}, { template_id: ['Select a valid template.'] }],
          [{ template_id: 'abc' }, { template_id: ['Select a valid template.'] }],
          [{ template_id: 999_999 }, { template_id: ['This template no longer exists. Choose another.'] }],
          [
            { template_id: rejection.id, subject: 'Hi\r\nBcc: x@example.com' },
            { subject: ['The subject must be one line: no line breaks.'] },
          ],
          [
            { template_id: rejection.id, body: 'Hello {nickname}' },
            {
              body: [
                'Unknown variable {nickname}: use {first_name}, {last_name}, {job_title}, {company_name}, {sender_name}, {stage}, {application_date} or {job_url}.',
              ],
            },
          ],
          [{ template_id: rejection.id, body: 'x'.repeat(10_001) }, { body: ['Ensure this field has no more than 10000 characters.'] }],
          [[1], { detail: 'Must be an object.' } as never],
        ];
        for (const [body, errors] of cases) {
          for (const path of [`/api/hr/applications/${appId}/emails/`, `/api/hr/applications/${appId}/emails/preview/`]) {
            const res = await as(recruiter)(path, { method: 'POST', body });
            expect(res.status, `${path} ${JSON.stringify(body).slice(0, 60)}`).to.equal(400);
            expect(res.body).to.deep.include(errors);
          }
        }
        expect(await count('email_posts')).to.equal(before);
      });
    });

    describe('in bulk', () => {
      it('rejects the selected applications with a reason and queues the rejection email to each, in one request', async () => {
        const ids = ['jose.muller@example.com', 'jo.baker@example.org', 'bjorn@example.no'].map((e) => seeded.ids.get(e)!);
        const rejection = await templateByPurpose('rejection');
        const res = await as(recruiter)('/api/hr/applications/emails/bulk/', {
          method: 'POST',
          body: { ids: [...ids, 888_888, ids[0]], template_id: rejection.id, outcome: 'REJECTED', reason: 'Position filled' },
        });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body).to.deep.equal({
          queued: 3,
          queued_ids: [...ids].sort((a, b) => a - b),
          rejected_ids: [...ids].sort((a, b) => a - b),
          not_found: [888_888],
          skipped_ids: [],
          send_after: null,
          detail: '3 emails queued.',
        });
        const apps = await s.ctx.db('applications').whereIn('id', ids);
        for (const a of apps) expect(a).to.include({ outcome: 'REJECTED', outcome_reason: 'Position filled', status: 'ARCHIVED' });
        const rows = await s.ctx.db('email_posts').whereIn('application_id', ids).orderBy('application_id');
        expect(rows).to.have.length(3);
        const byApp = new Map(rows.map((r: any) => [Number(r.application_id), payloadOf(r)]));
        expect(byApp.get(seeded.ids.get('jose.muller@example.com')!)).to.include({
          to: 'jose.muller@example.com',
          subject: 'Your application for Backend Engineer at Acme & Sons',
        });
        expect(byApp.get(seeded.ids.get('bjorn@example.no')!).text).to.match(
          /^Dear Björn,\n\nThank you for your interest in the Data Analyst position at Acme & Sons/,
        );
        for (const r of rows) expect(Number(r.sent_by)).to.equal(recruiter.id);
        // The rejection is audited like any outcome.
        expect(await count('audit_log', { entity: 'application', entity_id: ids[0], action: 'outcome' })).to.equal(1);
      });

      it('sends a template without changing the applications when no outcome is given', async () => {
        const id = seeded.ids.get('mia.rossi@example.it')!;
        const interview = await templateByPurpose('interview');
        const before = await s.ctx.db('applications').where({ id }).first();
        const res = await as(admin)('/api/hr/applications/emails/bulk/', {
          method: 'POST',
          body: { ids: [id], template_id: interview.id },
        });
        expect(res.status).to.equal(200);
        expect(res.body).to.deep.equal({
          queued: 1,
          queued_ids: [id],
          rejected_ids: [],
          not_found: [],
          skipped_ids: [],
          send_after: null,
          detail: '1 email queued.',
        });
        const after = await s.ctx.db('applications').where({ id }).first();
        expect(after.status).to.equal(before.status);
        expect(after.outcome).to.equal(null);
      });

      it('refuses bad bulk input with nothing written: 501 ids, bad ids, unknown reason, a removed job, a missing template', async () => {
        const rejection = await templateByPurpose('rejection');
        const id = seeded.ids.get('rahul.sharma@example.com')!;
        const snapshot = async () => ({
          posts: await count('email_posts'),
          audits: await count('audit_log', { entity: 'application' }),
          rejected: await count('applications', { outcome: 'REJECTED' }),
        });
        const before = await snapshot();
        const bulk = (body: unknown) => as(recruiter)('/api/hr/applications/emails/bulk/', { method: 'POST', body });
        const many = Array.from({ length: 501 }, (_, i) => i + 1);
        const cases: [unknown, Record<string, string[]>][] = [
          [
            { ids: many, template_id: rejection.id, outcome: 'REJECTED', reason: 'Not a fit' },
            { ids: ['Select between 1 and 500 applications.'] },
          ],
          [{ ids: [], template_id: rejection.id }, { ids: ['Select between 1 and 500 applications.'] }],
          [{ ids: 'all', template_id: rejection.id }, { ids: ['Select between 1 and 500 applications.'] }],
          [{ ids: [id, '1; DROP TABLE applications'], template_id: rejection.id }, { ids: ['A valid id is required.'] }],
          [{ ids: [id, -1], template_id: rejection.id }, { ids: ['A valid id is required.'] }],
          [{ ids: [id] }, { template_id: ['Select a valid template.'] }],
          [{ ids: [id], template_id: 999_999 }, { template_id: ['This template no longer exists. Choose another.'] }],
          [{ ids: [id], template_id: rejection.id, outcome: 'HIRED', reason: 'Not a fit' }, { outcome: ['The outcome must be REJECTED.'] }],
          [{ ids: [id], template_id: rejection.id, outcome: 'REJECTED' }, { reason: ['Select a rejection reason from the list.'] }],
          [{ ids: [id], template_id: rejection.id, reason: 'Not a fit' }, { reason: ['A reason goes with the outcome REJECTED.'] }],
          [
            { ids: [id], template_id: rejection.id, outcome: 'REJECTED', reason: 'Because <b>HTML</b>' },
            { reason: ['Select a rejection reason from the list.'] },
          ],
        ];
        for (const [body, errors] of cases) {
          const res = await bulk(body);
          expect(res.status, JSON.stringify(body).slice(0, 80)).to.equal(400);
          expect(res.body, JSON.stringify(body).slice(0, 80)).to.deep.include(errors);
        }
        // An application of a removed job refuses the whole request: the others are not rejected or emailed either.
        const removed = await makeJob(s.ctx.db, { title: 'Gone' });
        await insertApplications(
          s.ctx.db,
          removed.id,
          [
            {
              first_name: 'Old',
              last_name: 'Job',
              email: 'old.job@example.com',
              phone: '+15550000001',
              status: 'NEW',
              created_at: new Date(),
            },
          ],
          [],
        );
        const oldId = Number((await s.ctx.db('applications').where({ email: 'old.job@example.com' }).first()).id);
        await s.ctx.db('jobs').where({ id: removed.id }).update({ status: 'REMOVED' });
        const res = await bulk({ ids: [id, oldId], template_id: rejection.id, outcome: 'REJECTED', reason: 'Not a fit' });
        expect(res.status).to.equal(400);
        expect(await snapshot()).to.deep.equal(before);
        // Only ids that do not exist: nothing to send, said so.
        const none = await bulk({ ids: [777_777], template_id: rejection.id, outcome: 'REJECTED', reason: 'Not a fit' });
        expect(none.body).to.deep.equal({
          queued: 0,
          queued_ids: [],
          rejected_ids: [],
          not_found: [777_777],
          skipped_ids: [],
          send_after: null,
          detail: '0 emails queued.',
        });
        expect(await snapshot()).to.deep.equal(before);
      });

      it('rejects 500 at once with their emails', async () => {
        const job = await makeJob(s.ctx.db, { title: 'Bulk Role' });
        const people = Array.from({ length: 500 }, (_, i) => ({
          first_name: `P${i}`,
          last_name: 'Bulk',
          email: `p${i}@bulk.example`,
          phone: '+15550001000',
          status: 'NEW' as const,
          created_at: new Date(),
        }));
        await insertApplications(s.ctx.db, job.id, people, []);
        const ids = (await s.ctx.db('applications').where({ job_id: job.id }).select('id')).map((r: any) => Number(r.id));
        const rejection = await templateByPurpose('rejection');
        const res = await as(recruiter)('/api/hr/applications/emails/bulk/', {
          method: 'POST',
          body: { ids, template_id: rejection.id, outcome: 'REJECTED', reason: 'Not a fit' },
        });
        expect(res.status).to.equal(200);
        expect(res.body.queued).to.equal(500);
        expect(res.body.detail).to.equal('500 emails queued.');
        expect(await count('email_posts', { template_name: 'Rejection', sent_by: recruiter.id })).to.be.at.least(500);
        expect(await count('applications', { job_id: job.id, outcome: 'REJECTED' })).to.equal(500);
      });
    });
  });

  // Issue 28 items 6 and 7: limits of the filled email and of one bulk send, and a bulk send
  // without a rejection to an application of a removed job.
  describe(`emails to candidates: filled limits and removed jobs [${kind}]`, function () {
    this.timeout(120_000);
    let s: TestServer;
    let admin: { id: number; token: string };
    let recruiter: { id: number; token: string };
    const filledBody = (n: number) =>
      `With its variables filled in, the message would be ${n.toLocaleString('en')} characters; it may be at most 20,000. Shorten it.`;
    const filledSubject = (n: number) =>
      `With its variables filled in, the subject would be ${n.toLocaleString('en')} characters; it may be at most 200. Shorten it.`;
    const BULK_TOO_LARGE =
      'Together these emails would be over 20 MB; one bulk send may queue at most 20 MB of email. Select fewer applications or shorten the template.';

    before(async () => {
      s = await startTestServer(kind, { SMTP_URL: 'smtp://127.0.0.1:9', COMPANY_NAME: 'Acme' });
      ({ admin, recruiter } = await adminAndRecruiter(s.ctx.db));
    });
    after(() => s.close());

    const as =
      (who: { token: string }) =>
      (p: string, init: { method?: string; body?: unknown } = {}) =>
        hr(s.baseUrl, who.token, p, init);
    const count = async (table: string, where: Record<string, unknown> = {}) =>
      Number((await s.ctx.db(table).where(where).count({ n: '*' }))[0].n);
    const snapshot = async () => ({
      posts: await count('email_posts'),
      rejected: await count('applications', { outcome: 'REJECTED' }),
      audits: await count('audit_log', { entity: 'application' }),
    });
    /** A job titled `title` (saved as it is) with `n` applications; answers their ids. */
    const jobWith = async (title: string, n: number, tag: string) => {
      const job = await makeJob(s.ctx.db, { title: 'Placeholder' });
      await s.ctx.db('jobs').where({ id: job.id }).update({ title });
      const people = Array.from({ length: n }, (_, i) => ({
        first_name: `P${i}`,
        last_name: tag,
        email: `p${i}@${tag}.example`,
        phone: '+15550001000',
        status: 'NEW' as const,
        created_at: new Date(),
      }));
      for (let i = 0; i < people.length; i += 100) await insertApplications(s.ctx.db, job.id, people.slice(i, i + 100), []);
      return {
        job,
        ids: (await s.ctx.db('applications').where({ job_id: job.id }).orderBy('id').select('id')).map((r: any) => Number(r.id)),
      };
    };
    const template = async (name: string, subject: string, body: string) => {
      const res = await as(admin)('/api/hr/email-templates/', { method: 'POST', body: { name, subject, body } });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return res.body.id as number;
    };

    it('refuses at preview and send a template that fills past 20,000 characters (a {job_title} repeated), naming the limit; writes nothing', async () => {
      const title = 'T'.repeat(190);
      const {
        ids: [appId],
      } = await jobWith(title, 1, 'fill');
      // Within the template's own limits: 909 variables are 9,999 characters; filled, 172,710.
      const body = '{job_title}'.repeat(909);
      const id = await template('Title flood', 'About {job_title}', body);
      const before = await snapshot();
      for (const path of [`/api/hr/applications/${appId}/emails/preview/`, `/api/hr/applications/${appId}/emails/`]) {
        const res = await as(recruiter)(path, { method: 'POST', body: { template_id: id } });
        expect(res.status, path).to.equal(400);
        expect(res.body, path).to.deep.equal({ body: [filledBody(190 * 909)] });
        // As HR edited it for this email, the same.
        const edited = await as(recruiter)(path, { method: 'POST', body: { template_id: id, subject: 'Hello', body } });
        expect(edited.body, path).to.deep.equal({ body: [filledBody(190 * 909)] });
        // A subject that fills past 200 characters (two 190-character titles), with the message too.
        const both = await as(recruiter)(path, { method: 'POST', body: { template_id: id, subject: '{job_title} {job_title}', body } });
        expect(both.status, path).to.equal(400);
        expect(both.body, path).to.deep.equal({ subject: [filledSubject(381)], body: [filledBody(190 * 909)] });
      }
      expect(await snapshot()).to.deep.equal(before);
    });

    it('takes a filled message of exactly 20,000 characters and refuses 20,001; counts characters, not UTF-16 units', async () => {
      // A 40-character title of 4-byte characters (two UTF-16 units each) times 500 is 20,000 characters.
      const title = '😀'.repeat(40);
      const {
        ids: [appId],
      } = await jobWith(title, 1, 'exact');
      const templateId = (await as(admin)('/api/hr/email-templates/')).body.results[0].id;
      const exact = await as(recruiter)(`/api/hr/applications/${appId}/emails/`, {
        method: 'POST',
        body: { template_id: templateId, subject: 'Hi', body: '{job_title}'.repeat(500) },
      });
      expect(exact.status, JSON.stringify(exact.body).slice(0, 200)).to.equal(201);
      const row = await s.ctx.db('email_posts').where({ id: exact.body.id }).first();
      expect([...fromDbJson<any>(row.payload, null).text.trimEnd()]).to.have.length(20_000);
      const over = await as(recruiter)(`/api/hr/applications/${appId}/emails/preview/`, {
        method: 'POST',
        body: { template_id: templateId, subject: 'Hi', body: `x${'{job_title}'.repeat(500)}` },
      });
      expect(over.status).to.equal(400);
      expect(over.body).to.deep.equal({ body: [filledBody(20_001)] });
      // The subject: exactly 200 characters filled is taken, 201 is not.
      const subject200 = await as(recruiter)(`/api/hr/applications/${appId}/emails/preview/`, {
        method: 'POST',
        body: { template_id: templateId, subject: `${'{job_title}'.repeat(4)}${'s'.repeat(40)}`, body: 'x' },
      });
      expect(subject200.status, JSON.stringify(subject200.body)).to.equal(200);
      const subject201 = await as(recruiter)(`/api/hr/applications/${appId}/emails/preview/`, {
        method: 'POST',
        body: { template_id: templateId, subject: `${'{job_title}'.repeat(4)}${'s'.repeat(41)}`, body: 'x' },
      });
      expect(subject201.body).to.deep.equal({ subject: [filledSubject(201)] });
    });

    it('a bulk send with one email over the filled limit is refused whole, rejections included, naming the applicant and the limit', async () => {
      const { ids } = await jobWith('T'.repeat(190), 3, 'bulkfill');
      const id = await template('Title flood bulk', 'About {job_title}', '{job_title}'.repeat(909));
      const before = await snapshot();
      const res = await as(recruiter)('/api/hr/applications/emails/bulk/', {
        method: 'POST',
        body: { ids, template_id: id, outcome: 'REJECTED', reason: 'Not a fit' },
      });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ detail: `The email to p0@bulkfill.example is too long. ${filledBody(190 * 909)}` });
      expect(await snapshot()).to.deep.equal(before);
    });

    it('a bulk send of more than 20 MB in all is refused with nothing written; 500 emails of a full 10,000-character template go', async () => {
      const { ids } = await jobWith('Bulk bytes', 500, 'bytes');
      // 9,000 quotes: 9 KB of text, 45 KB of HTML (&#34;) per email, 27 MB for 500.
      const heavy = await template('Quotes', 'Hello {first_name}', '"'.repeat(9_000));
      const before = await snapshot();
      for (const body of [
        { ids, template_id: heavy },
        { ids, template_id: heavy, outcome: 'REJECTED', reason: 'Not a fit' },
      ]) {
        const res = await as(recruiter)('/api/hr/applications/emails/bulk/', { method: 'POST', body });
        expect(res.status, JSON.stringify(body).slice(-60)).to.equal(400);
        expect(res.body).to.deep.equal({ detail: BULK_TOO_LARGE });
        expect(await snapshot()).to.deep.equal(before);
      }
      // The same 500 with a template at its full 10,000 characters of plain words: about 10 MB, queued.
      const words = 'Thank you for your time. '.repeat(400).trim();
      const full = await template('Long letter', 'Dear {first_name}', words);
      const res = await as(recruiter)('/api/hr/applications/emails/bulk/', { method: 'POST', body: { ids, template_id: full } });
      expect(res.status, JSON.stringify(res.body).slice(0, 200)).to.equal(200);
      expect(res.body.queued).to.equal(500);
      expect(await count('email_posts', { template_name: 'Long letter' })).to.equal(500);
    });

    it('a bulk send without a rejection to an application of a removed job is refused (400) with nothing written', async () => {
      const live = await jobWith('Live Role', 1, 'live');
      const gone = await jobWith('Gone Role', 1, 'gone');
      await s.ctx.db('jobs').where({ id: gone.job.id }).update({ status: 'REMOVED' });
      const templateId = (await as(admin)('/api/hr/email-templates/')).body.results[0].id;
      const before = await snapshot();
      for (const ids of [[...live.ids, ...gone.ids], gone.ids]) {
        const res = await as(recruiter)('/api/hr/applications/emails/bulk/', { method: 'POST', body: { ids, template_id: templateId } });
        expect(res.status, JSON.stringify(res.body)).to.equal(400);
        expect(res.body).to.deep.equal({ ids: ['An application of a removed job cannot be emailed: leave it out of the selection.'] });
      }
      expect(await snapshot()).to.deep.equal(before);
      // Without it, the live job's application gets its email.
      const ok = await as(recruiter)('/api/hr/applications/emails/bulk/', {
        method: 'POST',
        body: { ids: live.ids, template_id: templateId },
      });
      expect(ok.status).to.equal(200);
      expect(ok.body.queued_ids).to.deep.equal(live.ids);
    });
  });

  describe(`emails to candidates without SMTP_URL [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    let token: string;
    let appId: number;
    before(async () => {
      s = await startTestServer(kind);
      const seeded = await seedPeople(s.ctx.db);
      appId = seeded.ids.get('priya@patel.dev')!;
      token = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'alice'));
    });
    after(() => s.close());

    it('says email is off, answers 409 to every send with nothing written, and still lets templates be edited and previewed', async () => {
      const call = (p: string, init: { method?: string; body?: unknown } = {}) => hr(s.baseUrl, token, p, init);
      const choices = await call('/api/hr/applications/emails/');
      expect(choices.body).to.include({ email_on: false, off_reason: OFF });
      const rejection = choices.body.templates.find((t: any) => t.purpose === 'rejection');
      const one = await call(`/api/hr/applications/${appId}/emails/`, { method: 'POST', body: { template_id: rejection.id } });
      expect(one.status).to.equal(409);
      expect(one.body).to.deep.equal({ detail: OFF });
      const bulk = await call('/api/hr/applications/emails/bulk/', {
        method: 'POST',
        body: { ids: [appId], template_id: rejection.id, outcome: 'REJECTED', reason: 'Not a fit' },
      });
      expect(bulk.status).to.equal(409);
      expect(bulk.body).to.deep.equal({ detail: OFF });
      expect(Number((await s.ctx.db('email_posts').count({ n: '*' }))[0].n)).to.equal(0);
      expect((await s.ctx.db('applications').where({ id: appId }).first()).outcome).to.equal(null);
      expect(
        (await call(`/api/hr/applications/${appId}/emails/preview/`, { method: 'POST', body: { template_id: rejection.id } })).status,
      ).to.equal(200);
      const put = await call(`/api/hr/email-templates/${rejection.id}/`, {
        method: 'PUT',
        body: { name: 'Rejection', subject: 'Update on {job_title}', body: rejection.body },
      });
      expect(put.status).to.equal(200);
      const page = await fetch(`${s.baseUrl}/hr/settings/email-templates`, { headers: { Cookie: `jwt=${token}` } });
      expect(await page.text()).to.include(`${OFF} Templates can still be edited.`);
    });
  });
}
