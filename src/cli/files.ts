/**
 * careers-admin files sweep [--older-than-minutes N]: removes uploaded files that no database row
 * points at (left behind when a process died between writing a file and committing its row), then
 * empty fan-out folders. The server does the same at start and daily (src/storage/sweep.ts).
 */
import fs from 'node:fs';
import type { Command } from 'commander';
import { DEFAULT_SWEEP_GRACE_MS, sweepOrphanFiles } from '../storage/sweep.js';
import { printable } from './print.js';
import { CliError, withDb } from './context.js';

const DEFAULT_MINUTES = DEFAULT_SWEEP_GRACE_MS / 60_000;

const files = (n: number) => (n === 1 ? '1 file' : `${n} files`);
const folders = (n: number) => (n === 1 ? '1 empty folder' : `${n} empty folders`);

export function registerFiles(program: Command): void {
  const group = program.command('files').description('uploaded files');
  group
    .command('sweep')
    .description('remove uploaded files that no database row points at, then empty folders')
    .option(
      '--older-than-minutes <n>',
      `only files unchanged for at least this many minutes, so uploads in flight are left alone (0 = every file without a row)`,
      String(DEFAULT_MINUTES),
    )
    .action(async (opts: { olderThanMinutes: string }) => {
      const raw = String(opts.olderThanMinutes).trim();
      if (!/^\d{1,7}$/.test(raw))
        throw new CliError(`--older-than-minutes must be a whole number of minutes (got "${opts.olderThanMinutes}")`, 2);
      const minutes = Number(raw);
      await withDb(async (db, config) => {
        const [{ hasSchema }, { createStorage, describeStorage }] = await Promise.all([
          import('../db/migrations.js'),
          import('../storage/create.js'),
        ]);
        if (!(await hasSchema(db, 'stored_files')))
          throw new CliError('The database has no tables yet: run "careers-admin migrate" first.');
        // A missing uploads folder is not made by the sweep (LocalDiskStorage would make it).
        if (config.storage.kind === 'local' && !fs.existsSync(config.storage.root)) {
          console.log(`No uploads folder at ${printable(config.storage.root)}: nothing to sweep.`);
          return;
        }
        const storage = createStorage(config);
        const result = await sweepOrphanFiles(db, storage, { olderThanMs: minutes * 60_000 });
        for (const key of result.removed) console.log(`removed ${printable(key)}`);
        const young = result.keptYoung ? ` ${files(result.keptYoung)} without a row kept: changed in the last ${minutes} minutes.` : '';
        console.log(
          `Checked ${files(result.scanned)} in ${printable(describeStorage(storage))}: removed ${files(result.removed.length)} with no database row and ${folders(result.foldersRemoved)}.${young}`,
        );
      });
    });
}
