/**
 * The applications an email goes to (the emails feature, through index.ts): each one's name,
 * address and job title, read by id in one statement (a read-only join of `jobs`, as the timeline does).
 */
import type { Knex } from 'knex';
import { fromDbDate } from '../db/codecs.js';

export interface EmailRecipient {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  job_title: string;
  /** The job's status: a bulk send refuses the applications of a REMOVED job. */
  job_status: string;
  job_public_id: string;
  /** When the application came, its stage's name ('' without one) and its outcome (REJECTED or null). */
  created_at: Date;
  stage: string;
  outcome: string | null;
}

export async function emailRecipients(db: Knex, ids: number[]): Promise<EmailRecipient[]> {
  if (!ids.length) return [];
  const rows: Record<string, unknown>[] = await db('applications as a')
    .join('jobs as j', 'j.id', 'a.job_id')
    .leftJoin('job_stages as s', 's.id', 'a.stage_id')
    .whereIn('a.id', ids)
    .orderBy('a.id')
    .select('a.id', 'a.first_name', 'a.last_name', 'a.email', 'a.created_at', 'a.outcome', {
      job_title: 'j.title',
      job_status: 'j.status',
      job_public_id: 'j.public_id',
      stage: 's.name',
    });
  return rows.map((r) => ({
    id: Number(r.id),
    first_name: String(r.first_name ?? ''),
    last_name: String(r.last_name ?? ''),
    email: String(r.email),
    job_title: String(r.job_title),
    job_status: String(r.job_status),
    job_public_id: String(r.job_public_id),
    created_at: fromDbDate(r.created_at)!,
    stage: r.stage === null || r.stage === undefined ? '' : String(r.stage),
    outcome: r.outcome === null || r.outcome === undefined ? null : String(r.outcome),
  }));
}
