/** What `careers-admin applicants purge` and `erase` select: the applications, oldest first, with their resume keys. */
import type { Knex } from 'knex';
import { fromDbDate, toDbDate } from '../db/codecs.js';
import type { ApplicationStatus } from '../shared/enums.js';

type Row = Record<string, any>;

/** What `careers-admin applicants purge` and `erase` select. */
export interface RemovalCriteria {
  /** Applied before this moment. */
  createdBefore?: Date;
  status?: ApplicationStatus;
  jobId?: number;
  /** Lower-cased: every application of the person who applied with it (issue 35), under any of their addresses. */
  email?: string;
}

/** The applications a purge or an erase would remove, with their resume keys, oldest first. */
function whereRemovable(db: Knex, q: Knex.QueryBuilder, c: RemovalCriteria): Knex.QueryBuilder {
  if (c.createdBefore) q.where('a.created_at', '<', toDbDate(c.createdBefore));
  if (c.status) q.where('a.status', c.status);
  if (c.jobId !== undefined) q.where('a.job_id', c.jobId);
  if (c.email !== undefined) {
    // The address's person (an alias answers with the person it was merged into) and every alias of theirs.
    const person = db('people').where('email', c.email).select(db.raw('COALESCE(merged_into_id, id)'));
    const group = db('people').whereIn('id', person).orWhereIn('merged_into_id', person).select('id');
    const email = c.email;
    q.where((w) => w.where('a.email', email).orWhereIn('a.person_id', group));
  }
  return q;
}

export async function selectRemovable(
  db: Knex,
  c: RemovalCriteria,
): Promise<{ id: number; job_id: number; person_id: number | null; resume_file_id: number | null; storage_key: string | null }[]> {
  const q = whereRemovable(
    db,
    db('applications as a')
      .leftJoin('stored_files as f', 'f.id', 'a.resume_file_id')
      .select('a.id', 'a.job_id', 'a.person_id', 'a.resume_file_id', 'f.storage_key')
      .orderBy('a.id'),
    c,
  );
  const rows: Row[] = await q;
  return rows.map((r) => ({
    id: Number(r.id),
    job_id: Number(r.job_id),
    person_id: r.person_id === null ? null : Number(r.person_id),
    resume_file_id: r.resume_file_id === null ? null : Number(r.resume_file_id),
    storage_key: r.storage_key ?? null,
  }));
}

/** The first `limit` applications a purge or an erase would remove, for a dry run to list: id, job title, applied time. */
export async function removablePreview(
  db: Knex,
  c: RemovalCriteria,
  limit: number,
): Promise<{ id: number; job_title: string; created_at: string }[]> {
  const rows: Row[] = await whereRemovable(
    db,
    db('applications as a')
      .leftJoin('jobs as j', 'j.id', 'a.job_id')
      .select('a.id', 'j.title as job_title', 'a.created_at')
      .orderBy('a.id')
      .limit(limit),
    c,
  );
  return rows.map((r) => ({ id: Number(r.id), job_title: String(r.job_title ?? ''), created_at: fromDbDate(r.created_at)!.toISOString() }));
}
