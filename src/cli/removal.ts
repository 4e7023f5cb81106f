/**
 * The retention commands' common run (applicants purge and erase, forms purge): each part plans
 * what it would remove; nothing matching says so; --dry-run prints the plan; otherwise one
 * confirmation (unless --yes) for all parts, then each removes, printing what went.
 */
import type { Db } from '../db/knex.js';
import type { FileStorage } from '../storage/storage.js';
import { CliError, withDb } from './context.js';

export interface RunOptions {
  dryRun?: boolean;
  yes?: boolean;
}

export interface RemovalPart {
  /** How many rows match now, their description ("2 applications with 2 files (job 3: 2)") and what a dry run lists of them. */
  plan(db: Db): Promise<{ count: number; text: string; listing?: string }>;
  /** Removes them; the description of what went and the files left for the orphan sweep. */
  remove(deps: { db: Db; storage: FileStorage; now: () => Date }): Promise<{ text: string; filesLeft: number }>;
}

export const files = (n: number) => (n === 1 ? '1 file' : `${n} files`);

export async function runRemoval(parts: RemovalPart[], opts: RunOptions, nothing: string): Promise<void> {
  await withDb(async (db, config) => {
    const { hasSchema } = await import('../db/migrations.js');
    if (!(await hasSchema(db, 'applications'))) throw new CliError('The database has no tables yet: run "careers-admin migrate" first.');
    const plans = (await Promise.all(parts.map((p) => p.plan(db))))
      .map((plan, i) => ({ ...plan, part: parts[i] }))
      .filter((p) => p.count > 0);
    if (!plans.length) {
      console.log(nothing);
      return;
    }
    const summary = plans.map((p) => p.text).join(' and ');
    if (opts.dryRun) {
      console.log(`Dry run: would remove ${summary}.`);
      for (const p of plans) if (p.listing) console.log(p.listing);
      return;
    }
    if (!opts.yes) {
      if (!process.stdin.isTTY) throw new CliError('No terminal to confirm on: pass --yes to remove without asking.', 2);
      const { default: inquirer } = await import('inquirer');
      const { ok } = await inquirer.prompt<{ ok: boolean }>([
        { type: 'confirm', name: 'ok', default: false, message: `Remove ${summary}? This cannot be undone.` },
      ]);
      if (!ok) {
        console.log('Nothing removed.');
        return;
      }
    }
    const { createStorage } = await import('../storage/create.js');
    const storage = createStorage(config);
    for (const p of plans) {
      const result = await p.part.remove({ db, storage, now: () => new Date() });
      console.log(`Removed ${result.text}.`);
      if (result.filesLeft) console.log(`${files(result.filesLeft)} could not be removed now; "careers-admin files sweep" removes them.`);
    }
  });
}
