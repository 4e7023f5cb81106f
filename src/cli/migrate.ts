import type { Command } from 'commander';
import { migrateLatest, migrationStatus, rollbackLastBatch } from '../db/migrations.js';
import inquirer from 'inquirer';
import type { Db } from '../db/knex.js';
import { CliError, withDb } from './context.js';

/**
 * A rollback drops what the last batch made (tables and their rows): it asks first, as purge and
 * erase do; --yes skips the question, and without a terminal it is required.
 */
async function confirmRollback(db: Db, yes: boolean): Promise<void> {
  const { applied } = await migrationStatus(db);
  if (yes || !applied.length) return;
  if (!process.stdin.isTTY) throw new CliError('No terminal to confirm on: pass --yes to roll back without asking.', 2);
  const message = `Roll back the last batch of migrations (the latest is ${applied[applied.length - 1]})? What it made goes, with its data. This cannot be undone.`;
  const { ok } = await inquirer.prompt<{ ok: boolean }>([{ type: 'confirm', name: 'ok', default: false, message }]);
  if (!ok) throw new CliError('Nothing rolled back.', 1);
}

export function registerMigrate(program: Command): void {
  program
    .command('migrate')
    .description('apply pending migrations (default), show their status, or roll back the last batch')
    .argument('[action]', 'latest | status | rollback', 'latest')
    .option('--yes', 'rollback: do not ask for confirmation (required without a terminal)')
    .action(async (action: string, opts: { yes?: boolean }) => {
      if (!['latest', 'status', 'rollback'].includes(action)) throw new CliError(`Unknown migrate action "${action}". Use latest, status or rollback.`, 2);
      await withDb(async (db) => {
        if (action === 'latest') {
          const { batch, names } = await migrateLatest(db);
          console.log(names.length ? `Batch ${batch}: applied ${names.join(', ')}` : 'Already up to date.');
        } else if (action === 'status') {
          const { applied, pending } = await migrationStatus(db);
          for (const name of applied) console.log(`applied  ${name}`);
          for (const name of pending) console.log(`pending  ${name}`);
          if (!applied.length && !pending.length) console.log('No migrations.');
        } else {
          await confirmRollback(db, opts.yes === true);
          const { batch, names } = await rollbackLastBatch(db);
          console.log(names.length ? `Rolled back batch ${batch}: ${names.join(', ')}` : 'Nothing to roll back.');
        }
      }, { create: action === 'latest' });
    });
}
