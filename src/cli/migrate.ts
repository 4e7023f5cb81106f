import type { Command } from 'commander';
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
          const [batch, names] = await db.migrate.latest();
          console.log(names.length ? `Batch ${batch}: applied ${names.join(', ')}` : 'Already up to date.');
        } else if (action === 'status') {
          const [done, pending] = (await db.migrate.list()) as [{ name: string }[], { file: string }[] | string[]];
          for (const m of done) console.log(`applied  ${m.name}`);
          for (const m of pending) console.log(`pending  ${typeof m === 'string' ? m : m.file}`);
          if (!done.length && !pending.length) console.log('No migrations.');
        } else {
          const [batch, names] = await db.migrate.rollback();
          console.log(names.length ? `Rolled back batch ${batch}: ${names.join(', ')}` : 'Nothing to roll back.');
        }
      });
    });
}
