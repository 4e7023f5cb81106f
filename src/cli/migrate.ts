import type { Command } from 'commander';
import { migrateLatest, migrationStatus, rollbackLastBatch } from '../db/migrations.js';
import { CliError, withDb } from './context.js';

export function registerMigrate(program: Command): void {
  program
    .command('migrate')
    .description('apply pending migrations (default), show their status, or roll back the last batch')
    .argument('[action]', 'latest | status | rollback', 'latest')
    .action(async (action: string) => {
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
          const { batch, names } = await rollbackLastBatch(db);
          console.log(names.length ? `Rolled back batch ${batch}: ${names.join(', ')}` : 'Nothing to roll back.');
        }
      }, { create: action === 'latest' });
    });
}
