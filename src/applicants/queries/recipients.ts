/**
 * The applications an email goes to (the emails feature, through index.ts): each one's name,
 * address and job title, read by id in one statement (a read-only join of `jobs`, as the timeline does).
 */
import type { Knex } from 'knex';

export interface EmailRecipient {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  job_title: string;
  /** The job's status: a bulk send refuses the applications of a REMOVED job. */
  job_status: string;
}

export async function emailRecipients(db: Knex, ids: number[]): Promise<EmailRecipient[]> {
  if (!ids.length) return [];
  const rows: Record<string, unknown>[] = await db('applications as a')
    .join('jobs as j', 'j.id', 'a.job_id')
    .whereIn('a.id', ids)
    .orderBy('a.id')
    .select('a.id', 'a.first_name', 'a.last_name', 'a.email', { job_title: 'j.title', job_status: 'j.status' });
  return rows.map((r) => ({ id: Number(r.id), first_name: String(r.first_name ?? ''), last_name: String(r.last_name ?? ''), email: String(r.email), job_title: String(r.job_title), job_status: String(r.job_status) }));
}
