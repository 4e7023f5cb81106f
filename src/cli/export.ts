/**
 * careers-admin export applicants | posts | entries | form-posts: the HR screens' workbooks
 * written to a file, from the same services the download routes use. The file appears whole or
 * not at all: rows go to a temporary file beside it, renamed at the end.
 */
import fs from 'node:fs';
import os from 'node:os';
import { once } from 'node:events';
import path from 'node:path';
import type { Command } from 'commander';
import { applicantFilters, applicantListQuerySchema } from '../applicants/review.schema.js';
import { jobIdFor, jobOption } from './jobs.js';
import type { Db } from '../db/knex.js';
import type { WorkbookSpec } from '../exports/xlsx.js';
import { formOptionSchema } from '../forms/schema.js';
import { postStatusSchema } from '../posts/schema.js';
import { CliError, cliOption, withDb } from './context.js';
import { printable } from './print.js';

interface OutOptions {
  out?: string;
  force?: boolean;
  quiet?: boolean;
}

const rowsText = (n: number) => (n === 1 ? '1 row' : `${n} rows`);

/** A rows-and-rate bar on stderr, only for a person at a terminal (never in --quiet, logs or pipes). */
async function progress(name: string, quiet: boolean | undefined): Promise<((rows: number) => void) & { stop(): void }> {
  const started = Date.now();
  const bar =
    !quiet && process.stderr.isTTY
      ? new (await import('cli-progress')).default.SingleBar({
          format: `${printable(name)} | {value} rows | {rate} rows/s | {duration_formatted}`,
          stream: process.stderr,
          hideCursor: true,
          clearOnComplete: true,
          fps: 5,
        })
      : null;
  bar?.start(0, 0, { rate: 0 });
  const update = (rows: number) => bar?.update(rows, { rate: Math.round(rows / Math.max(0.001, (Date.now() - started) / 1000)) });
  return Object.assign(update, { stop: () => bar?.stop() });
}

/** The signals that end an export early: it removes its temporary file on each. */
const STOP_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'];

/** Writes `book` to --out (default: the screen's file name, here), refusing to replace a file unless --force. */
async function writeFile(book: WorkbookSpec, opts: OutOptions): Promise<void> {
  const target = path.resolve(opts.out ?? book.filename);
  if (!opts.force && fs.existsSync(target))
    throw new CliError(`${target} already exists: give --force to replace it, or choose another --out.`);
  // Same folder as the target, so the rename at the end is atomic (no copy across file systems).
  const tmp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.tmp`);
  const removeTmp = () => fs.rmSync(tmp, { force: true });
  // Ctrl-C, a stop (kill, systemd) and a dropped SSH session (SIGHUP) each remove the temporary
  // file, then end as the signal would have (exit 128 + its number).
  const onSignal = (signal: NodeJS.Signals) => {
    removeTmp();
    process.exit(128 + (os.constants.signals[signal] ?? 1));
  };
  for (const signal of STOP_SIGNALS) process.once(signal, onSignal);
  const bar = await progress(path.basename(target), opts.quiet);
  const { writeWorkbook } = await import('../exports/xlsx.js');
  try {
    const out = fs.createWriteStream(tmp, { flags: 'wx' });
    await once(out, 'open');
    // A write error (disk full) fails the export instead of being an unhandled 'error' event.
    const failed = once(out, 'error').then(([err]) => Promise.reject(err));
    failed.catch(() => undefined);
    const rows = await Promise.race([writeWorkbook(out, book, bar), failed]);
    if (!out.closed) await Promise.race([once(out, 'close'), failed]);
    bar.stop();
    if (!opts.force && fs.existsSync(target))
      throw new CliError(`${target} appeared while exporting: not replaced; give --force to replace it.`);
    fs.renameSync(tmp, target);
    if (!opts.quiet) console.log(`${printable(target)}: ${rowsText(rows)}`);
  } catch (err) {
    bar.stop();
    removeTmp();
    throw err;
  } finally {
    for (const signal of STOP_SIGNALS) process.removeListener(signal, onSignal);
  }
}

/** Runs an export on the database; an unknown job or form (a 404 of the route) is said plainly. */
function exportWith(make: (db: Db) => Promise<WorkbookSpec> | WorkbookSpec, notFound: string, opts: OutOptions): Promise<void> {
  return withDb(async (db) => {
    const { NotFound } = await import('../http/errors.js');
    let book: WorkbookSpec;
    try {
      book = await make(db);
    } catch (err) {
      throw err instanceof NotFound ? new CliError(notFound) : err;
    }
    await writeFile(book, opts);
  });
}

const LIST_OPTIONS: Record<string, string> = { job_id: '--job', status: '--status', date_from: '--from', date_to: '--to' };

/** --status, --from and --to read by the applicants list's own query rule (the API's), as the list filters. */
function listFilters(opts: { status?: string; from?: string; to?: string }) {
  const raw = { status: opts.status?.trim().toUpperCase(), date_from: opts.from, date_to: opts.to };
  const r = applicantListQuerySchema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    const name = LIST_OPTIONS[String(issue.path[0])] ?? String(issue.path[0]);
    const got = ({ status: opts.status, date_from: opts.from, date_to: opts.to } as Record<string, string | undefined>)[
      String(issue.path[0])
    ];
    throw new CliError(`${name}: ${issue.message}${got === undefined ? '' : ` (got "${got}")`}`, 2);
  }
  return applicantFilters(r.data);
}

function withOut(cmd: Command): Command {
  return cmd
    .option('--out <file>', "the file to write (default: the screen's download name, in this folder)")
    .option('--force', 'replace the file if it exists')
    .option('--quiet', 'print only errors');
}

export function registerExport(program: Command): void {
  const group = program.command('export').description("write an HR screen's Excel workbook to a file");

  withOut(group.command('applicants'))
    .description(
      "applicants: with --job the job's workbook (one column per question, as on its insights); else the applicants list, filtered, with a job column",
    )
    .option('--job <id>', "one job's applicants (its numeric id or public id)")
    .option('--status <status>', 'without --job: NEW, REVIEWED or ARCHIVED')
    .option('--from <date>', 'without --job: applied on or after this day (YYYY-MM-DD, UTC)')
    .option('--to <date>', 'without --job: applied on or before this day (YYYY-MM-DD, UTC)')
    .action(async (opts: OutOptions & { job?: string; status?: string; from?: string; to?: string }) => {
      const job = jobOption(opts.job);
      if (job) {
        if (opts.status !== undefined || opts.from !== undefined || opts.to !== undefined)
          throw new CliError(
            "--status, --from and --to filter the applicants list: they do not go with --job (the job's workbook has every applicant).",
            2,
          );
        const { applicantsExport } = await import('../applicants/index.js');
        return exportWith(async (db) => applicantsExport({ db }, (await jobIdFor(db, job))!), '', opts);
      }
      const filters = listFilters(opts);
      const { applicantListExport } = await import('../applicants/index.js');
      return exportWith((db) => applicantListExport({ db }, filters), '', opts);
    });

  withOut(group.command('posts'))
    .description('the API Post Requests workbook of one status (the /hr/posts Export)')
    .requiredOption('--status <status>', 'SUCCESS, FAILED or PENDING')
    .action(async (opts: OutOptions & { status: string }) => {
      const status = cliOption(postStatusSchema, '--status', opts.status)!;
      const { applicationPostsExport } = await import('../posts/index.js');
      return exportWith((db) => applicationPostsExport(db, status), '', opts);
    });

  withOut(group.command('entries'))
    .description("a form's entries workbook")
    .requiredOption('--form <id>', "the form's numeric id")
    .action(async (opts: OutOptions & { form: string }) => {
      const formId = cliOption(formOptionSchema(), '--form', opts.form)!;
      const { entriesExport } = await import('../forms/index.js');
      return exportWith((db) => entriesExport(db, formId), `No form ${formId}.`, opts);
    });

  withOut(group.command('form-posts'))
    .description("a form's API posts workbook")
    .requiredOption('--form <id>', "the form's numeric id")
    .option('--status <status>', 'SUCCESS, FAILED or PENDING (default: every status)')
    .action(async (opts: OutOptions & { form: string; status?: string }) => {
      const formId = cliOption(formOptionSchema(), '--form', opts.form)!;
      const status = cliOption(postStatusSchema, '--status', opts.status) ?? '';
      const { formPostsWorkbook } = await import('../forms/index.js');
      return exportWith((db) => formPostsWorkbook(db, formId, status), `No form ${formId}.`, opts);
    });
}
