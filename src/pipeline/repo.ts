/** Database writes and locked reads of the pipeline's own tables (migration 013): job_stages and rejection_reasons. */
import type { Knex } from 'knex';
import { isMysql } from '../db/knex.js';

export interface StageRow {
  id: number;
  job_id: number;
  name: string;
  position: number;
  kind: string | null;
}

const toStage = (r: Row): StageRow => ({
  id: Number(r.id),
  job_id: Number(r.job_id),
  name: String(r.name),
  position: Number(r.position),
  kind: r.kind ?? null,
});

type Row = Record<string, any>;

/** The stages of jobs, in order; `lock` takes them FOR UPDATE on MySQL (a stage list is being replaced). */
export async function stagesOfJobs(trx: Knex, jobIds: number[], lock: 'update' | 'share' | null = null): Promise<StageRow[]> {
  if (!jobIds.length) return [];
  const q = trx('job_stages')
    .whereIn('job_id', jobIds)
    .orderBy([{ column: 'job_id' }, { column: 'position' }, { column: 'id' }])
    .select('id', 'job_id', 'name', 'position', 'kind');
  const rows: Row[] = await (lock && isMysql(trx) ? (lock === 'update' ? q.forUpdate() : q.forShare()) : q);
  return rows.map(toStage);
}

/**
 * Writes a job's new stage list: `removed` ids go (the caller checked they are empty), `kept`
 * are renamed and moved, `added` are inserted; positions follow the list.
 */
export async function writeStages(
  trx: Knex,
  jobId: number,
  removed: number[],
  list: { id?: number; name: string; kind: string | null }[],
): Promise<void> {
  if (removed.length) await trx('job_stages').where({ job_id: jobId }).whereIn('id', removed).delete();
  for (const [position, s] of list.entries()) {
    if (s.id !== undefined) await trx('job_stages').where({ id: s.id, job_id: jobId }).update({ name: s.name, position });
    else await trx('job_stages').insert({ job_id: jobId, name: s.name, position, kind: s.kind });
  }
}

/** The rejection reasons in order; `lock` on MySQL while they are replaced. */
export async function reasonRows(trx: Knex, lock = false): Promise<{ id: number; name: string }[]> {
  const q = trx('rejection_reasons')
    .orderBy([{ column: 'position' }, { column: 'id' }])
    .select('id', 'name');
  const rows: Row[] = await (lock && isMysql(trx) ? q.forUpdate() : q);
  return rows.map((r) => ({ id: Number(r.id), name: String(r.name) }));
}

/** Replaces the reasons: ids kept are renamed and moved, the others go, new ones are added. */
export async function writeReasons(trx: Knex, removed: number[], list: { id?: number; name: string }[]): Promise<void> {
  if (removed.length) await trx('rejection_reasons').whereIn('id', removed).delete();
  for (const [position, r] of list.entries()) {
    if (r.id !== undefined) await trx('rejection_reasons').where({ id: r.id }).update({ name: r.name, position });
    else await trx('rejection_reasons').insert({ name: r.name, position });
  }
}

/** Which of `jobIds` are REMOVED. */
export async function removedJobs(trx: Knex, jobIds: number[]): Promise<Set<number>> {
  if (!jobIds.length) return new Set();
  const rows: Row[] = await trx('jobs').whereIn('id', jobIds).where('status', 'REMOVED').select('id');
  return new Set(rows.map((r) => Number(r.id)));
}

/** A stage by id with its job's status, read with a share lock on MySQL (so it is not removed meanwhile). */
export async function stageWithJob(trx: Knex, stageId: number): Promise<(StageRow & { job_status: string }) | null> {
  const q = trx('job_stages as s')
    .join('jobs as j', 'j.id', 's.job_id')
    .where('s.id', stageId)
    .first('s.id', 's.job_id', 's.name', 's.position', 's.kind', 'j.status as job_status');
  const r = (await (isMysql(trx) ? q.forShare() : q)) as Row | undefined;
  return r ? { ...toStage(r), job_status: String(r.job_status) } : null;
}
