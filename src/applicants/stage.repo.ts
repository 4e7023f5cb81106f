/**
 * The pipeline's columns of applications (migration 013): stage, outcome and status, locked and
 * written by src/pipeline/ through index.ts in its transaction (docs/decisions/0002-pipeline-feature.md).
 */
import type { Knex } from 'knex';
import { toDbDate } from '../db/codecs.js';
import { isMysql } from '../db/knex.js';
import type { ApplicationStatus } from '../shared/enums.js';
import { ID_CHUNK } from './repo.js';

type Row = Record<string, any>;

/** How many applications are in each of `stageIds` (rejected ones too: they keep their stage). */
export async function applicationsPerStage(trx: Knex, stageIds: number[]): Promise<Map<number, number>> {
  if (!stageIds.length) return new Map();
  const rows: Row[] = await trx('applications').whereIn('stage_id', stageIds).select('stage_id').count({ n: '*' }).groupBy('stage_id');
  return new Map(rows.map((r) => [Number(r.stage_id), Number(r.n)]));
}

export interface PipelineState {
  id: number;
  job_id: number;
  stage_id: number | null;
  outcome: string | null;
  outcome_reason: string | null;
  status: ApplicationStatus;
}

/** The applications' pipeline columns, locked in ascending id order (as updateStatuses does). */
export async function lockPipelineStates(trx: Knex, ids: number[]): Promise<PipelineState[]> {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const out: PipelineState[] = [];
  for (let i = 0; i < sorted.length; i += ID_CHUNK) {
    const q = trx('applications')
      .select('id', 'job_id', 'stage_id', 'outcome', 'outcome_reason', 'status')
      .whereIn('id', sorted.slice(i, i + ID_CHUNK))
      .orderBy('id');
    const rows: Row[] = await (isMysql(trx) ? q.forUpdate() : q);
    for (const r of rows) {
      out.push({
        id: Number(r.id),
        job_id: Number(r.job_id),
        stage_id: r.stage_id === null ? null : Number(r.stage_id),
        outcome: r.outcome ?? null,
        outcome_reason: r.outcome_reason ?? null,
        status: r.status,
      });
    }
  }
  return out;
}

/** Sets the pipeline columns (and status) of applications that end up alike, in chunks. */
export async function writePipelineStates(
  trx: Knex,
  ids: number[],
  values: { stage_id: number | null; outcome: string | null; outcome_reason: string | null; status: ApplicationStatus },
  now: Date,
): Promise<void> {
  for (let i = 0; i < ids.length; i += ID_CHUNK)
    await trx('applications')
      .whereIn('id', ids.slice(i, i + ID_CHUNK))
      .update({ ...values, updated_at: toDbDate(now) });
}
