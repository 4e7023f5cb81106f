/**
 * The applicants feature's pages. For applicants: the application wizard
 * (`/careers/{publicId}/apply`, a React island) and the confirmation (`/careers/{publicId}/submitted`,
 * plain HTML that works without JavaScript), both noindex: steps of one applicant's journey, not
 * content. For HR (app.ts guards /hr): the dashboard and a job's insights, whose island gets the
 * job and its analytics from the same service the API uses (no second round trip); the applicants
 * list and one application (issue 11), rendered on the server from the services the API uses,
 * readable without JavaScript; the `applicants` island adds downloads with the spec's failure
 * message and status changes (which need the Bearer header).
 */
import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../context.js';
import { NotFound } from '../http/errors.js';
import { htmlPageNumber } from '../http/paging.js';
import { pathId } from '../http/validate.js';
import { cachedPublicJob, listJobChoices, requireJob, toPublicJob, toPublicQuestion } from '../jobs/index.js';
import { applicantViewers } from '../teams/index.js';
import type { Job } from '../jobs/types.js';
import { formatPhone, formatters } from '../render/formatters.js';
import { salaryText } from '../shared/format.js';
import { renderPage } from '../render/page.js';
import { APPLICATION_STATUSES } from '../shared/enums.js';
import { APPLICANT_MESSAGES, applicantFilterQuery, applicantFilters, applicantListQuerySchema } from './review.schema.js';
import { isRowId } from '../shared/input-rules.js';
import { fieldErrorsOf } from '../shared/field-errors.js';
import { applicantNeighbours, getApplicant, listApplicants, listSourcesSeen, loadDashboard, loadJobInsights } from './reads.service.js';
import { previewKind } from './lib/resume-preview.js';
import { allowBlobFrames } from '../http/security.js';
import {
  DIRECT_SOURCE,
  REJECTED_COLUMN,
  type ApplicantFilters,
  type ApplicantOrdering,
  type RejectionReason,
  type StageList,
} from './types.js';
import type { Db } from '../db/knex.js';
import type { WizardJob } from './types.js';
import { FULL_ACCESS } from '../shared/access-scope.js';
import { personOtherApplications } from '../people/index.js';

const APPLY_PAGE_TEXT = {
  unavailableTitle: 'Job post unavailable',
  removed: 'This job post has been removed.',
  closedTitle: 'Applications Closed',
  closed: 'This job post has stopped taking application.',
} as const;

/** What the wizard island needs: public fields and sanitised questions, without the long job texts. */
function wizardJobProps(job: Job): WizardJob {
  return { ...toPublicJob(job, false), questions: job.questions.map(toPublicQuestion) };
}

const jobPath = (publicId: string) => `/careers/${encodeURIComponent(publicId)}`;

/**
 * What the applicants pages show of the pipeline (a port: the app wires the pipeline feature's
 * reads, as the jobs feature gets its ApplicantCounts): a job's stages and the rejection reasons
 * on an application's page, the stage names in the list's filter.
 */
export interface PipelineReads {
  jobStages(deps: { db: Db }, jobId: number): Promise<StageList>;
  rejectionReasons(deps: { db: Db }): Promise<RejectionReason[]>;
  listStageNames(deps: { db: Db }): Promise<string[]>;
}

export function applicantsPages(ctx: AppContext, pipeline: PipelineReads): Router {
  const { jobStages, listStageNames, rejectionReasons } = pipeline;
  const router = Router();
  const { config } = ctx;
  /** The company as the site settings name it (issue 35: brandLocals), else COMPANY_NAME. */
  const companyOf = (res: Response): string => (res.locals.company as { name: string } | undefined)?.name ?? config.company.name;
  // The same cached read as the public job API, so a job is read once for both.
  const load = (publicId: string) => cachedPublicJob(ctx, publicId, true);

  const unavailable = (req: Request, res: Response) =>
    renderPage(
      req,
      res,
      'pages/public/apply-unavailable',
      { title: APPLY_PAGE_TEXT.unavailableTitle, noindex: true, status: 404 },
      {
        heading: APPLY_PAGE_TEXT.unavailableTitle,
        message: APPLY_PAGE_TEXT.removed,
        link: { href: '/careers', label: 'Back to Careers' },
      },
    );

  router.get('/careers/:publicId/apply', async (req, res) => {
    const { job, availability } = await load(req.params.publicId);
    if (!job || availability === 'not_found') return unavailable(req, res);
    if (availability === 'inactive') {
      return renderPage(
        req,
        res,
        'pages/public/apply-unavailable',
        { title: `${APPLY_PAGE_TEXT.closedTitle} — ${job.title}`, noindex: true },
        {
          heading: APPLY_PAGE_TEXT.closedTitle,
          message: APPLY_PAGE_TEXT.closed,
          link: { href: jobPath(job.public_id), label: 'View Job Details' },
        },
      );
    }
    // An Apply click, counted when the page is served: no script needed.
    ctx.funnel.countRequest(job.id, 'apply', req.headers);
    renderPage(
      req,
      res,
      'pages/public/apply',
      { title: `Apply: ${job.title} — ${companyOf(res)} Careers`, noindex: true },
      {
        job: wizardJobProps(job),
        consentText: config.applyConsentText,
        phoneRule: config.phoneRule,
        jobHref: jobPath(job.public_id),
      },
    );
  });

  router.get('/careers/:publicId/submitted', async (req, res) => {
    const { job, availability } = await load(req.params.publicId);
    if (!job || availability === 'not_found') return unavailable(req, res);
    renderPage(
      req,
      res,
      'pages/public/submitted',
      { title: `Application Submitted — ${companyOf(res)} Careers`, noindex: true },
      {
        job: { title: job.title, href: jobPath(job.public_id) },
      },
    );
  });

  router.get('/hr/dashboard', async (req, res) => {
    // Issue 31: an interviewer has no dashboard; their landing is the list of applications they are asked to interview.
    if (req.hr?.role === 'interviewer') return res.redirect(302, '/hr/applicants');
    const stats = await loadDashboard(ctx, req.access);
    renderPage(req, res, 'pages/hr/dashboard', { title: 'HR Dashboard' }, { stats, ...formatters(req) });
  });

  router.get('/hr/jobs/:id/insights', async (req, res) => {
    const { job, analytics } = await loadJobInsights(ctx, pathId(req.params.id));
    renderPage(
      req,
      res,
      'pages/hr/job-insights',
      { title: `Insights: ${job.title}`, noindex: true },
      {
        props: {
          job: {
            id: job.id,
            title: job.title,
            status: job.status,
            views: job.views,
            created_at: job.created_at.toISOString(),
            applicants: analytics.total_applicants,
          },
          analytics,
        },
      },
    );
  });

  // A job's board (issue 20): the island gets the first answer of the board API, read by the same service.
  router.get('/hr/applicants', async (req, res) => {
    const parsed = applicantListQuerySchema.safeParse(req.query);
    const [allJobs, stageNames, sources] = await Promise.all([listJobChoices(ctx.db), listStageNames(ctx), listSourcesSeen(ctx)]);
    // Issue 31: the job selector offers only the jobs the asker may see.
    const scopeJobs = req.access?.jobIds;
    const jobs = scopeJobs ? allJobs.filter((j) => scopeJobs.includes(j.id)) : allJobs;
    // The column chooser remembers its choice per user (the island keeps it in localStorage).
    const common = {
      jobs,
      statuses: APPLICATION_STATUSES,
      orderings: ORDERING_LABELS,
      stageNames: [...stageNames, REJECTED_COLUMN],
      sources: [DIRECT_SOURCE, ...sources],
      ...formatters(req),
      formatPhone,
      messages: APPLICANT_MESSAGES,
      userId: req.hr?.userId ?? 0,
      chips: [] as FilterChip[],
    };
    if (!parsed.success) {
      // The filters as typed, with a message per field; no list until they are fixed.
      const raw = Object.fromEntries(
        Object.entries(req.query).map(([k, v]) => [k, Array.isArray(v) ? String(v[0] ?? '') : String(v ?? '')]),
      );
      const errors = fieldErrorsOf(parsed.error.issues);
      return renderPage(
        req,
        res,
        'pages/hr/applicants',
        { title: 'Applicants', noindex: true, status: 400 },
        { ...common, form: raw, errors, moreOpen: MORE_FILTERS.some((f) => errors[f]), list: null },
      );
    }
    const filters = { ...applicantFilters(parsed.data), scope: req.access };
    const page = htmlPageNumber(req);
    const jobChoice = filters.job_id === null ? null : jobs.find((j) => j.id === filters.job_id);
    const list = await listApplicants(ctx, filters, page, APPLICANTS_PAGE_SIZE, true);
    const link = (n: number) => `/hr/applicants${applicantFilterQuery(filters, n > 1 ? { page: String(n) } : {})}`;
    renderPage(
      req,
      res,
      'pages/hr/applicants',
      { title: 'Applicants', noindex: true },
      {
        ...common,
        form: formValues(filters),
        errors: {},
        moreOpen: false,
        chips: filterChips(filters, jobChoice ? `${jobChoice.title} (${jobChoice.public_id})` : null),
        filters,
        list,
        page,
        pages: list.capped ? null : Math.max(1, Math.ceil(list.count / APPLICANTS_PAGE_SIZE)),
        prevLink: page > 1 ? link(page - 1) : null,
        nextLink: list.hasMore ? link(page + 1) : null,
        // Links to a detail keep the list's filters, for its previous/next.
        viewQuery: applicantFilterQuery(filters),
        // The list's Export: the same filters, the whole list (no page).
        exportHref: `/api/hr/applications/export/${applicantFilterQuery(filters)}`,
        // The sort buttons' form: the applied filters (not the form as edited), without page and ordering.
        sortFormFields: [...new URLSearchParams(applicantFilterQuery({ ...filters, ordering: '-created_at' }))],
        jobTitle: jobChoice?.title ?? null,
      },
    );
  });

  router.get('/hr/applicants/:id', async (req, res) => {
    if (!isRowId(req.params.id)) return notFoundPage(req, res);
    // Issue 31: an interviewer sees the application without salary answers, stage, status, emails or notes.
    const limited = req.hr?.role === 'interviewer';
    const app = await getApplicant(ctx, Number(req.params.id), { withoutSalary: limited }).catch((err) => {
      if (err instanceof NotFound) return null;
      throw err;
    });
    if (!app) return notFoundPage(req, res);
    // The list this application was opened from; filters that do not parse are the whole list.
    const parsed = applicantListQuerySchema.safeParse(req.query);
    const filters = {
      ...(parsed.success ? applicantFilters(parsed.data) : applicantFilters(applicantListQuerySchema.parse({}))),
      scope: req.access,
    };
    const [around, { stages }, reasons, viewers, job, others] = await Promise.all([
      applicantNeighbours(ctx, filters, app),
      jobStages(ctx, app.job_id),
      rejectionReasons(ctx),
      limited ? null : applicantViewers(ctx.db, app.id),
      // An interviewer reads the job's description here (the job editor is not theirs).
      limited ? requireJob(ctx.db, app.job_id) : null,
      // Issue 35: not an interviewer's to see.
      limited ? null : personOtherApplications(ctx.db, app.id, req.access ?? FULL_ACCESS),
    ]);
    const query = applicantFilterQuery(filters);
    // The resume beside the answers: a PDF in the browser's viewer (from a blob: URL, see
    // islands/applicants.tsx), a DOC or DOCX as text from the preview API, anything else a download.
    const resumeView = !app.resume_download_url
      ? null
      : app.resume_content_type === 'application/pdf'
        ? 'pdf'
        : previewKind(app.resume_content_type ?? '')
          ? 'text'
          : null;
    if (resumeView === 'pdf') allowBlobFrames(res);
    renderPage(
      req,
      res,
      'pages/hr/applicant',
      { title: `Application #${app.id}`, noindex: true },
      {
        app,
        stages: limited ? [] : stages,
        reasons,
        limited,
        viewers,
        others,
        jobDescription: job ? job.description : null,
        resumeView,
        previewUrl: `/api/hr/applications/${app.id}/resume/preview/`,
        formatPhone,
        salaryText,
        statuses: APPLICATION_STATUSES,
        messages: APPLICANT_MESSAGES,
        listHref: `/hr/applicants${query}`,
        previousHref: around.previous === null ? null : `/hr/applicants/${around.previous}${query}`,
        nextHref: around.next === null ? null : `/hr/applicants/${around.next}${query}`,
      },
    );
  });

  return router;
}

const APPLICANTS_PAGE_SIZE = 25;

/** The list's orders as the Sort by menu names them. */
const ORDERING_LABELS: [ApplicantOrdering, string][] = [
  ['-created_at', 'Newest first'],
  ['created_at', 'Oldest first'],
  ['name', 'Name (A to Z)'],
  ['-name', 'Name (Z to A)'],
  ['email', 'Email (A to Z)'],
  ['-email', 'Email (Z to A)'],
  ['status', 'Status (A to Z)'],
  ['-status', 'Status (Z to A)'],
];

/** The filters behind the list's "More filters" disclosure (the first row has search, job and status). */
const MORE_FILTERS = ['stage', 'source', 'date_from', 'date_to', 'ordering'];

/** An active filter as a chip above the list: its words, and the list's link without it (page 1). */
interface FilterChip {
  label: string;
  removeHref: string;
}

/** The chips of the applied filters, in the form's order; the sort order is not a filter (the headers show it). */
function filterChips(f: ApplicantFilters, jobLabel: string | null): FilterChip[] {
  const without = (change: Partial<ApplicantFilters>) => `/hr/applicants${applicantFilterQuery({ ...f, ...change })}`;
  const chips: FilterChip[] = [];
  if (f.q) chips.push({ label: `Search: ${f.q}`, removeHref: without({ q: '' }) });
  if (f.job_id !== null) chips.push({ label: `Job: ${jobLabel ?? f.job_id}`, removeHref: without({ job_id: null }) });
  if (f.status) chips.push({ label: `Status: ${f.status}`, removeHref: without({ status: null }) });
  if (f.stage) chips.push({ label: `Stage: ${f.stage}`, removeHref: without({ stage: null }) });
  if (f.source) chips.push({ label: `Source: ${f.source}`, removeHref: without({ source: null }) });
  if (f.date_from) chips.push({ label: `From: ${f.date_from}`, removeHref: without({ date_from: null }) });
  if (f.date_to) chips.push({ label: `To: ${f.date_to}`, removeHref: without({ date_to: null }) });
  return chips;
}

/** What the filter form shows for parsed filters. */
function formValues(f: ApplicantFilters): Record<string, string> {
  return {
    job_id: f.job_id === null ? '' : String(f.job_id),
    q: f.q,
    status: f.status ?? '',
    date_from: f.date_from ?? '',
    date_to: f.date_to ?? '',
    ordering: f.ordering,
    stage: f.stage ?? '',
    source: f.source ?? '',
  };
}

/** Spec 02: 'Not found.' for an application that does not exist. */
function notFoundPage(req: Request, res: Response): void {
  renderPage(req, res, 'pages/hr/applicant-not-found', { title: 'Not found.', noindex: true, status: 404 });
}
