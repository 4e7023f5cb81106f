/**
 * careers-admin applicants purge | erase: retention of applications (issue 11).
 * - purge [--older-than <age>] [--status S] [--job ID]: applications older than the age (by default
 *   APPLICATION_RETENTION_DAYS, issue 34);
 * - erase --email ADDRESS: every application of one applicant, the form entries whose email
 *   field holds the address, and the address's job alerts (issue 35), for a privacy request.
 * Both print what they remove and ask first unless --yes; --dry-run only prints. Rows go in one
 * transaction, then the files (removeApplications, removeEntries; the run in removal.ts).
 */
import type { Command } from 'commander';
import { emailError, storedEmail } from '../shared/application-rules.js';
import type { RemovalCriteria, RemovalSummary } from '../applicants/index.js';
import { parseRetentionAge } from '../applicants/retention.schema.js';
import { statusOptionSchema } from '../applicants/review.schema.js';
import type { EntryCriteria, EntryRemoval } from '../forms/index.js';
import { APPLICATION_STATUSES } from '../shared/enums.js';
import { CliError, cliConfig, cliOption, withDb } from './context.js';
import { jobIdFor, jobOption } from './jobs.js';
import { printable, table } from './print.js';
import { files, runRemoval, type RemovalPart, type RunOptions } from './removal.js';

const applications = (n: number) => (n === 1 ? '1 application' : `${n} applications`);
const entries = (n: number) => (n === 1 ? '1 form entry' : `${n} form entries`);

function describe(s: RemovalSummary): string {
  const jobs = [...s.byJob].map(([job, n]) => `job ${job}: ${n}`).join(', ');
  return `${applications(s.applications)} with ${files(s.files)}${jobs ? ` (${jobs})` : ''}`;
}

function describeEntries(s: EntryRemoval): string {
  const forms = [...s.byForm].map(([form, n]) => `form ${form}: ${n}`).join(', ');
  return `${entries(s.entries)} with ${files(s.files)}${forms ? ` (${forms})` : ''}`;
}

/** Applications matching `criteria`. */
function applicationsPart(criteria: RemovalCriteria, action: 'purge' | 'erase'): RemovalPart {
  return {
    plan: async (db) => {
      const { planRemoval } = await import('../applicants/index.js');
      const plan = await planRemoval({ db }, criteria);
      const more = plan.applications - plan.preview.length;
      const rows = plan.preview.map((a) => [String(a.id), a.created_at.slice(0, 16).replace('T', ' '), printable(a.job_title)]);
      const listing = `${table([['ID', 'APPLIED (UTC)', 'JOB'], ...rows])}${more > 0 ? `\n… and ${applications(more)} more` : ''}`;
      return { count: plan.applications, text: describe(plan), listing };
    },
    remove: async (deps) => {
      const [{ removeApplications }, { processLog }] = await Promise.all([import('../applicants/index.js'), import('../log/logger.js')]);
      const result = await removeApplications({ ...deps, log: processLog() }, criteria, { action });
      return { text: describe(result), filesLeft: result.filesLeft.length };
    },
  };
}

const alertsText = (n: number) => (n === 1 ? '1 job alert' : `${n} job alerts`);

/** The job alerts of an erased address (issue 35), with the jobs they were sent. */
function alertsPart(email: string): RemovalPart {
  return {
    plan: async (db) => {
      const { hasSchema } = await import('../db/migrations.js');
      if (!(await hasSchema(db, 'job_alerts'))) return { count: 0, text: alertsText(0) };
      const { countAlertsOfAddress } = await import('../alerts/index.js');
      const n = await countAlertsOfAddress({ db }, email);
      return { count: n, text: alertsText(n) };
    },
    remove: async ({ db }) => {
      const { eraseAlertsOf } = await import('../alerts/index.js');
      return { text: alertsText(await eraseAlertsOf({ db }, email)), filesLeft: 0 };
    },
  };
}

/** Form entries matching `criteria` (forms purge; the entries of an erased address). */
export function entriesPart(criteria: EntryCriteria, action: 'purge' | 'erase'): RemovalPart {
  return {
    plan: async (db) => {
      const { planEntryRemoval } = await import('../forms/index.js');
      const plan = await planEntryRemoval(db, criteria);
      return { count: plan.entries, text: describeEntries(plan) };
    },
    remove: async (deps) => {
      const { removeEntries } = await import('../forms/index.js');
      const result = await removeEntries(deps, criteria, action);
      return { text: describeEntries(result), filesLeft: result.filesLeft.length };
    },
  };
}

export function registerApplicants(program: Command): void {
  const group = program.command('applicants').description('applications: retention (purge old ones, erase one applicant)');

  group
    .command('purge')
    .description('delete applications older than an age, with their answers, post records and resume files')
    .option(
      '--older-than <age>',
      'a whole number and a unit: h, d, w, mo (30 days) or y (365 days), e.g. 180d; by default APPLICATION_RETENTION_DAYS, in days',
    )
    .option('--status <status>', `only applications with this status (${APPLICATION_STATUSES.join(', ')})`)
    .option('--job <id>', 'only applications to this job (its numeric id or public id)')
    .option('--dry-run', 'print what would be removed, remove nothing')
    .option('--yes', 'do not ask for confirmation')
    .action(async (opts: RunOptions & { olderThan?: string; status?: string; job?: string }) => {
      // Issue 34: the retention period the privacy notice promises, when --older-than is not given.
      const days = opts.olderThan === undefined ? cliConfig().applicationRetentionDays : null;
      if (opts.olderThan === undefined && !days)
        throw new CliError('Give --older-than <age> (e.g. 180d), or set APPLICATION_RETENTION_DAYS to purge what is older than it.', 2);
      const age = parseRetentionAge(opts.olderThan ?? `${days}d`);
      if ('error' in age) throw new CliError(age.error, 2);
      const status = cliOption(statusOptionSchema, '--status', opts.status);
      const job = jobOption(opts.job);
      const jobId = job && (await withDb((db) => jobIdFor(db, job)));
      const criteria: RemovalCriteria = { createdBefore: new Date(Date.now() - age.ms), status, jobId };
      await runRemoval([applicationsPart(criteria, 'purge')], opts, 'No applications match: nothing to remove.');
    });

  group
    .command('erase')
    .description('delete every application of one applicant (a privacy request), with their files')
    .requiredOption('--email <address>', "the applicant's email address")
    .option('--dry-run', 'print what would be removed, remove nothing')
    .option('--yes', 'do not ask for confirmation')
    .action(async (opts: RunOptions & { email: string }) => {
      // The apply form's own rule and stored form, so erase matches exactly what applying stored.
      const email = storedEmail(opts.email);
      if (emailError(email)) throw new CliError(`--email must be an email address (got "${opts.email}")`, 2);
      // Form entries whose email field holds the address go too (issue 17).
      await runRemoval(
        [applicationsPart({ email }, 'erase'), entriesPart({ email }, 'erase'), alertsPart(email)],
        opts,
        'No applications, form entries or job alerts match: nothing to remove.',
      );
    });
}
