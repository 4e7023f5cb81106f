/**
 * careers-admin forms purge --older-than AGE [--form ID]: form entries older than an age, with
 * their files and API posts (retention, as `applicants purge` does for applications).
 */
import type { Command } from 'commander';
import { parseRetentionAge } from '../applicants/retention.schema.js';
import { formOptionSchema } from '../forms/schema.js';
import { entriesPart } from './applicants.js';
import { CliError, cliOption } from './context.js';
import { runRemoval, type RunOptions } from './removal.js';

export function registerForms(program: Command): void {
  const group = program.command('forms').description('form entries: retention');
  group
    .command('purge')
    .description('delete form entries older than an age, with their files and API posts')
    .requiredOption('--older-than <age>', 'a whole number and a unit: h, d, w, mo (30 days) or y (365 days), e.g. 180d')
    .option('--form <id>', 'only entries of this form (its numeric id)')
    .option('--dry-run', 'print what would be removed, remove nothing')
    .option('--yes', 'do not ask for confirmation')
    .action(async (opts: RunOptions & { olderThan: string; form?: string }) => {
      const age = parseRetentionAge(opts.olderThan);
      if ('error' in age) throw new CliError(age.error, 2);
      const criteria = { createdBefore: new Date(Date.now() - age.ms), formId: cliOption(formOptionSchema(), '--form', opts.form) };
      await runRemoval([entriesPart(criteria, 'purge')], opts, 'No form entries match: nothing to remove.');
    });
}
