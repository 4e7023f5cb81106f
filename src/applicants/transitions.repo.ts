/**
 * The stage-transition ledger (migration 031, docs/decisions/0011-stage-transition-ledger.md):
 * appended, never updated, in the transaction that writes an application's stage or outcome: its
 * entry on applying (apply.repo.ts) and every move or outcome the pipeline makes (through index.ts).
 */
import type { Knex } from 'knex';
import { toDbDate } from '../db/codecs.js';
import { ID_CHUNK } from './repo.js';

export interface StageTransition {
  application_id: number;
  job_id: number;
  /** null: the application's entry. */
  from_stage_id: number | null;
  to_stage_id: number | null;
  /** The outcome after the change: 'REJECTED' or null. */
  outcome: string | null;
  reason: string | null;
  by_user_id: number | null;
}

export async function insertStageTransitions(trx: Knex, rows: StageTransition[], now: Date): Promise<void> {
  const at = toDbDate(now);
  for (let i = 0; i < rows.length; i += ID_CHUNK)
    await trx('stage_transitions').insert(rows.slice(i, i + ID_CHUNK).map((r) => ({ ...r, at })));
}
