/**
 * careers-admin applicants purge | erase: retention of applications (issue 11).
 * - purge --older-than <age> [--status S] [--job ID]: applications older than the age;
 * - erase --email ADDRESS: every application of one applicant, for a privacy request.
 * Both print what they remove and ask first unless --yes; --dry-run only prints. Rows go in one
 * transaction, then the files (src/applicants/service.ts removeApplications).
 */
import path from 'node:path';
import type { Command } from 'commander';
import inquirer from 'inquirer';
import { emailError, storedEmail } from '../shared/application-rules.js';
import { parseRetentionAge, planRemoval, removeApplications, type RemovalCriteria, type RemovalSummary } from '../applicants/index.js';
import { hasSchema } from '../db/migrations.js';
import { APPLICATION_STATUSES, isOneOf } from '../shared/enums.js';
import { LocalDiskStorage } from '../storage/storage.js';
import { CliError, withDb } from './context.js';

const applications = (n: number) => (n === 1 ? '1 application' : `${n} applications`);
const files = (n: number) => (n === 1 ? '1 file' : `${n} files`);

function describe(s: RemovalSummary): string {
  const jobs = [...s.byJob].map(([job, n]) => `job ${job}: ${n}`).join(', ');
  return `${applications(s.applications)} with ${files(s.files)}${jobs ? ` (${jobs})` : ''}`;
}

interface RunOptions {
  dryRun?: boolean;
  yes?: boolean;
}

async function run(criteria: RemovalCriteria, action: 'purge' | 'erase', opts: RunOptions): Promise<void> {
  await withDb(async (db, config) => {
    if (!(await hasSchema(db, 'applications'))) throw new CliError('The database has no tables yet: run "careers-admin migrate" first.');
    const plan = await planRemoval({ db }, criteria);
    if (!plan.applications) {
      console.log('No applications match: nothing to remove.');
      return;
    }
    if (opts.dryRun) {
      console.log(`Dry run: would remove ${describe(plan)}.`);
      return;
    }
    if (!opts.yes) {
      if (!process.stdin.isTTY) throw new CliError('No terminal to confirm on: pass --yes to remove without asking.', 2);
      const { ok } = await inquirer.prompt<{ ok: boolean }>([
        { type: 'confirm', name: 'ok', default: false, message: `Remove ${describe(plan)}? This cannot be undone.` },
      ]);
      if (!ok) {
        console.log('Nothing removed.');
        return;
      }
    }
    const storage = new LocalDiskStorage(path.join(config.dataDir, 'uploads'));
    const result = await removeApplications({ db, storage, now: () => new Date() }, criteria, { action });
    console.log(`Removed ${describe(result)}.`);
    if (result.filesLeft.length) console.log(`${files(result.filesLeft.length)} could not be removed now; "careers-admin files sweep" removes them.`);
  });
}

export function registerApplicants(program: Command): void {
  const group = program.command('applicants').description('applications: retention (purge old ones, erase one applicant)');

  group
    .command('purge')
    .description('delete applications older than an age, with their answers, post records and resume files')
    .requiredOption('--older-than <age>', 'a whole number and a unit: h, d, w, mo (30 days) or y (365 days), e.g. 180d')
    .option('--status <status>', `only applications with this status (${APPLICATION_STATUSES.join(', ')})`)
    .option('--job <id>', 'only applications to this job (its numeric id)')
    .option('--dry-run', 'print what would be removed, remove nothing')
    .option('--yes', 'do not ask for confirmation')
    .action(async (opts: RunOptions & { olderThan: string; status?: string; job?: string }) => {
      const age = parseRetentionAge(opts.olderThan);
      if ('error' in age) throw new CliError(age.error, 2);
      const status = opts.status?.trim().toUpperCase();
      if (status !== undefined && !isOneOf(APPLICATION_STATUSES, status)) throw new CliError(`--status must be one of ${APPLICATION_STATUSES.join(', ')} (got "${opts.status}")`, 2);
      if (opts.job !== undefined && !/^[1-9]\d{0,9}$/.test(opts.job.trim())) throw new CliError(`--job must be a job id, a whole number (got "${opts.job}")`, 2);
      const criteria: RemovalCriteria = { createdBefore: new Date(Date.now() - age.ms), status, jobId: opts.job === undefined ? undefined : Number(opts.job) };
      await run(criteria, 'purge', opts);
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
      await run({ email }, 'erase', opts);
    });
}
