/**
 * Reports for management (issue 31): for one job or all jobs and a period of UTC days, what
 * happened to the applications made on those days (the cohort): where they came from, where they
 * are, how long they stayed in each stage and took to be hired, how many passed each stage, why
 * they were rejected, and one funnel from the job page to Hired. Built from the stage-transition
 * ledger (docs/decisions/0011-stage-transition-ledger.md). Who may read them is decided here, in
 * `readableQuery`, once.
 */
import { fromDbJson } from '../db/codecs.js';
import type { Db } from '../db/knex.js';
import type { CellValue, WorkbookSpec } from '../exports/xlsx.js';
import { Forbidden, NotFound } from '../http/errors.js';
import { validate } from '../http/validate.js';
import { requireJob } from '../jobs/index.js';
import { offerCounts } from '../offers/index.js';
import { WIZARD_STEPS, WIZARD_STEP_LABELS } from '../funnel/types.js';
import { medianAndP90, percent } from './lib/stats.js';
import {
  cohortCounts,
  cohortFirstInterviews,
  cohortLedger,
  cohortScorecards,
  jobTitles,
  stagesOf,
  visitCounts,
  type FirstInterview,
  type LedgerEntry,
  type Period,
  type ScorecardRow,
  type StageRow,
} from './queries.js';
import { REPORT_MESSAGES, REPORT_QUERY_NAMES, addDays, reportQuerySchema, type ReportQuery } from './schema.js';
import type { DurationStats, Report, StageLine } from './types.js';

interface ReportDeps {
  db: Db;
  now?: () => Date;
}

/** Roles that may read reports (hiring managers and interviewers will be narrowed to their jobs here). */
const REPORT_ROLES: readonly string[] = ['admin', 'recruiter'];

const REMOVED_STAGE = '(removed stage)';

/**
 * The one access check and the query: the caller's role, then the query's rules (400), then the
 * job (404). Every report route goes through here.
 */
export async function readableQuery(
  deps: ReportDeps,
  role: string | undefined,
  raw: unknown,
): Promise<{ query: ReportQuery; job: Report['job'] }> {
  if (!role || !REPORT_ROLES.includes(role)) throw new Forbidden(REPORT_MESSAGES.forbidden);
  const today = (deps.now?.() ?? new Date()).toISOString().slice(0, 10);
  const query = validate(reportQuerySchema(today), raw ?? {}, REPORT_QUERY_NAMES);
  if (query.job_id === null) return { query, job: null };
  const job = await requireJob(deps.db, query.job_id).catch((err) => {
    throw err instanceof NotFound ? new NotFound(REPORT_MESSAGES.jobNotFound) : err;
  });
  return { query, job: { id: job.id, title: job.title, public_id: job.public_id } };
}

/** A stage's line key: its id for one job, its name across jobs. */
function stageKeyer(jobId: number | null, stages: StageRow[]) {
  const byId = new Map(stages.map((s) => [s.id, s]));
  const lines = new Map<string, StageLine & { order: number }>();
  for (const s of stages) {
    const key = jobId === null ? `n:${s.name}` : `i:${s.id}`;
    const line = lines.get(key);
    if (!line) lines.set(key, { name: s.name, hired: s.hired, order: s.position });
    else {
      line.order = Math.min(line.order, s.position);
      line.hired ||= s.hired;
    }
  }
  const keyOf = (stageId: number | null): string => {
    const s = stageId === null ? undefined : byId.get(stageId);
    if (!s) {
      if (!lines.has('removed')) lines.set('removed', { name: REMOVED_STAGE, hired: false, order: Number.MAX_SAFE_INTEGER });
      return 'removed';
    }
    return jobId === null ? `n:${s.name}` : `i:${s.id}`;
  };
  const ordered = () =>
    [...lines.entries()]
      .sort((a, b) => a[1].order - b[1].order || a[1].name.localeCompare(b[1].name))
      .map(([key, l]) => ({ key, name: l.name, hired: l.hired }));
  return { byId, keyOf, ordered };
}

/** Each application's ledger, walked: finished stays per stage, time to hire, stages reached and passed. */
function walkLedger(entries: LedgerEntry[], byId: Map<number, StageRow>, keyOf: (id: number | null) => string) {
  const stays = new Map<string, number[]>();
  const hires: number[] = [];
  const reached = new Map<string, number>();
  const passed = new Map<string, number>();
  const keys = new Map<number | null, string>();
  const key = (id: number | null) => {
    const known = keys.get(id);
    if (known !== undefined) return known;
    const k = keyOf(id);
    keys.set(id, k);
    return k;
  };
  const seen: StageRow[] = [];
  const seenKeys = new Set<string>();
  const passedKeys = new Set<string>();
  for (let i = 0; i < entries.length; ) {
    const id = entries[i].application_id;
    const start = entries[i].at;
    let hired = false;
    seen.length = 0;
    seenKeys.clear();
    passedKeys.clear();
    for (; i < entries.length && entries[i].application_id === id; i++) {
      const e = entries[i];
      if (e.outcome !== null || e.to_stage_id === null) continue;
      const next = entries[i + 1];
      const k = key(e.to_stage_id);
      if (next && next.application_id === id) {
        const list = stays.get(k);
        const seconds = Math.max(0, next.at - e.at) / 1000;
        if (list) list.push(seconds);
        else stays.set(k, [seconds]);
      }
      seenKeys.add(k);
      const s = byId.get(e.to_stage_id);
      if (s) {
        seen.push(s);
        if (s.hired && !hired) {
          hired = true;
          hires.push(Math.max(0, e.at - start) / 1000);
        }
      }
    }
    for (const k of seenKeys) reached.set(k, (reached.get(k) ?? 0) + 1);
    // A stage is passed when a later stage of the same job (by position) was reached.
    let furthest = -1;
    for (const s of seen) furthest = Math.max(furthest, s.position);
    for (const s of seen) if (s.position < furthest) passedKeys.add(key(s.id));
    for (const k of passedKeys) passed.set(k, (passed.get(k) ?? 0) + 1);
  }
  return { stays, hires, reached, passed };
}

/**
 * Issue 32: per stage line, the seconds from entering the stage to its first interview being
 * booked; the entry taken is the application's last one into that stage at or before the booking
 * (an interview booked before the stage was ever entered counts nowhere).
 */
function scheduleTimes(entries: LedgerEntry[], firsts: FirstInterview[], keyOf: (id: number | null) => string): Map<string, number[]> {
  const entered = new Map<string, number[]>();
  for (const e of entries) {
    if (e.outcome !== null || e.to_stage_id === null) continue;
    const k = `${e.application_id}:${e.to_stage_id}`;
    const list = entered.get(k);
    if (list) list.push(e.at);
    else entered.set(k, [e.at]);
  }
  const out = new Map<string, number[]>();
  for (const f of firsts) {
    const times = entered.get(`${f.application_id}:${f.stage_id}`);
    if (!times) continue;
    let from: number | null = null;
    for (const t of times) if (t <= f.at) from = t; // entries are in time order
    if (from === null) continue;
    const key = keyOf(f.stage_id);
    const list = out.get(key);
    const seconds = (f.at - from) / 1000;
    if (list) list.push(seconds);
    else out.set(key, [seconds]);
  }
  return out;
}

/** The report (GET /api/hr/reports/). */
export async function buildReport(deps: ReportDeps, role: string | undefined, raw: unknown): Promise<Report> {
  const { query, job } = await readableQuery(deps, role, raw);
  return computeReport(deps, query, job);
}

async function computeReport({ db, now: clock }: ReportDeps, query: ReportQuery, job: Report['job']): Promise<Report> {
  const now = (clock?.() ?? new Date()).getTime();
  const period: Period = {
    jobId: query.job_id,
    since: new Date(`${query.from}T00:00:00.000Z`),
    until: new Date(`${addDays(query.to, 1)}T00:00:00.000Z`),
    fromDay: query.from,
    toDay: query.to,
  };
  const [counts, ledger, stages, visits, cards, firstInterviews, offers] = await Promise.all([
    cohortCounts(db, period),
    cohortLedger(db, period),
    stagesOf(db, query.job_id),
    visitCounts(db, period),
    cohortScorecards(db, period),
    cohortFirstInterviews(db, period),
    offerCounts(db, { since: period.since, until: period.until, jobId: query.job_id }),
  ]);
  const { byId, keyOf, ordered } = stageKeyer(query.job_id, stages);
  const applications = counts.bySource.reduce((sum, s) => sum + s.n, 0);
  const place = new Map<string, number>();
  let rejected = 0;
  for (const r of counts.byPlace) {
    if (r.outcome === 'REJECTED') rejected += r.n;
    else place.set(keyOf(r.stage_id), (place.get(keyOf(r.stage_id)) ?? 0) + r.n);
  }
  const walked = walkLedger(ledger, byId, keyOf);
  const scheduled = scheduleTimes(ledger, firstInterviews, keyOf);
  const lines = ordered();
  const duration = (values: number[] | undefined): DurationStats => medianAndP90(values ?? []);
  const reachedOf = (key: string) => walked.reached.get(key) ?? 0;

  const funnelLines: Report['funnel']['lines'] = [
    { key: 'view', label: 'Job page views', count: visits.steps.get('view') ?? 0, source: 'visits' },
    { key: 'apply', label: 'Apply page opened', count: visits.steps.get('apply') ?? 0, source: 'visits' },
    ...WIZARD_STEPS.filter((s) => s !== 'questions' || (visits.steps.get(s) ?? 0) > 0).map((s) => ({
      key: s,
      label: `Wizard: ${WIZARD_STEP_LABELS[s]}`,
      count: visits.steps.get(s) ?? 0,
      source: 'visits' as const,
    })),
    { key: 'submitted', label: 'Sent from the wizard', count: visits.steps.get('submitted') ?? 0, source: 'visits' },
    { key: 'applications', label: 'Applications (every way)', count: applications, source: 'applications' },
    ...lines
      .filter((l) => l.key !== 'removed')
      .map((l) => ({ key: `stage:${l.name}`, label: `Reached ${l.name}`, count: reachedOf(l.key), source: 'applications' as const })),
  ];
  const direct = visits.steps.get('submitted_direct') ?? 0;

  return {
    job,
    from: query.from,
    to: query.to,
    applications,
    by_source: counts.bySource
      .map((s) => ({ source: s.source, applications: s.n }))
      .sort((a, b) => b.applications - a.applications || String(a.source ?? '').localeCompare(String(b.source ?? ''))),
    by_stage: lines
      .filter((l) => l.key !== 'removed' || place.has(l.key))
      .map((l) => ({ name: l.name, hired: l.hired, applications: place.get(l.key) ?? 0 })),
    rejected,
    time_in_stage: lines
      .filter((l) => !l.hired && (l.key !== 'removed' || walked.stays.has(l.key)))
      .map((l) => ({ name: l.name, hired: l.hired, ...duration(walked.stays.get(l.key)) })),
    time_to_schedule: lines
      .filter((l) => (!l.hired && l.key !== 'removed') || scheduled.has(l.key))
      .map((l) => ({ name: l.name, hired: l.hired, ...duration(scheduled.get(l.key)) })),
    time_to_hire: duration(walked.hires),
    pass_through: lines
      .filter((l) => !l.hired && l.key !== 'removed')
      .map((l) => {
        const reached = reachedOf(l.key);
        const passedN = walked.passed.get(l.key) ?? 0;
        return { name: l.name, hired: l.hired, reached, passed: passedN, rate: percent(passedN, reached) };
      }),
    rejection_reasons: counts.reasons
      .map((r) => ({ reason: r.reason ?? '(no reason)', applications: r.n }))
      .sort((a, b) => b.applications - a.applications || a.reason.localeCompare(b.reason)),
    offers: { ...offers, acceptance_rate: percent(offers.accepted, offers.made) },
    scorecards: scorecardTimes(cards, now),
    predictors: await predictors(db, cards, byId),
    funnel: {
      lines: funnelLines,
      anchor:
        'The lines down to “Sent from the wizard” are visits the funnel counts per UTC day (visitors who send Do Not Track or Global Privacy Control are not counted). From “Applications (every way)” on, the lines count the applications made on these days and, from the stage ledger, how many of them ever reached each stage. The two meet where an application is sent: “Applications” also holds those sent another way' +
        ` (the API, other sites' forms: ${direct} in this period) and those of visitors who were not counted, so it may be higher than “Sent from the wizard”.`,
      all_time_views: visits.allTimeViews,
      submitted_direct: direct,
    },
  };
}

/** A scorecard is due this long after its interview (or its request): the reminders' rule. */
const DUE_MS = 24 * 3600_000;
/** Decided applications a job needs before its attributes are compared. */
const MIN_DECISIONS = 20;

function scorecardTimes(cards: ScorecardRow[], now: number): Report['scorecards'] {
  const out = { requested: cards.length, submitted: 0, on_time: 0, late: 0, overdue: 0, waiting: 0 };
  for (const c of cards) {
    const due = c.due_from + DUE_MS;
    if (c.submitted_at !== null) {
      out.submitted += 1;
      if (c.submitted_at <= due) out.on_time += 1;
      else out.late += 1;
    } else if (now > due) out.overdue += 1;
    else out.waiting += 1;
  }
  return { ...out, on_time_rate: percent(out.on_time, out.submitted + out.overdue) };
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const mean = (v: number[]) => (v.length ? round2(v.reduce((a, b) => a + b, 0) / v.length) : null);

/** Per job: each attribute's average for hired and rejected candidates, and how far interviewers agree; never per candidate. */
async function predictors(db: Db, cards: ScorecardRow[], stages: Map<number, StageRow>): Promise<Report['predictors']> {
  const perJob = new Map<number, ScorecardRow[]>();
  for (const c of cards) {
    if (c.submitted_at === null) continue;
    const list = perJob.get(c.job_id);
    if (list) list.push(c);
    else perJob.set(c.job_id, [c]);
  }
  const titles = await jobTitles(db, [...perJob.keys()]);
  const jobs: Report['predictors']['jobs'] = [];
  const below: Report['predictors']['below_minimum'] = [];
  for (const [jobId, list] of perJob) {
    const decisionOf = (c: ScorecardRow): 'hired' | 'rejected' | null =>
      c.outcome === 'REJECTED' ? 'rejected' : c.stage_id !== null && stages.get(c.stage_id)?.hired ? 'hired' : null;
    const decided = new Map<number, 'hired' | 'rejected'>();
    for (const c of list) {
      const d = decisionOf(c);
      if (d) decided.set(c.application_id, d);
    }
    const hired = [...decided.values()].filter((d) => d === 'hired').length;
    const title = titles.get(jobId) ?? `Job ${jobId}`;
    if (decided.size < MIN_DECISIONS) {
      below.push({ job_id: jobId, title, decisions: decided.size });
      continue;
    }
    // attribute -> hired ratings, rejected ratings, and per application the ratings given
    const attrs = new Map<string, { hired: number[]; rejected: number[]; byApp: Map<number, number[]> }>();
    for (const c of list) {
      const d = decided.get(c.application_id);
      if (!d) continue;
      const ratings = fromDbJson<unknown>(c.ratings, []);
      if (!Array.isArray(ratings)) continue;
      for (const r of ratings as { attribute?: unknown; rating?: unknown }[]) {
        if (typeof r?.attribute !== 'string' || typeof r.rating !== 'number' || r.rating < 1 || r.rating > 4) continue;
        const a = attrs.get(r.attribute) ?? { hired: [], rejected: [], byApp: new Map<number, number[]>() };
        attrs.set(r.attribute, a);
        a[d].push(r.rating);
        const given = a.byApp.get(c.application_id);
        if (given) given.push(r.rating);
        else a.byApp.set(c.application_id, [r.rating]);
      }
    }
    jobs.push({
      job_id: jobId,
      title,
      decisions: decided.size,
      hired,
      rejected: decided.size - hired,
      attributes: [...attrs]
        .map(([name, a]) => {
          let pairs = 0;
          let close = 0;
          for (const given of a.byApp.values())
            for (let i = 0; i < given.length; i++)
              for (let j = i + 1; j < given.length; j++) {
                pairs += 1;
                if (Math.abs(given[i] - given[j]) <= 1) close += 1;
              }
          const h = mean(a.hired);
          const r = mean(a.rejected);
          return {
            name,
            hired_average: h,
            rejected_average: r,
            difference: h !== null && r !== null ? round2(h - r) : null,
            agreement: percent(close, pairs),
            pairs,
          };
        })
        .sort((x, y) => Math.abs(y.difference ?? 0) - Math.abs(x.difference ?? 0) || x.name.localeCompare(y.name)),
    });
  }
  return {
    min_decisions: MIN_DECISIONS,
    jobs,
    below_minimum: below.sort((a, b) => b.decisions - a.decisions || a.title.localeCompare(b.title)),
  };
}

const DAY_SECONDS = 86_400;
const hours = (s: number | null): CellValue => (s === null ? null : Math.round((s / 3600) * 100) / 100);
const days = (s: number | null): CellValue => (s === null ? null : Math.round((s / DAY_SECONDS) * 100) / 100);

async function* once(rows: CellValue[][]): AsyncIterable<CellValue[][]> {
  yield rows;
}

/** The report as a workbook (GET /api/hr/reports/export/): one sheet per table. */
export async function reportWorkbook(deps: ReportDeps, role: string | undefined, raw: unknown): Promise<WorkbookSpec> {
  const { query, job } = await readableQuery(deps, role, raw);
  const r = await computeReport(deps, query, job);
  const scope = job ? job.public_id : 'all-jobs';
  const durationColumns = [
    { header: 'Count', width: 10 },
    { header: 'Median (days)', width: 14 },
    { header: 'p90 (days)', width: 12 },
  ];
  return {
    filename: `report-${scope}-${r.from}-to-${r.to}.xlsx`,
    sheetName: 'Summary',
    columns: [
      { header: 'Figure', width: 36 },
      { header: 'Value', width: 60 },
    ],
    rows: once([
      ['Job', job ? job.title : 'All jobs'],
      ['From (UTC day)', r.from],
      ['To (UTC day)', r.to],
      ['Applications', r.applications],
      ['Rejected', r.rejected],
      ['Time to hire: hires', r.time_to_hire.count],
      ['Time to hire: median (days)', days(r.time_to_hire.median_seconds)],
      ['Time to hire: p90 (days)', days(r.time_to_hire.p90_seconds)],
      ['Offers made', r.offers.made],
      ['Offers accepted', r.offers.accepted],
      ['Offers declined', r.offers.declined],
      ['All-time job views (counter)', r.funnel.all_time_views],
    ]),
    moreSheets: [
      {
        sheetName: 'By source',
        columns: [
          { header: 'Source', width: 28 },
          { header: 'Applications', width: 14 },
        ],
        rows: once(r.by_source.map((s) => [s.source ?? 'Direct', s.applications])),
      },
      {
        sheetName: 'By stage',
        columns: [
          { header: 'Stage', width: 28 },
          { header: 'Applications now', width: 18 },
        ],
        rows: once([...r.by_stage.map((s): CellValue[] => [s.name, s.applications]), ['Rejected', r.rejected]]),
      },
      {
        sheetName: 'Time in stage',
        columns: [{ header: 'Stage', width: 28 }, ...durationColumns],
        rows: once(r.time_in_stage.map((s) => [s.name, s.count, days(s.median_seconds), days(s.p90_seconds)])),
      },
      {
        sheetName: 'Time to schedule',
        columns: [
          { header: 'Stage', width: 28 },
          { header: 'Interviews booked', width: 18 },
          { header: 'Median (hours)', width: 14 },
          { header: 'p90 (hours)', width: 12 },
        ],
        rows: once(r.time_to_schedule.map((s) => [s.name, s.count, hours(s.median_seconds), hours(s.p90_seconds)])),
      },
      {
        sheetName: 'Pass-through',
        columns: [
          { header: 'Stage', width: 28 },
          { header: 'Reached', width: 10 },
          { header: 'Passed', width: 10 },
          { header: 'Rate (%)', width: 10 },
        ],
        rows: once(r.pass_through.map((s) => [s.name, s.reached, s.passed, s.rate])),
      },
      {
        sheetName: 'Rejection reasons',
        columns: [
          { header: 'Reason', width: 36 },
          { header: 'Applications', width: 14 },
        ],
        rows: once(r.rejection_reasons.map((x) => [x.reason, x.applications])),
      },
      {
        sheetName: 'Scorecards on time',
        columns: [
          { header: 'Figure', width: 36 },
          { header: 'Scorecards', width: 14 },
        ],
        rows: once([
          ['Asked for', r.scorecards.requested],
          ['Submitted', r.scorecards.submitted],
          ['Submitted on time (within 24 h)', r.scorecards.on_time],
          ['Submitted late', r.scorecards.late],
          ['Overdue (not submitted)', r.scorecards.overdue],
          ['Not yet due', r.scorecards.waiting],
          ['On time (% of those due)', r.scorecards.on_time_rate],
        ]),
      },
      {
        sheetName: 'Attributes and outcome',
        columns: [
          { header: 'Job', width: 30 },
          { header: 'Decisions', width: 10 },
          { header: 'Attribute', width: 28 },
          { header: 'Hired average', width: 14 },
          { header: 'Rejected average', width: 16 },
          { header: 'Difference', width: 12 },
          { header: 'Agreement (%)', width: 14 },
          { header: 'Rating pairs', width: 12 },
        ],
        rows: once([
          ...r.predictors.jobs.flatMap((j) =>
            j.attributes.map((a): CellValue[] => [
              j.title,
              j.decisions,
              a.name,
              a.hired_average,
              a.rejected_average,
              a.difference,
              a.agreement,
              a.pairs,
            ]),
          ),
          ...r.predictors.below_minimum.map((j): CellValue[] => [
            j.title,
            j.decisions,
            `Below the minimum of ${r.predictors.min_decisions} decisions: not shown`,
            null,
            null,
            null,
            null,
            null,
          ]),
        ]),
      },
      {
        sheetName: 'Funnel',
        columns: [
          { header: 'Step', width: 36 },
          { header: 'Count', width: 12 },
          { header: 'Counted from', width: 16 },
        ],
        rows: once([...r.funnel.lines.map((l): CellValue[] => [l.label, l.count, l.source]), ['Note', r.funnel.anchor, null]]),
      },
    ],
  };
}
