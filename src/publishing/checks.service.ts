/**
 * A job's publishing checks (issue 34), run on the job as it would be saved (the gate) and as
 * stored (GET /api/hr/jobs/{id}/checks/, the job editor's checklist):
 * - pay_rule: the pay rules of the job's location (lib/location.ts): a range where one is
 *   required, no wider than the rule's width (lib/pay.ts);
 * - salary_history: no screening question asks for current or past pay (lib/salary-words.ts),
 *   judged on its text, help text, placeholder and options. (Forms are not linked to jobs in this
 *   app: a job's questions are the only ones its applicants answer.)
 * - closing_date: the job has one;
 * - structured_data: the JobPosting JSON-LD the job page carries has what Google requires
 *   (title, description, datePosted, hiringOrganization, jobLocation or, for a remote job, the
 *   countries applicants may live in) and recommends (validThrough, baseSalary, the logo);
 * - consent: APPLY_CONSENT_TEXT is set where the job's country is under the GDPR (the EU, the
 *   EEA, the UK, Switzerland);
 * - retention: APPLICATION_RETENTION_DAYS is set.
 * Which checks block activation is JOB_CHECKS_BLOCK (pay_rule and salary_history by default);
 * the others warn.
 */
import type { Config } from '../../config/index.js';
import type { Db } from '../db/knex.js';
import type { JobCheckKey } from '../shared/job-checks.js';
import { hasRichContent, utcDateTime } from '../shared/format.js';
import { jobPostingJsonLd, type Job } from '../jobs/index.js';
import { jobCountries, jobPlaces, ruleApplies, type Place } from './lib/location.js';
import { payProblems, placeList } from './lib/pay.js';
import { salaryHistoryWords } from './lib/salary-words.js';
import { listRules } from './queries.js';
import type { ChecksOverride, JobCheck, PayRule } from './types.js';

export type CheckConfig = Pick<
  Config,
  'jobChecksBlock' | 'applyConsentText' | 'applicationRetentionDays' | 'company' | 'publicBaseUrl' | 'jobApproval'
>;

export interface PublishingDeps {
  db: Db;
  config: CheckConfig;
}

export const CHECK_LABELS: Record<JobCheckKey, string> = {
  pay_rule: 'Pay range',
  salary_history: 'No questions about current or past pay',
  closing_date: 'Closing date',
  structured_data: "Google's job search data (JSON-LD)",
  consent: 'Consent text',
  retention: 'Retention period',
};

/** A problem a failing check names, with the job's field it is about. */
export interface CheckProblem {
  field: string;
  message: string;
}

interface Finding {
  key: JobCheckKey;
  ok: boolean;
  reason: string;
  problems: CheckProblem[];
}

/** Countries under the GDPR or a law like it (a consent text is expected there): the EU, the EEA, the UK, Switzerland. */
const GDPR_COUNTRIES = new Set(
  'AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE IS LI NO GB CH'.split(' '),
);

const failed = (key: JobCheckKey, problems: CheckProblem[]): Finding => ({
  key,
  ok: false,
  reason: [...new Set(problems.map((p) => p.message))].join(' '),
  problems,
});

function payFinding(job: Job, rules: PayRule[], places: Place[]): Finding {
  const applying = rules.filter((r) => ruleApplies(r, places));
  if (!applying.length)
    return {
      key: 'pay_rule',
      ok: true,
      reason: `No pay rule covers “${job.location}”. A range is still good practice.`,
      problems: [],
    };
  const problems = payProblems(applying, job);
  if (problems.length) return failed('pay_rule', problems);
  return {
    key: 'pay_rule',
    ok: true,
    reason: `Meets the pay ${applying.length === 1 ? 'rule' : 'rules'} of ${placeList(applying.map((r) => r.label))}.`,
    problems: [],
  };
}

function questionsFinding(job: Job): Finding {
  const problems: CheckProblem[] = [];
  job.questions.forEach((q, i) => {
    const texts: [string, string][] = [
      ['text', q.text],
      ['help_text', q.help_text],
      ['placeholder', q.placeholder],
      ...q.options.map((o): [string, string] => ['options', o]),
    ];
    for (const [field, text] of texts) {
      const words = salaryHistoryWords(text);
      if (!words) continue;
      problems.push({
        field: `questions.${i}.${field}`,
        message: `Question ${i + 1} asks for current or past pay (“${words}”), which the EU and several US states forbid: remove it, or ask for the expected pay instead.`,
      });
      break;
    }
  });
  if (problems.length) return failed('salary_history', problems);
  return {
    key: 'salary_history',
    ok: true,
    reason: job.questions.length ? 'No screening question asks for current or past pay.' : 'The job has no screening questions.',
    problems: [],
  };
}

function closingFinding(job: Job, now: Date): Finding {
  if (!job.closes_at)
    return failed('closing_date', [
      {
        field: 'closes_at',
        message: 'No closing date: set one, so the job leaves the careers site and search results when hiring ends.',
      },
    ]);
  if (job.closes_at.getTime() <= now.getTime())
    return failed('closing_date', [
      { field: 'closes_at', message: `The closing date (${utcDateTime(job.closes_at)}) has passed: set a new one, or clear it.` },
    ]);
  return { key: 'closing_date', ok: true, reason: `Applications close on ${utcDateTime(job.closes_at)}.`, problems: [] };
}

function structuredDataFinding(job: Job, config: CheckConfig): Finding {
  const data = jobPostingJsonLd(job, config) as Record<string, any>;
  const required: CheckProblem[] = [];
  const recommended: CheckProblem[] = [];
  if (!job.title.trim()) required.push({ field: 'title', message: 'title' });
  if (![job.description, job.responsibilities, job.requirements, job.perks_benefits].some(hasRichContent))
    required.push({ field: 'description', message: 'description (the job has no description text)' });
  if (job.work_mode === 'REMOTE') {
    if (!data.applicantLocationRequirements)
      required.push({
        field: 'applicant_countries',
        message:
          'applicantLocationRequirements (the countries remote applicants may live in: set Applicant countries, or name one country in Location)',
      });
  } else if (!data.jobLocation?.address?.addressCountry) {
    required.push({
      field: 'location',
      message: 'jobLocation with its country (write the country last in Location, as in “Berlin, Germany”)',
    });
  }
  if (!data.validThrough) recommended.push({ field: 'closes_at', message: 'validThrough (a closing date)' });
  if (!data.baseSalary) recommended.push({ field: 'min_salary', message: 'baseSalary (a pay range)' });
  if (!data.hiringOrganization?.logo) recommended.push({ field: 'detail', message: 'hiringOrganization.logo (COMPANY_LOGO_URL)' });
  if (!required.length && !recommended.length)
    return {
      key: 'structured_data',
      ok: true,
      reason:
        'Complete for Google: title, description, datePosted, hiringOrganization with its logo, the location, baseSalary and validThrough.',
      problems: [],
    };
  const parts = [
    required.length ? `Google's job search requires ${required.map((p) => p.message).join('; ')}.` : '',
    recommended.length ? `It recommends ${recommended.map((p) => p.message).join('; ')}.` : '',
  ].filter(Boolean);
  const fields = [...required, ...recommended].map((p) => p.field);
  const reason = parts.join(' ');
  return { key: 'structured_data', ok: false, reason, problems: [...new Set(fields)].map((field) => ({ field, message: reason })) };
}

function consentFinding(places: Place[], config: CheckConfig): Finding {
  if (config.applyConsentText) {
    const text = config.applyConsentText.length > 120 ? `${config.applyConsentText.slice(0, 117)}…` : config.applyConsentText;
    return { key: 'consent', ok: true, reason: `Applicants agree to: “${text}” (APPLY_CONSENT_TEXT).`, problems: [] };
  }
  const under = jobCountries(places).filter((c) => GDPR_COUNTRIES.has(c));
  if (!under.length)
    return {
      key: 'consent',
      ok: true,
      reason: "No consent is asked (APPLY_CONSENT_TEXT is unset); the job's location does not call for one.",
      problems: [],
    };
  return failed('consent', [
    {
      field: 'detail',
      message: `Applicants in ${under.join(', ')} are under the GDPR, but no consent text is set: set APPLY_CONSENT_TEXT, so the apply wizard asks for consent and keeps it with each application.`,
    },
  ]);
}

function retentionFinding(config: CheckConfig): Finding {
  const days = config.applicationRetentionDays;
  if (days)
    return {
      key: 'retention',
      ok: true,
      reason: `Applications are kept ${days} ${days === 1 ? 'day' : 'days'} (APPLICATION_RETENTION_DAYS): careers-admin applicants purge removes older ones.`,
      problems: [],
    };
  return failed('retention', [
    {
      field: 'detail',
      message:
        'No retention period is set: applications are kept until someone purges them. Set APPLICATION_RETENTION_DAYS to what your privacy notice promises, and run careers-admin applicants purge on a schedule.',
    },
  ]);
}

/** Every check of the job, in the checklist's order, with the problems of each failing one. */
export async function runChecks(
  deps: PublishingDeps,
  job: Job,
  now: Date,
): Promise<{ findings: Finding[]; checks: (JobCheck & { problems: CheckProblem[] })[] }> {
  const rules = await listRules(deps.db);
  const places = jobPlaces(job);
  const findings = [
    payFinding(job, rules, places),
    questionsFinding(job),
    closingFinding(job, now),
    structuredDataFinding(job, deps.config),
    consentFinding(places, deps.config),
    retentionFinding(deps.config),
  ];
  const checks = findings.map((f) => {
    const blocking = deps.config.jobChecksBlock.includes(f.key);
    return {
      key: f.key,
      label: CHECK_LABELS[f.key],
      status: f.ok ? ('pass' as const) : blocking ? ('block' as const) : ('warn' as const),
      reason: f.reason,
      blocking,
      overridden: false,
      fields: [...new Set(f.problems.map((p) => p.field))],
      problems: f.problems,
    };
  });
  return { findings, checks };
}

/** The reasons that refuse activation: every problem of a failing blocking check. */
export function blockingReasons(checks: { status: string; problems: CheckProblem[] }[]): CheckProblem[] {
  return checks.filter((c) => c.status === 'block').flatMap((c) => c.problems);
}

/** Whether an override still covers these reasons: every one of them was among those it overrode. */
export function overrideCovers(override: ChecksOverride | null, reasons: CheckProblem[]): boolean {
  return !!override && reasons.length > 0 && reasons.every((r) => override.reasons.includes(r.message));
}
