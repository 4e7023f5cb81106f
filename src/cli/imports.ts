/**
 * careers-admin import candidates (issue 35): a CSV file's rows as applications, as the upload on
 * /hr/settings/import does (src/imports/). Prints what was imported, merged and refused (a line
 * per merged or refused row, with why); exits 1 when a refused row stopped the run (nothing
 * written: all or nothing unless --partial), 0 otherwise.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { CliError, withDb } from './context.js';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function registerImports(program: Command): void {
  const group = program.command('import').description('bring data in from other systems');

  group
    .command('candidates')
    .description('import candidates from a CSV file (a Greenhouse or Lever export, or your own) as applications')
    .requiredOption('--file <path>', 'the CSV file (header row first)')
    .option('--resumes <dir>', 'a folder holding the files a "Resume" column names')
    .option('--job <id>', 'the job every row applies to (else each row names one in a "Job" column)')
    .option('--dry-run', 'check every row and print the report; write nothing')
    .option('--partial', 'write the rows that pass even when others are refused')
    .action(async (opts: { file: string; resumes?: string; job?: string; dryRun?: boolean; partial?: boolean }) => {
      if (opts.job !== undefined && !/^[1-9]\d{0,9}$/.test(opts.job))
        throw new CliError(`--job must be the numeric id of a job (got "${opts.job}")`, 2);
      let csv: Buffer;
      try {
        csv = fs.readFileSync(opts.file);
      } catch (err) {
        throw new CliError(`Cannot read ${opts.file}: ${(err as Error).message}`, 2);
      }
      const folder = opts.resumes ? path.resolve(opts.resumes) : null;
      if (folder && !fs.statSync(folder, { throwIfNoEntry: false })?.isDirectory())
        throw new CliError(`--resumes ${opts.resumes} is not a folder`, 2);
      await withDb(async (db, config) => {
        const [{ importCandidates, ImportFileProblem }, { CsvProblem }, { createStorage }, { processLog }] = await Promise.all([
          import('../imports/index.js'),
          import('../documents/csv.js'),
          import('../storage/create.js'),
          import('../log/logger.js'),
        ]);
        const resumes = folder
          ? async (name: string) => {
              const file = path.join(folder, name);
              const stat = fs.statSync(file, { throwIfNoEntry: false });
              return stat?.isFile() && path.dirname(file) === folder ? fs.readFileSync(file) : null;
            }
          : null;
        const report = await importCandidates(
          { db, storage: createStorage(config), config, now: () => new Date(), log: processLog() },
          {
            csv,
            resumes,
            jobId: opts.job ? Number(opts.job) : null,
            dryRun: Boolean(opts.dryRun),
            partial: Boolean(opts.partial),
            userId: null,
          },
        ).catch((err) => {
          throw err instanceof ImportFileProblem || err instanceof CsvProblem ? new CliError(err.message) : err;
        });
        const verb = report.written ? 'Imported' : report.dry_run ? 'Would import' : 'Not imported';
        console.log(
          `${report.rows} ${report.rows === 1 ? 'row' : 'rows'} read from ${opts.file}${report.dry_run ? ' (dry run: nothing written)' : ''}.`,
        );
        console.log(
          `${verb}: ${plural(report.imported.length, 'new application', 'new applications')}; merged into existing applications: ${report.merged.length}; refused: ${report.refused.length}.`,
        );
        for (const r of report.imported.filter((x) => x.note)) console.log(`  line ${r.line} (${r.email}): ${r.note}`);
        for (const r of report.merged)
          console.log(`  line ${r.line} (${r.email}): merged into application #${r.application_id} (${r.job})`);
        for (const r of report.refused) console.log(`  line ${r.line} (${r.email || 'no email'}): refused: ${r.reason}`);
        if (!report.written && !report.dry_run && report.refused.length)
          throw new CliError('Nothing was imported: fix the refused rows, or run again with --partial to import the others.');
      });
    });
}
