import type { Command } from 'commander';
import type { RollbackTarget } from '../db/migrations.js';
import { CliError, withDb } from './context.js';
import { printable } from './print.js';

/** The migrations a rollback undoes, newest first, each with what it drops; and whether any drops data. */
async function describeRollback(names: string[]): Promise<{ lines: string[]; dropsData: boolean }> {
  const { UNDO_DROPS } = await import('../db/migrations.js');
  const lines = names.map((name) => {
    const drops = UNDO_DROPS[name];
    return `  ${name}: ${drops === undefined ? 'unknown to this version: it may drop data' : drops === null ? 'no data dropped' : `drops ${drops}`}`;
  });
  return { lines, dropsData: names.some((name) => UNDO_DROPS[name] !== null) };
}

/**
 * A rollback undoes one migration by default (`--to NAME`: back to NAME, which stays applied;
 * `--all`: every one). It asks first, listing each migration it would undo and what that drops,
 * as purge and erase do; --yes skips the question, and without a terminal it is required.
 */
async function confirmRollback(names: string[], yes: boolean): Promise<void> {
  if (yes) return;
  const { lines, dropsData } = await describeRollback(names);
  const what = [
    `Roll back ${names.length === 1 ? 'this migration' : `these ${names.length} migrations, newest first`}:`,
    ...lines,
    dropsData ? 'Data will be dropped with them. This cannot be undone.' : 'No data is dropped (indexes and collations only).',
  ].join('\n');
  if (!process.stdin.isTTY) throw new CliError(`No terminal to confirm on: pass --yes to roll back without asking.\n${what}`, 2);
  const { default: inquirer } = await import('inquirer');
  const { ok } = await inquirer.prompt<{ ok: boolean }>([{ type: 'confirm', name: 'ok', default: false, message: `${what}\nRoll back?` }]);
  if (!ok) throw new CliError('Nothing rolled back.', 1);
}

function rollbackTarget(action: string, opts: { to?: string; all?: boolean }): RollbackTarget {
  if ((opts.to !== undefined || opts.all) && action !== 'rollback') throw new CliError('--to and --all go with migrate rollback only.', 2);
  if (opts.to !== undefined && opts.all) throw new CliError('Give --to NAME or --all, not both.', 2);
  if (opts.all) return { kind: 'all' };
  if (opts.to !== undefined) {
    const name = opts.to.trim();
    if (!name) throw new CliError('--to: give the name of an applied migration (see migrate status).', 2);
    return { kind: 'to', name };
  }
  return { kind: 'latest' };
}

export function registerMigrate(program: Command): void {
  program
    .command('migrate')
    .description(
      'apply pending migrations (default), show their status, or roll back the latest one (--to NAME: back to NAME; --all: every one)',
    )
    .argument('[action]', 'latest | status | rollback', 'latest')
    .option('--to <name>', 'rollback: undo the migrations after NAME, newest first; NAME stays applied')
    .option('--all', 'rollback: undo every applied migration (drops every table)')
    .option('--yes', 'rollback: do not ask for confirmation (required without a terminal)')
    .action(async (action: string, opts: { yes?: boolean; to?: string; all?: boolean }) => {
      if (!['latest', 'status', 'rollback'].includes(action))
        throw new CliError(`Unknown migrate action "${printable(action)}". Use latest, status or rollback.`, 2);
      const target = rollbackTarget(action, opts);
      await withDb(
        async (db) => {
          const { migrateLatest, migrationStatus, rollbackMigrations, rollbackPlan } = await import('../db/migrations.js');
          if (action === 'latest') {
            const { batch, names } = await migrateLatest(db);
            console.log(names.length ? `Batch ${batch}: applied ${names.join(', ')}` : 'Already up to date.');
          } else if (action === 'status') {
            const { applied, pending } = await migrationStatus(db);
            for (const name of applied) console.log(`applied  ${name}`);
            for (const name of pending) console.log(`pending  ${name}`);
            if (!applied.length && !pending.length) console.log('No migrations.');
          } else {
            const plan = await rollbackPlan(db, target);
            if (plan.unknown !== undefined)
              throw new CliError(`--to: "${printable(plan.unknown)}" is not an applied migration (see migrate status).`, 2);
            if (!plan.names.length) {
              console.log('Nothing to roll back.');
              return;
            }
            await confirmRollback(plan.names, opts.yes === true);
            const undone = await rollbackMigrations(db, plan.names);
            console.log(`Rolled back ${undone.join(', ')}`);
          }
        },
        { create: action === 'latest' },
      );
    });
}
