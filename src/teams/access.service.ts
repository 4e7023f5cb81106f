/**
 * Access by role (issue 31): the one module every HR route asks, through the gate in api.ts, before
 * it serves a job or an application, and whose scope the lists, dashboard and exports filter by.
 *
 * - admin: everything.
 * - recruiter: everything but the admin areas (users, settings), which `requireAdmin` keeps.
 * - hiring_manager: the jobs whose hiring team they are on (job_team_members): those jobs, their
 *   applicants, board, stages, notes, timeline, emails, insights, funnel and exports; lists and the
 *   dashboard show only those jobs. No new jobs, no settings, reasons, webhooks (application posts),
 *   forms or tracking links (403); a job or application outside their jobs answers 404.
 * - interviewer: the applications they are asked to interview (a scorecard request,
 *   interviews.queries.ts): the application (without salary answers), its resume, the job's
 *   description (on the applicant page), the job's kits, their scorecards and the debrief (both
 *   blinded by the scorecards feature until their own is submitted); no notes, timeline, emails,
 *   board, stages, exports or other applications.
 *
 * The rules are one table, `ROUTE_RULES`, keyed by method and route pattern; a route not in it is
 * refused to the two scoped roles (deny by default), and the access matrix test walks the app's
 * router stack so that a new route must be given a rule and an expected answer.
 */
import type { Db } from '../db/knex.js';
import { Forbidden, NotFound } from '../http/errors.js';
import { isRowId } from '../shared/input-rules.js';
import { FULL_ACCESS, type AccessScope } from '../shared/access-scope.js';
import type { UserRole } from '../users/types.js';
import {
  applicationOfEmail,
  applicationOfInterview,
  applicationOfOffer,
  jobIdsOfMember,
  jobOfApplication,
  jobsOfApplications,
} from './queries.js';
import { applicationsToInterview } from './interviews.queries.js';

const ACCESS_MESSAGES = {
  api: (role: string) =>
    `You do not have permission to perform this action: a ${role} works only on the jobs and applications given to them.`,
  page: 'This page is not open to your role. Ask an admin or a recruiter of your team if you need it.',
  job: 'Job not found.',
  application: 'Application not found.',
} as const;

/** Who asks: the session's user and role. */
export interface Asker {
  userId: number;
  role: UserRole;
}

/** What the asker may see, worked out once per request. */
async function accessScope(db: Db, asker: Asker): Promise<AccessScope> {
  if (asker.role === 'admin' || asker.role === 'recruiter') return FULL_ACCESS;
  if (asker.role === 'hiring_manager') return { jobIds: await jobIdsOfMember(db, asker.userId), applicationIds: null };
  const asked = await applicationsToInterview(db, asker.userId);
  const jobs = await jobsOfApplications(db, asked);
  return { jobIds: [...new Set(jobs.values())], applicationIds: [...jobs.keys()] };
}

/** Whether the scope takes in the job. */
function seesJob(scope: AccessScope, jobId: number): boolean {
  return scope.jobIds === null || scope.jobIds.includes(jobId);
}

/** Whether the scope takes in the application of that job. */
function seesApplication(scope: AccessScope, applicationId: number, jobId: number): boolean {
  return seesJob(scope, jobId) && (scope.applicationIds === null || scope.applicationIds.includes(applicationId));
}

/** 404 unless the scope takes in the job (an id outside it is answered like an unknown one). */
function assertJob(scope: AccessScope, jobId: number): void {
  if (!seesJob(scope, jobId)) throw new NotFound(ACCESS_MESSAGES.job);
}

/** 404 unless the application exists and the scope takes it in. */
async function assertApplication(db: Db, scope: AccessScope, applicationId: number): Promise<void> {
  if (scope.jobIds === null && scope.applicationIds === null) return;
  const jobId = await jobOfApplication(db, applicationId);
  if (jobId === null || !seesApplication(scope, applicationId, jobId)) throw new NotFound(ACCESS_MESSAGES.application);
}

/**
 * What a scoped role may do on a route:
 * - `all`: the route serves only what the scope lets through (a filtered list) or nothing job-bound;
 * - `job`: the route's `:id` is a job, which must be in scope;
 * - `application`: the route's `:id` is an application, which must be in scope;
 * - `applications`: the body's `ids` (or `application_ids`) are applications, each in scope;
 * - `email`: the route's `:id` is an email, whose application must be in scope;
 * - `interview`: the route's `:id` is an interview, whose application must be in scope;
 * - `offer`: the route's `:id` is an offer, whose application must be in scope;
 * - `no`: refused (403).
 */
type Rule = 'all' | 'job' | 'application' | 'applications' | 'email' | 'interview' | 'offer' | 'no';

interface RouteRule {
  method: string;
  pattern: string;
  hiring_manager: Rule;
  interviewer: Rule;
}

const r = (method: string, pattern: string, hiring_manager: Rule, interviewer: Rule): RouteRule => ({
  method,
  pattern,
  hiring_manager,
  interviewer,
});

/** Every HR route and page, and what the two scoped roles may do there (admins and recruiters: unchanged). */
const ROUTE_RULES: readonly RouteRule[] = [
  r('POST', '/api/hr/session/renew/', 'all', 'all'),
  // Jobs
  r('GET', '/api/hr/jobs/', 'all', 'no'),
  r('GET', '/api/hr/jobs/departments/', 'all', 'no'),
  r('POST', '/api/hr/jobs/', 'no', 'no'),
  // An interviewer reads the job's description on the applicant page, not the job's HR settings.
  r('GET', '/api/hr/jobs/:id/', 'job', 'no'),
  r('PUT', '/api/hr/jobs/:id/', 'job', 'no'),
  r('GET', '/api/hr/jobs/:id/team/', 'job', 'no'),
  r('PUT', '/api/hr/jobs/:id/team/', 'job', 'no'),
  r('GET', '/api/hr/jobs/:id/analytics/', 'job', 'no'),
  r('GET', '/api/hr/jobs/:id/export-basic/', 'job', 'no'),
  r('GET', '/api/hr/jobs/:id/stages/', 'job', 'no'),
  r('PUT', '/api/hr/jobs/:id/stages/', 'job', 'no'),
  r('GET', '/api/hr/jobs/:id/board/', 'job', 'no'),
  r('GET', '/api/hr/jobs/:id/funnel/', 'job', 'no'),
  // Issue 34: a job's publishing checklist, and the decision on its approval (its hiring manager decides; the service checks they are it).
  r('GET', '/api/hr/jobs/:id/checks/', 'job', 'no'),
  r('POST', '/api/hr/jobs/:id/approve/', 'job', 'no'),
  r('POST', '/api/hr/jobs/:id/reject/', 'job', 'no'),
  // The pay rules: read by whoever edits jobs; kept by admins (requireAdmin on the writes).
  r('GET', '/api/hr/pay-rules/', 'all', 'no'),
  r('GET', '/api/hr/pay-rules/:id/', 'all', 'no'),
  r('POST', '/api/hr/pay-rules/', 'no', 'no'),
  r('PUT', '/api/hr/pay-rules/:id/', 'no', 'no'),
  r('DELETE', '/api/hr/pay-rules/:id/', 'no', 'no'),
  // Issue 35: the site's branding, admins only (requireAdmin on ADMIN_API_PATHS keeps recruiters out too).
  r('GET', '/api/hr/settings/site/', 'no', 'no'),
  r('PUT', '/api/hr/settings/site/', 'no', 'no'),
  r('POST', '/api/hr/settings/site/logo/', 'no', 'no'),
  r('DELETE', '/api/hr/settings/site/logo/', 'no', 'no'),
  // Applications
  r('GET', '/api/hr/dashboard/', 'all', 'no'),
  // Issue 32: today's interviews; other roles than admins and recruiters see only their own (the service filters).
  r('GET', '/api/hr/dashboard/interviews/', 'all', 'all'),
  r('GET', '/api/hr/applications/', 'all', 'all'),
  r('GET', '/api/hr/applications/export/', 'all', 'no'),
  r('GET', '/api/hr/applications/:id/', 'application', 'application'),
  r('PATCH', '/api/hr/applications/:id/', 'application', 'no'),
  r('GET', '/api/hr/applications/:id/resume/', 'application', 'application'),
  r('GET', '/api/hr/applications/:id/resume/preview/', 'application', 'application'),
  r('GET', '/api/hr/applications/:id/notes/', 'application', 'no'),
  r('POST', '/api/hr/applications/:id/notes/', 'application', 'no'),
  r('PATCH', '/api/hr/applications/:id/notes/:noteId/', 'application', 'no'),
  r('DELETE', '/api/hr/applications/:id/notes/:noteId/', 'application', 'no'),
  r('GET', '/api/hr/applications/:id/timeline/', 'application', 'no'),
  r('POST', '/api/hr/applications/bulk-status/', 'applications', 'no'),
  r('GET', '/api/hr/rejection-reasons/', 'all', 'no'),
  r('PUT', '/api/hr/rejection-reasons/', 'no', 'no'),
  // Emails
  r('GET', '/api/hr/applications/emails/', 'all', 'no'),
  r('POST', '/api/hr/applications/emails/bulk/', 'applications', 'no'),
  r('POST', '/api/hr/applications/emails/bulk/preview/', 'applications', 'no'),
  r('POST', '/api/hr/applications/:id/emails/preview/', 'application', 'no'),
  r('GET', '/api/hr/applications/:id/emails/scheduled/', 'application', 'no'),
  r('POST', '/api/hr/applications/:id/emails/', 'application', 'no'),
  r('POST', '/api/hr/emails/:id/cancel/', 'email', 'no'),
  // Interview kits and scorecards (the scorecards feature blinds others' scorecards and the debrief until one's own is submitted)
  r('GET', '/api/hr/kit-templates/', 'all', 'no'),
  r('POST', '/api/hr/kit-templates/', 'no', 'no'),
  r('GET', '/api/hr/kit-templates/:id/', 'all', 'no'),
  r('PUT', '/api/hr/kit-templates/:id/', 'no', 'no'),
  r('DELETE', '/api/hr/kit-templates/:id/', 'no', 'no'),
  // Overdue scorecards: of a hiring manager's jobs only (the dashboard's list filters by the scope).
  r('GET', '/api/hr/scorecards/overdue/', 'all', 'no'),
  r('GET', '/api/hr/jobs/:id/kits/', 'job', 'job'),
  r('PUT', '/api/hr/jobs/:id/kits/:stageId/', 'job', 'no'),
  r('GET', '/api/hr/applications/:id/scorecards/choices/', 'application', 'application'),
  r('GET', '/api/hr/applications/:id/scorecards/', 'application', 'application'),
  r('POST', '/api/hr/applications/:id/scorecards/', 'application', 'no'),
  r('GET', '/api/hr/applications/:id/scorecards/:scorecardId/', 'application', 'application'),
  r('PATCH', '/api/hr/applications/:id/scorecards/:scorecardId/', 'application', 'application'),
  r('POST', '/api/hr/applications/:id/scorecards/:scorecardId/submit/', 'application', 'application'),
  r('POST', '/api/hr/applications/:id/scorecards/:scorecardId/amendments/', 'application', 'application'),
  r('GET', '/api/hr/applications/:id/debrief/', 'application', 'application'),
  r('POST', '/api/hr/applications/:id/debrief/decisions/', 'application', 'no'),
  // Interviews (issue 32): an interviewer reads those of the applications they see, and changes none.
  r('GET', '/api/hr/applications/:id/interviews/', 'application', 'application'),
  r('POST', '/api/hr/applications/:id/interviews/', 'application', 'no'),
  r('GET', '/api/hr/interviews/:id/', 'interview', 'interview'),
  r('PATCH', '/api/hr/interviews/:id/', 'interview', 'no'),
  r('DELETE', '/api/hr/interviews/:id/', 'interview', 'no'),
  // Booking links: who schedules an application's interviews sends them; an interviewer does not.
  r('GET', '/api/hr/applications/:id/booking-links/', 'application', 'no'),
  r('POST', '/api/hr/applications/:id/booking-links/', 'application', 'no'),
  r('DELETE', '/api/hr/applications/:id/booking-links/:linkId/', 'application', 'no'),
  // Interviewer availability (issue 32): everyone keeps their own hours and calendars; another's are an admin's (the feature's rule).
  r('GET', '/api/hr/interviewers/me/settings/', 'all', 'all'),
  r('PUT', '/api/hr/interviewers/me/settings/', 'all', 'all'),
  r('GET', '/api/hr/interviewers/:userId/settings/', 'no', 'no'),
  r('PUT', '/api/hr/interviewers/:userId/settings/', 'no', 'no'),
  r('GET', '/api/hr/interviewers/me/calendars/', 'all', 'all'),
  r('POST', '/api/hr/interviewers/me/calendars/', 'all', 'all'),
  r('DELETE', '/api/hr/interviewers/me/calendars/:id/', 'all', 'all'),
  // Finding a time shows when the chosen colleagues are free: those who plan interviews.
  r('GET', '/api/hr/interviewers/find-time/', 'all', 'no'),
  // Issue 35: one person across jobs. An application's other applications (the scope filters them); the review of duplicates is HR's.
  r('GET', '/api/hr/applications/:id/other-applications/', 'application', 'no'),
  r('GET', '/api/hr/people/duplicates/', 'no', 'no'),
  r('POST', '/api/hr/people/duplicates/dismiss/', 'no', 'no'),
  r('GET', '/api/hr/people/merges/', 'no', 'no'),
  r('POST', '/api/hr/people/merges/', 'no', 'no'),
  r('POST', '/api/hr/people/merges/:id/undo/', 'no', 'no'),
  // Issue 35: candidates' erasure requests and the status texts are HR's (admins and recruiters; admins write the texts).
  r('GET', '/api/hr/erasure-requests/', 'no', 'no'),
  r('POST', '/api/hr/erasure-requests/:id/confirm/', 'no', 'no'),
  r('GET', '/api/hr/settings/status-texts/', 'no', 'no'),
  r('PUT', '/api/hr/settings/status-texts/', 'no', 'no'),
  // Issue 35: talent pools are recruiters' (and admins').
  r('GET', '/api/hr/pools/', 'no', 'no'),
  r('POST', '/api/hr/pools/', 'no', 'no'),
  r('DELETE', '/api/hr/pools/:id/', 'no', 'no'),
  r('GET', '/api/hr/pools/:id/members/', 'no', 'no'),
  r('POST', '/api/hr/pools/:id/members/', 'no', 'no'),
  r('DELETE', '/api/hr/pools/:id/members/:personId/', 'no', 'no'),
  r('GET', '/api/hr/applications/:id/pools/', 'no', 'no'),
  r('GET', '/api/hr/jobs/:id/pool-matches/', 'no', 'no'),
  r('POST', '/api/hr/jobs/:id/pool-matches/:personId/invite/', 'no', 'no'),
  // Issue 35: importing candidates is an admin's.
  r('POST', '/api/hr/imports/candidates/', 'no', 'no'),
  // Offers (issue 34): admins, recruiters and the job's hiring manager; interviewers never see them.
  // Templates and the default chain are read by whoever makes offers and kept by admins (requireAdmin on the writes).
  r('GET', '/api/hr/applications/:id/offers/', 'application', 'no'),
  r('POST', '/api/hr/applications/:id/offers/', 'application', 'no'),
  r('GET', '/api/hr/offers/:id/', 'offer', 'no'),
  r('PATCH', '/api/hr/offers/:id/', 'offer', 'no'),
  r('POST', '/api/hr/offers/:id/submit/', 'offer', 'no'),
  r('POST', '/api/hr/offers/:id/approve/', 'offer', 'no'),
  r('POST', '/api/hr/offers/:id/reject/', 'offer', 'no'),
  r('POST', '/api/hr/offers/:id/send/', 'offer', 'no'),
  r('POST', '/api/hr/offers/:id/withdraw/', 'offer', 'no'),
  r('GET', '/api/hr/offers/:id/pdf/', 'offer', 'no'),
  r('GET', '/api/hr/offer-templates/', 'all', 'no'),
  r('POST', '/api/hr/offer-templates/', 'no', 'no'),
  r('GET', '/api/hr/offer-templates/:id/', 'all', 'no'),
  r('PUT', '/api/hr/offer-templates/:id/', 'no', 'no'),
  r('DELETE', '/api/hr/offer-templates/:id/', 'no', 'no'),
  r('GET', '/api/hr/offer-approval-chains/', 'no', 'no'),
  r('GET', '/api/hr/offer-approval-chains/default/', 'all', 'no'),
  r('PUT', '/api/hr/offer-approval-chains/default/', 'no', 'no'),
  r('GET', '/api/hr/jobs/:id/offer-approval-chain/', 'job', 'no'),
  r('PUT', '/api/hr/jobs/:id/offer-approval-chain/', 'no', 'no'),
  r('DELETE', '/api/hr/jobs/:id/offer-approval-chain/', 'no', 'no'),
  r('GET', '/hr/settings/offers', 'no', 'no'),
  // Pages
  r('GET', '/hr', 'all', 'all'),
  r('GET', '/hr/settings/calendar', 'all', 'all'),
  r('GET', '/hr/interviews/find-time', 'all', 'no'),
  r('GET', '/hr/jobs', 'all', 'no'),
  r('GET', '/hr/jobs/list', 'all', 'no'),
  r('GET', '/hr/jobs/new', 'no', 'no'),
  r('GET', '/hr/jobs/:id/edit', 'job', 'no'),
  r('GET', '/hr/jobs/:id/insights', 'job', 'no'),
  r('GET', '/hr/jobs/:id/board', 'job', 'no'),
  r('GET', '/hr/jobs/:id/kits', 'job', 'no'),
  // An interviewer's landing page: the page sends them on to their applicants.
  r('GET', '/hr/dashboard', 'all', 'all'),
  r('GET', '/hr/applicants', 'all', 'all'),
  r('GET', '/hr/applicants/duplicates', 'no', 'no'),
  r('GET', '/hr/applicants/erasure-requests', 'no', 'no'),
  r('GET', '/hr/settings/status-texts', 'no', 'no'),
  r('GET', '/hr/settings/import', 'no', 'no'),
  r('GET', '/hr/pools', 'no', 'no'),
  r('GET', '/hr/applicants/:id', 'application', 'application'),
];

interface CompiledRule extends RouteRule {
  regex: RegExp;
}

/** A pattern as a regular expression: `:name` a segment, the trailing slash optional, any case (as Express routes). */
function compile(pattern: string): RegExp {
  const body = pattern
    .replace(/\/$/, '')
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '([^/]+)' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${body}/?$`, 'i');
}

const params = (pattern: string) => pattern.split('/').filter((seg) => seg.startsWith(':')).length;

/** Fewer parameters first: a literal segment (`/applications/emails/`) wins over a parameter (`/applications/:id/`), as Express's route order has it. */
const COMPILED: CompiledRule[] = ROUTE_RULES.map((rule) => ({ ...rule, regex: compile(rule.pattern) })).sort(
  (a, b) => params(a.pattern) - params(b.pattern),
);

/** The rule of a request (HEAD is GET's), with the first path parameter; null: no rule (refused). */
function ruleOf(method: string, path: string): { rule: CompiledRule; id: string | undefined } | null {
  const m = method === 'HEAD' ? 'GET' : method;
  for (const rule of COMPILED) {
    if (rule.method !== m) continue;
    const match = rule.regex.exec(path);
    if (match) return { rule, id: match[1] };
  }
  return null;
}

/**
 * Whether the asker may make this request: resolves when they may (with their scope, which the
 * route's service filters by); throws Forbidden (403) for a route their role may not use and
 * NotFound (404) for a job or application outside their scope. `body` is the parsed body, for the
 * routes that name applications in it.
 */
export async function checkRequest(
  db: Db,
  asker: Asker,
  method: string,
  path: string,
  page: boolean,
  body?: unknown,
): Promise<AccessScope> {
  if (asker.role === 'admin' || asker.role === 'recruiter') return FULL_ACCESS;
  const found = ruleOf(method, path);
  const rule = found ? found.rule[asker.role] : 'no';
  const roleName = asker.role.replace('_', ' ');
  if (rule === 'no') throw new Forbidden(page ? ACCESS_MESSAGES.page : ACCESS_MESSAGES.api(roleName));
  const scope = await accessScope(db, asker);
  const id = found?.id;
  const rowId = (what: 'job' | 'application'): number => {
    if (!isRowId(id)) throw new NotFound(ACCESS_MESSAGES[what]);
    return Number(id);
  };
  if (rule === 'job') assertJob(scope, rowId('job'));
  else if (rule === 'application') await assertApplication(db, scope, rowId('application'));
  else if (rule === 'email') {
    if (!isRowId(id)) throw new NotFound('Email not found.');
    const applicationId = await applicationOfEmail(db, Number(id));
    if (applicationId === null) throw new NotFound('Email not found.');
    await assertApplication(db, scope, applicationId);
  } else if (rule === 'interview') {
    if (!isRowId(id)) throw new NotFound('Interview not found.');
    const applicationId = await applicationOfInterview(db, Number(id));
    const jobId = applicationId === null ? null : await jobOfApplication(db, applicationId);
    if (applicationId === null || jobId === null || !seesApplication(scope, applicationId, jobId))
      throw new NotFound('Interview not found.');
  } else if (rule === 'offer') {
    if (!isRowId(id)) throw new NotFound('Offer not found.');
    const applicationId = await applicationOfOffer(db, Number(id));
    if (applicationId === null) throw new NotFound('Offer not found.');
    const jobId = await jobOfApplication(db, applicationId);
    if (jobId === null || !seesApplication(scope, applicationId, jobId)) throw new NotFound('Offer not found.');
  } else if (rule === 'applications') {
    const ids = applicationIdsIn(body);
    const jobs = await jobsOfApplications(db, ids);
    for (const appId of ids) {
      const jobId = jobs.get(appId);
      // Unknown ids are left to the route (it answers them as not found); known ones outside the scope are refused as unknown.
      if (jobId !== undefined && !seesApplication(scope, appId, jobId)) throw new NotFound(ACCESS_MESSAGES.application);
    }
  }
  return scope;
}

/** The row ids a bulk body names in `ids` or `application_ids` (anything else is left to the route's schema). */
function applicationIdsIn(body: unknown): number[] {
  if (typeof body !== 'object' || body === null) return [];
  const b = body as { ids?: unknown; application_ids?: unknown };
  const list = Array.isArray(b.ids) ? b.ids : Array.isArray(b.application_ids) ? b.application_ids : [];
  return list.filter((v) => isRowId(typeof v === 'number' ? String(v) : v)).map((v) => Number(v));
}
