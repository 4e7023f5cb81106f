/**
 * Access by role (issue 31) over real HTTP: every /api/hr route and /hr page of the app (found by
 * walking its router stack, so a route added without an entry here fails) × role (admin,
 * recruiter, hiring manager, interviewer) × own job / other job → the expected answer. One server;
 * each route's requests run in parallel (a route's mutations by admins after the others').
 *
 * Expected answers: `ok` (got past access: any status but 401, 403, 404 and 5xx; a 400 for an
 * empty body is past it), `ok?` (404 accepted too: the route's object is not made here), 403, and
 * `own` (own job or application: `ok`; the other job's: 404, never 403, so ids are not probed),
 * `own?` (the same, a 404 accepted on the own side), `own403` (403 on the own side: a rule of the route's feature).
 */
import { expect } from 'chai';
import type { Knex } from 'knex';
import { createApp } from '../../src/app.js';
import { databaseKinds } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { createHrUser, liveToken } from '../helpers/hr.js';
import { insertApplications } from '../helpers/applications.js';
import { registeredRoutes } from '../helpers/routes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { toDbDate } from '../../src/db/codecs.js';

type Want = 'ok' | 'ok?' | 403 | 'own' | 'own?' | 'own403';
/** admin, recruiter, hiring manager, interviewer. */
type Row = [Want, Want, Want, Want];

const ALL: Row = ['ok', 'ok', 'ok', 'ok'];
const NOT_SCOPED: Row = ['ok', 'ok', 403, 403]; // recruiters' areas: no hiring manager, no interviewer
const LOOSE: Row = ['ok?', 'ok?', 403, 403]; // the same, on objects not made here
const ADMIN: Row = ['ok?', 403, 403, 403];
const JOB_HM: Row = ['ok', 'ok', 'own', 403]; // a job's data: its hiring manager, not its interviewers
const APP_HM: Row = ['ok', 'ok', 'own', 403]; // an application's: the same
const APP_BOTH: Row = ['ok', 'ok', 'own', 'own']; // what an interviewer sees of an application they are asked to interview
const LISTED: Row = ['ok', 'ok', 'ok', 403]; // lists filtered to a hiring manager's jobs

const EXPECTED: Record<string, Row> = {
  'POST /api/hr/session/renew/': ALL,
  'GET /api/hr/users/': ADMIN,
  'POST /api/hr/users/': ADMIN,
  'GET /api/hr/users/:id/': ADMIN,
  'PATCH /api/hr/users/:id/': ADMIN,
  'POST /api/hr/users/:id/password/': ADMIN,
  'POST /api/hr/users/:id/sign-in-link/': ADMIN,
  'GET /hr/users': ADMIN,
  'GET /api/hr/jobs/': LISTED,
  'GET /api/hr/jobs/departments/': LISTED,
  'POST /api/hr/jobs/': NOT_SCOPED,
  'GET /api/hr/jobs/:id/': JOB_HM,
  'PUT /api/hr/jobs/:id/': JOB_HM,
  'GET /api/hr/jobs/:id/team/': JOB_HM,
  'PUT /api/hr/jobs/:id/team/': JOB_HM,
  'GET /hr': ALL,
  'GET /hr/jobs': LISTED,
  'GET /hr/jobs/list': LISTED,
  'GET /hr/jobs/new': NOT_SCOPED,
  'GET /hr/jobs/:id/edit': JOB_HM,
  'GET /api/hr/email-templates/': ADMIN,
  'POST /api/hr/email-templates/': ADMIN,
  'GET /api/hr/email-templates/:id/': ADMIN,
  'PUT /api/hr/email-templates/:id/': ADMIN,
  'DELETE /api/hr/email-templates/:id/': ADMIN,
  'GET /api/hr/applications/emails/': LISTED,
  'POST /api/hr/applications/emails/bulk/': APP_HM,
  'POST /api/hr/applications/emails/bulk/preview/': APP_HM,
  'POST /api/hr/applications/:id/emails/preview/': APP_HM,
  'GET /api/hr/applications/:id/emails/scheduled/': APP_HM,
  'POST /api/hr/emails/:id/cancel/': ['ok', 403, 'own', 403], // its sender (the hiring manager here) or an admin
  'POST /api/hr/applications/:id/emails/': APP_HM,
  'GET /hr/settings/email-templates': ADMIN,
  'GET /api/hr/dashboard/': LISTED,
  'GET /api/hr/dashboard/interviews/': ALL, // other roles see their own interviews only
  'GET /api/hr/jobs/:id/analytics/': JOB_HM,
  'GET /api/hr/jobs/:id/export-basic/': JOB_HM,
  'GET /api/hr/applications/': ALL,
  'GET /api/hr/applications/export/': LISTED,
  'GET /api/hr/applications/:id/': APP_BOTH,
  // The seeded resumes have no file in storage: a 404 past access too.
  'GET /api/hr/applications/:id/resume/': ['ok?', 'ok?', 'own?', 'own?'],
  'GET /api/hr/applications/:id/resume/preview/': ['ok?', 'ok?', 'own?', 'own?'],
  'GET /hr/dashboard': ALL,
  'GET /hr/jobs/:id/insights': JOB_HM,
  'GET /hr/applicants': ALL,
  'GET /hr/applicants/duplicates': NOT_SCOPED,
  'GET /hr/applicants/erasure-requests': NOT_SCOPED,
  'GET /hr/settings/status-texts': ADMIN,
  'GET /hr/settings/import': ADMIN,
  'GET /hr/pools': NOT_SCOPED,
  'GET /hr/applicants/:id': APP_BOTH,
  'POST /api/hr/applications/bulk-status/': APP_HM,
  'PATCH /api/hr/applications/:id/': APP_HM,
  'GET /api/hr/jobs/:id/stages/': JOB_HM,
  'PUT /api/hr/jobs/:id/stages/': JOB_HM,
  'GET /api/hr/jobs/:id/board/': JOB_HM,
  'GET /api/hr/rejection-reasons/': LISTED,
  'PUT /api/hr/rejection-reasons/': NOT_SCOPED,
  'GET /hr/jobs/:id/board': JOB_HM,
  'GET /api/hr/applications/:id/notes/': APP_HM,
  'POST /api/hr/applications/:id/notes/': APP_HM,
  // Only a note's author (an admin here) changes it: past access, the hiring manager meets that rule.
  'PATCH /api/hr/applications/:id/notes/:noteId/': ['ok', 403, 'own403', 403],
  'DELETE /api/hr/applications/:id/notes/:noteId/': ['ok', 403, 'own403', 403],
  'GET /api/hr/applications/:id/timeline/': APP_HM,
  'GET /api/hr/application-posts/': NOT_SCOPED,
  'GET /api/hr/application-posts/export/': NOT_SCOPED,
  'GET /api/hr/application-posts/:id/attempts/': LOOSE,
  'POST /api/hr/application-posts/:id/retry/': LOOSE,
  'GET /hr/posts': NOT_SCOPED,
  'GET /api/hr/forms/': NOT_SCOPED,
  'POST /api/hr/forms/': NOT_SCOPED,
  'GET /api/hr/forms/:id/': LOOSE,
  'PUT /api/hr/forms/:id/': LOOSE,
  'PATCH /api/hr/forms/:id/': LOOSE,
  'DELETE /api/hr/forms/:id/': LOOSE,
  'GET /api/hr/forms/:id/entries/': LOOSE,
  'GET /api/hr/forms/:id/entries/export/': LOOSE,
  'GET /api/hr/forms/:id/entries/:entryId/': LOOSE,
  'GET /api/hr/forms/:id/entries/:entryId/files/:fileId/download/': LOOSE,
  'GET /api/hr/forms/:id/posts/': LOOSE,
  'GET /api/hr/forms/:id/posts/export/': LOOSE,
  'GET /hr/forms': NOT_SCOPED,
  'GET /hr/forms/new': NOT_SCOPED,
  'GET /hr/forms/:id/edit': LOOSE,
  'GET /hr/forms/:id/entries': LOOSE,
  'GET /hr/forms/:id/entries/:entryId': LOOSE,
  'GET /hr/forms/:id/posts': LOOSE,
  'GET /api/hr/sources/': NOT_SCOPED,
  'GET /api/hr/sources/links/': NOT_SCOPED,
  'POST /api/hr/sources/links/': NOT_SCOPED,
  'DELETE /api/hr/sources/links/:id/': LOOSE,
  'GET /hr/sources': NOT_SCOPED,
  'GET /api/hr/reports/': NOT_SCOPED,
  'GET /api/hr/reports/export/': NOT_SCOPED,
  'GET /hr/reports': NOT_SCOPED,
  'GET /api/hr/jobs/:id/funnel/': JOB_HM,
  // Issue 34: the checklist and approvals (approval is off here: a 409 past access); the pay rules, kept by admins.
  'GET /api/hr/jobs/:id/checks/': JOB_HM,
  'POST /api/hr/jobs/:id/approve/': JOB_HM,
  'POST /api/hr/jobs/:id/reject/': JOB_HM,
  'GET /api/hr/pay-rules/': LISTED,
  'POST /api/hr/pay-rules/': ADMIN,
  'GET /api/hr/pay-rules/:id/': LISTED,
  'PUT /api/hr/pay-rules/:id/': ADMIN,
  'DELETE /api/hr/pay-rules/:id/': ADMIN,
  'GET /hr/settings/pay-rules': ADMIN,
  'GET /api/hr/settings/site/': ADMIN,
  'PUT /api/hr/settings/site/': ADMIN,
  'POST /api/hr/settings/site/logo/': ADMIN,
  'DELETE /api/hr/settings/site/logo/': ADMIN,
  'GET /hr/settings/site': ADMIN,
  'GET /api/hr/kit-templates/': LISTED,
  'POST /api/hr/kit-templates/': NOT_SCOPED,
  'GET /api/hr/kit-templates/:id/': ['ok?', 'ok?', 'ok?', 403],
  'PUT /api/hr/kit-templates/:id/': LOOSE,
  'DELETE /api/hr/kit-templates/:id/': LOOSE,
  'GET /api/hr/scorecards/overdue/': LISTED,
  'GET /api/hr/jobs/:id/kits/': ['ok', 'ok', 'own', 'own'],
  'PUT /api/hr/jobs/:id/kits/:stageId/': JOB_HM,
  'GET /hr/jobs/:id/kits': JOB_HM,
  'GET /api/hr/applications/:id/scorecards/choices/': APP_BOTH,
  'GET /api/hr/applications/:id/scorecards/': APP_BOTH,
  'POST /api/hr/applications/:id/scorecards/': APP_HM,
  'GET /api/hr/applications/:id/scorecards/:scorecardId/': APP_BOTH,
  // Only a scorecard's author (the interviewer here) changes, submits or amends it.
  'PATCH /api/hr/applications/:id/scorecards/:scorecardId/': [403, 403, 'own403', 'own'],
  'POST /api/hr/applications/:id/scorecards/:scorecardId/submit/': [403, 403, 'own403', 'own'],
  'POST /api/hr/applications/:id/scorecards/:scorecardId/amendments/': [403, 403, 'own403', 'own'],
  // Issue 32: one's own hours and calendars for every role (`:userId` is 1 here, the admin: another's settings are an admin's).
  'GET /api/hr/interviewers/:userId/settings/': ADMIN,
  'PUT /api/hr/interviewers/:userId/settings/': ADMIN,
  'GET /api/hr/interviewers/me/calendars/': ALL,
  'POST /api/hr/interviewers/me/calendars/': ALL,
  'DELETE /api/hr/interviewers/me/calendars/:id/': ['ok?', 'ok?', 'ok?', 'ok?'],
  'GET /api/hr/interviewers/find-time/': LISTED,
  'GET /hr/settings/calendar': ALL,
  'GET /hr/interviews/find-time': LISTED,
  'GET /api/hr/applications/:id/debrief/': APP_BOTH,
  'POST /api/hr/applications/:id/debrief/decisions/': APP_HM,
  // Interviews (issue 32): an interviewer reads those of the applications they see, and changes none.
  'GET /api/hr/applications/:id/interviews/': APP_BOTH,
  'POST /api/hr/applications/:id/interviews/': APP_HM,
  'GET /api/hr/interviews/:id/': APP_BOTH,
  'PATCH /api/hr/interviews/:id/': APP_HM,
  'DELETE /api/hr/interviews/:id/': APP_HM,
  // Issue 35: an application's other applications (filtered by the scope); the review of duplicates is HR's.
  'GET /api/hr/applications/:id/other-applications/': APP_HM,
  'GET /api/hr/people/duplicates/': NOT_SCOPED,
  'POST /api/hr/people/duplicates/dismiss/': NOT_SCOPED,
  'GET /api/hr/people/merges/': NOT_SCOPED,
  'POST /api/hr/people/merges/': NOT_SCOPED,
  'POST /api/hr/people/merges/:id/undo/': LOOSE,
  'GET /api/hr/erasure-requests/': NOT_SCOPED,
  'POST /api/hr/erasure-requests/:id/confirm/': LOOSE,
  'GET /api/hr/settings/status-texts/': NOT_SCOPED,
  'PUT /api/hr/settings/status-texts/': ADMIN,
  'POST /api/hr/imports/candidates/': ADMIN,
  'GET /api/hr/pools/': NOT_SCOPED,
  'POST /api/hr/pools/': NOT_SCOPED,
  'DELETE /api/hr/pools/:id/': LOOSE,
  'GET /api/hr/pools/:id/members/': LOOSE,
  'POST /api/hr/pools/:id/members/': LOOSE,
  'DELETE /api/hr/pools/:id/members/:personId/': LOOSE,
  'GET /api/hr/applications/:id/pools/': NOT_SCOPED,
  'GET /api/hr/jobs/:id/pool-matches/': NOT_SCOPED,
  'POST /api/hr/jobs/:id/pool-matches/:personId/invite/': LOOSE,
  'GET /api/hr/applications/:id/booking-links/': APP_HM,
  'POST /api/hr/applications/:id/booking-links/': APP_HM,
  'DELETE /api/hr/applications/:id/booking-links/:linkId/': APP_HM,
  // Offers (issue 34): admins, recruiters and the job's hiring manager, never interviewers. The offer is a draft: approve,
  // reject and send answer 409 past access; submit moves it on (a 409 for the later callers); PATCH {} changes nothing.
  'GET /api/hr/applications/:id/offers/': APP_HM,
  'POST /api/hr/applications/:id/offers/': APP_HM,
  'GET /api/hr/offers/:id/': APP_HM,
  'PATCH /api/hr/offers/:id/': APP_HM,
  'POST /api/hr/offers/:id/approve/': APP_HM,
  'POST /api/hr/offers/:id/reject/': APP_HM,
  'POST /api/hr/offers/:id/send/': APP_HM,
  'POST /api/hr/offers/:id/submit/': APP_HM,
  'GET /api/hr/offers/:id/pdf/': APP_HM,
  'POST /api/hr/offers/:id/withdraw/': APP_HM,
  'GET /api/hr/offer-templates/': LISTED,
  'POST /api/hr/offer-templates/': ADMIN,
  'GET /api/hr/offer-templates/:id/': LISTED,
  'PUT /api/hr/offer-templates/:id/': ADMIN,
  'DELETE /api/hr/offer-templates/:id/': ADMIN,
  'GET /api/hr/offer-approval-chains/': NOT_SCOPED,
  'GET /api/hr/offer-approval-chains/default/': LISTED,
  'PUT /api/hr/offer-approval-chains/default/': ADMIN,
  'GET /api/hr/jobs/:id/offer-approval-chain/': JOB_HM,
  'PUT /api/hr/jobs/:id/offer-approval-chain/': ADMIN,
  'DELETE /api/hr/jobs/:id/offer-approval-chain/': ADMIN,
  'GET /hr/settings/offers': ADMIN,
};

const ROLES = ['admin', 'recruiter', 'hiring_manager', 'interviewer'] as const;

for (const kind of databaseKinds()) {
  describe(`access matrix [${kind}]`, function () {
    this.timeout(120_000);
    let s: TestServer;
    const token: Record<string, string> = {};
    const ids = { own: {} as Record<string, number>, other: {} as Record<string, number> };
    let hmId = 0;
    let spareId = 0;

    before(async () => {
      s = await startTestServer(kind);
      const db = s.ctx.db;
      const userIds: Record<string, number> = {};
      for (const role of ROLES) {
        userIds[role] = await createHrUser(db, `m.${role}`, { role });
        token[role] = await liveToken(db, userIds[role]);
      }
      hmId = userIds.hiring_manager;
      // The users routes act on a user of their own (a password reset signs that user out).
      spareId = await createHrUser(db, 'm.spare', { role: 'recruiter' });
      const now = new Date();
      for (const side of ['own', 'other'] as const) {
        const job = await makeJob(s.ctx);
        await insertApplications(
          db,
          job.id,
          [{ first_name: 'Ann', last_name: side, email: `${side}@example.com`, phone: '+15550100' }],
          [],
        );
        const app = await db('applications').where({ job_id: job.id }).first('id');
        const noteRes = await fetch(`${s.baseUrl}/api/hr/applications/${app.id}/notes/`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token.admin}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ text: 'A note.' }),
        });
        const noteId = ((await noteRes.json()) as { id: number }).id;
        const [emailId] = await db('email_posts').insert({
          application_id: app.id,
          template: 'hr_email',
          payload: JSON.stringify({ to: 'a@example.com', subject: 's', text: 't' }),
          status: 'PENDING',
          sent_by: hmId,
          send_after: toDbDate(new Date(now.getTime() + 3600_000)),
          created_at: toDbDate(now),
          updated_at: toDbDate(now),
        });
        const stage = await db('job_stages').where({ job_id: job.id }).orderBy('position').first('id');
        ids[side] = { job: job.id, app: Number(app.id), note: Number(noteId), email: Number(emailId), stage: Number(stage.id) };
        ids[side].interview = await addInterview(db, ids[side].app, side);
        ids[side].link = await addBookingLink(db, ids[side].app, side);
        ids[side].offer = await addOffer(db, ids[side].app, job.id);
      }
      await db('job_team_members').insert({ job_id: ids.own.job, user_id: hmId, role: 'hiring_manager', created_at: toDbDate(now) });
      // The interviewer is asked about the own application; someone else about the other one.
      ids.own.scorecard = await askToInterview(db, ids.own.app, userIds.interviewer);
      ids.other.scorecard = await askToInterview(db, ids.other.app, spareId);
    });
    after(() => s.close());

    /** The route's path for one side: jobs, applications, notes and emails by the side's ids; other ids are 1 (or the spare user's). */
    const pathFor = (pattern: string, side: 'own' | 'other') => {
      const id = ids[side];
      return pattern
        .replace(/^(\/api\/hr\/jobs|\/hr\/jobs)\/:id/, `$1/${id.job}`)
        .replace(/^(\/api\/hr\/applications|\/hr\/applicants)\/:id/, `$1/${id.app}`)
        .replace(':noteId', String(id.note))
        .replace(':scorecardId', String(id.scorecard))
        .replace(':linkId', String(id.link))
        .replace(':stageId', String(id.stage))
        .replace(/^\/api\/hr\/emails\/:id/, `/api/hr/emails/${id.email}`)
        .replace(/^\/api\/hr\/interviews\/:id/, `/api/hr/interviews/${id.interview}`)
        .replace(/^\/api\/hr\/offers\/:id/, `/api/hr/offers/${id.offer}`)
        .replace(/^\/api\/hr\/users\/:id/, `/api/hr/users/${spareId}`)
        .replace(/:\w+/g, '1');
    };
    const bodyFor = (pattern: string, side: 'own' | 'other') =>
      pattern.endsWith('/bulk-status/') || pattern.includes('/emails/bulk/')
        ? { ids: [ids[side].app] }
        : pattern.endsWith('/:noteId/')
          ? { text: 'Changed.' }
          : pattern.endsWith('/amendments/')
            ? { note: 'An amendment.' }
            : {};

    const send = async (method: string, pattern: string, role: string, side: 'own' | 'other'): Promise<number> => {
      const page = !pattern.startsWith('/api/');
      const headers: Record<string, string> = page ? { Cookie: `jwt=${token[role]}` } : { Authorization: `Bearer ${token[role]}` };
      const mutation = method !== 'GET';
      if (mutation) headers['Content-Type'] = 'application/json';
      const res = await fetch(s.baseUrl + pathFor(pattern, side), {
        method,
        headers,
        redirect: 'manual',
        body: mutation ? JSON.stringify(bodyFor(pattern, side)) : undefined,
      });
      await res.arrayBuffer();
      return res.status;
    };

    const meets = (status: number, want: Want, side: 'own' | 'other'): boolean => {
      const passed = (accept404: boolean) => status !== 401 && status !== 403 && status < 500 && (accept404 || status !== 404);
      if (want === 403) return status === 403;
      if (want === 'ok') return passed(false);
      if (want === 'ok?') return passed(true);
      if (want === 'own') return side === 'own' ? passed(false) : status === 404;
      if (want === 'own?') return side === 'own' ? passed(true) : status === 404;
      return side === 'own' ? status === 403 : status === 404; // own403
    };

    it('has an expected answer for every HR route and page, and no entry without a route', () => {
      const routes = registeredRoutes(createApp(s.ctx));
      const found = routes
        .filter((r) => r.pattern.startsWith('/api/hr') || r.pattern === '/hr' || r.pattern.startsWith('/hr/'))
        .map((r) => `${r.method} ${r.pattern}`);
      expect(
        found.filter((k) => !(k in EXPECTED)),
        'routes without an expected answer',
      ).to.deep.equal([]);
      expect(
        Object.keys(EXPECTED).filter((k) => !found.includes(k)),
        'entries without a route',
      ).to.deep.equal([]);
    });

    it('answers every route as expected for each role on its own job and on another', async () => {
      const failures: string[] = [];
      // Routes that delete last, and on each route the admin's request after the others' (it may change what they see).
      const keys = Object.keys(EXPECTED).sort((a, b) => Number(a.startsWith('DELETE')) - Number(b.startsWith('DELETE')));
      for (const key of keys) {
        const [method, pattern] = key.split(' ');
        const row = EXPECTED[key];
        const check = async (i: number, side: 'own' | 'other') => {
          const status = await send(method, pattern, ROLES[i], side);
          if (!meets(status, row[i], side)) failures.push(`${key} as ${ROLES[i]} on ${side} job: ${status}, expected ${row[i]}`);
        };
        const others = [1, 2, 3].flatMap((i) => (['own', 'other'] as const).map((side) => check(i, side)));
        await Promise.all(others);
        await check(0, 'own');
        await check(0, 'other');
      }
      expect(failures.join('\n')).to.equal('');
    });

    it("lists only the hiring manager's job and the interviewer's application", async () => {
      const get = async (role: string, path: string) =>
        (await fetch(s.baseUrl + path, { headers: { Authorization: `Bearer ${token[role]}` } }).then((r) => r.json())) as any;
      expect((await get('hiring_manager', '/api/hr/jobs/')).results.map((j: any) => j.id)).to.deep.equal([ids.own.job]);
      expect((await get('recruiter', '/api/hr/jobs/')).results.map((j: any) => j.id)).to.have.members([ids.own.job, ids.other.job]);
      expect((await get('hiring_manager', '/api/hr/applications/')).results.map((a: any) => a.id)).to.deep.equal([ids.own.app]);
      expect((await get('interviewer', '/api/hr/applications/')).results.map((a: any) => a.id)).to.deep.equal([ids.own.app]);
      // Overdue scorecards (asked two days ago, not submitted): the hiring manager sees their job's only.
      await s.ctx
        .db('scorecards')
        .whereIn('id', [ids.own.scorecard, ids.other.scorecard])
        .update({ requested_at: toDbDate(new Date(Date.now() - 2 * 86_400_000)) });
      expect((await get('hiring_manager', '/api/hr/scorecards/overdue/')).results.map((r: any) => r.id)).to.deep.equal([ids.own.scorecard]);
      expect((await get('recruiter', '/api/hr/scorecards/overdue/')).results.map((r: any) => r.id)).to.have.members([
        ids.own.scorecard,
        ids.other.scorecard,
      ]);
      const dash = await get('hiring_manager', '/api/hr/dashboard/');
      expect(dash.job_stats.map((j: any) => j.id)).to.deep.equal([ids.own.job]);
      expect(dash.total_applicants).to.equal(1);
      const denied = await fetch(s.baseUrl + '/api/hr/forms/', { headers: { Authorization: `Bearer ${token.hiring_manager}` } });
      expect(denied.status).to.equal(403);
      expect(((await denied.json()) as any).detail).to.match(/hiring manager works only on the jobs and applications given to them/);
    });

    it('shows an interviewer the application without salary answers; others see them', async () => {
      const job = await makeJob(s.ctx, {
        questions: [
          { text: 'Why this team?', answer_type: 'short_text' },
          { text: '<p>What are your <strong>salary</strong> expectations?</p>', answer_type: 'short_text' },
          { text: 'Expected compensation per year', answer_type: 'number' },
        ],
      });
      const [why, salary, comp] = job.questions;
      await insertApplications(
        s.ctx.db,
        job.id,
        [
          {
            first_name: 'Sal',
            last_name: 'Ary',
            email: 'sal@example.com',
            phone: '+15550103',
            answers: { [why.id]: 'People', [salary.id]: '90k', [comp.id]: 95000 },
          },
        ],
        job.questions,
      );
      const app = await s.ctx.db('applications').where({ job_id: job.id }).first('id');
      const interviewerId = (await s.ctx.db('hr_users').where({ username: 'm.interviewer' }).first('id')).id;
      await askToInterview(s.ctx.db, Number(app.id), Number(interviewerId));
      const answers = async (role: string) => {
        const res = await fetch(`${s.baseUrl}/api/hr/applications/${app.id}/`, { headers: { Authorization: `Bearer ${token[role]}` } });
        expect(res.status, role).to.equal(200);
        return ((await res.json()) as any).answers.map((a: any) => a.answer);
      };
      expect(await answers('interviewer')).to.deep.equal(['People']);
      expect(await answers('recruiter')).to.have.members(['People', '90k', 95000]);
      // The page: no salary answer, no notes, no email, no status form.
      const page = await fetch(`${s.baseUrl}/hr/applicants/${app.id}`, { headers: { Cookie: `jwt=${token.interviewer}` } }).then((r) =>
        r.text(),
      );
      expect(page).to.contain('People');
      expect(page).to.contain('<p>Build things.</p>'); // the job's description
      expect(page).not.to.contain('90k');
      expect(page).not.to.contain('data-status-form');
      expect(page).not.to.contain('applicant-email');
      expect(page).not.to.contain('applicant-notes');
    });
  });
}

/** A draft offer on the application (the offers feature's row). */
async function addOffer(db: Knex, applicationId: number, jobId: number): Promise<number> {
  const now = toDbDate(new Date());
  const day = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
  const [id] = await db('offers').insert({
    application_id: applicationId,
    job_id: jobId,
    status: 'draft',
    version: 1,
    base_pay: 100000,
    salary_period: 'YEAR',
    currency: 'USD',
    start_date: day,
    expires_on: day,
    letter: '<p>Dear {first_name}, welcome.</p>',
    created_at: now,
    updated_at: now,
  });
  return Number(id);
}

/** An interviewer asked to interview the application at its job's first stage: a scorecard request (the scorecards feature's row, a draft). */
async function askToInterview(db: Knex, applicationId: number, userId: number): Promise<number> {
  const app = await db('applications').where({ id: applicationId }).first('job_id');
  const stage = await db('job_stages').where({ job_id: app.job_id }).orderBy('position').first('id', 'name');
  const now = toDbDate(new Date());
  const [id] = await db('scorecards').insert({
    application_id: applicationId,
    stage_id: stage.id,
    stage_name: stage.name,
    interviewer_user_id: userId,
    interviewer_name: 'm.interviewer',
    requested_at: now,
    ratings: '{}',
    updated_at: now,
  });
  return Number(id);
}

/** An interview of the application (issue 32), written as the interviews feature stores one. */
async function addInterview(db: Knex, applicationId: number, side: string): Promise<number> {
  const now = new Date();
  const [id] = await db('interviews').insert({
    application_id: applicationId,
    stage_name: 'Interview',
    type: 'phone',
    starts_at: toDbDate(new Date(now.getTime() + 86_400_000)),
    ends_at: toDbDate(new Date(now.getTime() + 90_000_000)),
    time_zone: 'UTC',
    uid: `matrix-${side}@example.com`,
    created_at: toDbDate(now),
    updated_at: toDbDate(now),
  });
  return Number(id);
}

/** A booking link of the application (issue 32), written as the interviews feature stores one. */
async function addBookingLink(db: Knex, applicationId: number, side: string): Promise<number> {
  const now = new Date();
  const [id] = await db('booking_links').insert({
    application_id: applicationId,
    token_hash: `matrix-${side}`.padEnd(64, '0'),
    details: JSON.stringify({ type: 'phone', time_zone: 'UTC', interviewers: [], location: null, video_url: null, candidate_notes: null }),
    duration_minutes: 30,
    cutoff_minutes: 0,
    expires_at: toDbDate(new Date(now.getTime() + 86_400_000)),
    created_at: toDbDate(now),
  });
  return Number(id);
}
