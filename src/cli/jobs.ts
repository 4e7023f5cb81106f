import fs from 'node:fs';
import type { Command } from 'commander';
import type { Db } from '../db/knex.js';
import type { SeedError } from '../jobs/index.js';
import { jobOptionSchema } from '../jobs/schema.js';
import { printable, table } from './print.js';
import { CliError, cliOption, withDb } from './context.js';

/** `--job` as HR names a job: its numeric id or the public id Manage Jobs shows; a malformed value is a usage error (exit 2). */
export const jobOption = (raw: string | undefined) => cliOption(jobOptionSchema(), '--job', raw);

/** The job a `--job` names; one that names no job stops with exit 1. */
export async function jobIdFor(db: Db, ref: ReturnType<typeof jobOption>): Promise<number | undefined> {
  if (!ref) return undefined;
  const { jobIdOf } = await import('../jobs/index.js');
  const id = await jobIdOf(db, ref);
  if (id === null) throw new CliError(`--job: no job ${'publicId' in ref ? `with the public id "${printable(ref.publicId)}"` : ref.id}.`);
  return id;
}

function reportSeedError(err: SeedError): CliError {
  const lines = err.problems.map((p) => {
    const where = p.index < 0 ? 'file' : `record ${p.index}${p.title ? ` (${JSON.stringify(printable(p.title))})` : ''}`;
    const what = Object.entries(p.errors)
      .map(([field, msgs]) => `${field}: ${([] as unknown[]).concat(msgs).join(' ')}`)
      .join('; ');
    return `  ${where}: ${what}`;
  });
  return new CliError(`${err.message}\n${lines.join('\n')}`);
}

export function registerJobs(program: Command): void {
  const jobs = program.command('jobs').description('job posts');
  jobs
    .command('list')
    .description('list every job (removed ones too): id, public id, title, status, applications')
    .action(async () => {
      await withDb(async (db) => {
        const [{ hasSchema }, { listJobChoices }, { applicantCounts }] = await Promise.all([
          import('../db/migrations.js'),
          import('../jobs/index.js'),
          import('../applicants/index.js'),
        ]);
        if (!(await hasSchema(db, 'jobs'))) throw new CliError('The database has no tables yet: run "careers-admin migrate" first.');
        const [all, counts] = await Promise.all([listJobChoices(db), applicantCounts(db)]);
        if (!all.length) {
          console.log('No jobs yet. Add some with: careers-admin jobs seed --demo (or --file jobs.json)');
          return;
        }
        all.sort((a, b) => a.id - b.id);
        console.log(
          table([
            ['ID', 'PUBLIC ID', 'TITLE', 'STATUS', 'APPLICATIONS'],
            ...all.map((j) => [String(j.id), printable(j.public_id), printable(j.title), j.status, String(counts.get(j.id) ?? 0)]),
          ]),
        );
      });
    });
  jobs
    .command('seed')
    .description('add the demo jobs (--demo) or jobs from a JSON file (--file jobs.json)')
    .option('--demo', 'a dozen realistic demo jobs')
    .option('--file <path>', 'a JSON array of job objects (the fields of POST /api/hr/jobs/)')
    .option(
      '--override-checks <note>',
      "an administrator's override of the publishing checks that would refuse an active job (a pay range, a salary-history question), with why; audited",
    )
    .action(async (opts: { demo?: boolean; file?: string; overrideChecks?: string }) => {
      if (!!opts.demo === !!opts.file) throw new CliError('Give exactly one of --demo or --file <path>.', 2);
      if (opts.overrideChecks !== undefined && !opts.overrideChecks.trim())
        throw new CliError('--override-checks: write why the checks may be overridden.', 2);
      await withDb(async (db, config) => {
        const [{ migrateLatest }, { SeedError, importJobRecords, seedDemoJobs }, { publishingPolicy }] = await Promise.all([
          import('../db/migrations.js'),
          import('../jobs/index.js'),
          import('../publishing/index.js'),
        ]);
        await migrateLatest(db);
        // Issue 34: active jobs pass the same publishing checks as the API's saves.
        const rules = { policy: publishingPolicy({ db, config, now: () => new Date() }), overrideNote: opts.overrideChecks };
        try {
          if (opts.demo) {
            const n = await seedDemoJobs(db, new Date(), rules);
            console.log(n ? `Added ${n} demo jobs.` : 'Demo jobs are already there; nothing added.');
            return;
          }
          let records: unknown;
          try {
            // Editors on Windows often save UTF-8 with a byte-order mark, which JSON.parse refuses.
            records = JSON.parse(fs.readFileSync(opts.file!, 'utf8').replace(/^\uFEFF/, ''));
          } catch (e) {
            throw new CliError(`Cannot read ${opts.file}: ${(e as Error).message}`);
          }
          const n = await importJobRecords(db, records, { allowPrivateWebhook: config.webhookAllowPrivate, rules });
          console.log(`Imported ${n} job(s) from ${printable(opts.file)}.`);
        } catch (err) {
          throw err instanceof SeedError ? reportSeedError(err) : err;
        }
      });
    });
  jobs
    .command('remove-demo')
    .description('remove the demo jobs "jobs seed --demo" added, and nothing else (a demo job edited since, or with applications, is kept)')
    .option('--dry-run', 'only list what would be removed and kept')
    .action(async (opts: { dryRun?: boolean }) => {
      await withDb(async (db) => {
        const [{ hasSchema }, { removeDemoJobs }] = await Promise.all([import('../db/migrations.js'), import('../jobs/index.js')]);
        if (!(await hasSchema(db, 'jobs'))) throw new CliError('The database has no tables yet: run "careers-admin migrate" first.');
        const { removed, kept } = await removeDemoJobs(db, !!opts.dryRun);
        const name = (j: { public_id: string; title: string }) => `${printable(j.public_id)} (${printable(j.title)})`;
        if (!removed.length && !kept.length) {
          console.log('No demo jobs to remove.');
          return;
        }
        if (removed.length)
          console.log(
            `${opts.dryRun ? 'Would remove' : 'Removed'} ${removed.length} demo job${removed.length === 1 ? '' : 's'}: ${removed.map(name).join(', ')}.`,
          );
        for (const k of kept) console.log(`Kept ${name(k)}: ${k.reason}.`);
      });
    });
}
