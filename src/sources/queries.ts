/**
 * The sources feature's read models: tracking links with their applications, and the report of
 * applications per source per job (read-only over `applications` and `jobs`, as read models may).
 */
import type { Knex } from 'knex';
import { fromDbDate, toDbDate } from '../db/codecs.js';
import type { NewTrackingLink } from './repo.js';

type Row = Record<string, any>;

export interface LinkRow extends Omit<NewTrackingLink, 'created_by'> {
  id: number;
  job_title: string | null;
  clicks: number;
  applications: number;
  created_at: Date;
}

export async function listTrackingLinks(db: Knex): Promise<LinkRow[]> {
  const rows = await db('tracking_links as l')
    .leftJoin('jobs as j', 'j.id', 'l.job_id')
    .select(
      'l.id',
      'l.slug',
      'l.name',
      'l.source',
      'l.medium',
      'l.campaign',
      'l.job_id',
      { job_title: 'j.title' },
      'l.clicks',
      'l.created_at',
      {
        applications: db('applications as a').count('*').whereRaw('a.tracking_link_id = l.id'),
      },
    )
    .orderBy('l.id', 'desc');
  return rows.map((r: Row) => ({
    id: Number(r.id),
    slug: String(r.slug),
    name: String(r.name),
    source: String(r.source),
    medium: String(r.medium),
    campaign: String(r.campaign),
    job_id: r.job_id === null ? null : Number(r.job_id),
    job_title: r.job_title === null || r.job_title === undefined ? null : String(r.job_title),
    clicks: Number(r.clicks),
    applications: Number(r.applications),
    created_at: fromDbDate(r.created_at)!,
  }));
}

export async function slugExists(db: Knex, slug: string): Promise<boolean> {
  return !!(await db('tracking_links').where({ slug }).first('id'));
}

/**
 * Applications since `since` (all time: null) per job and source; every job's views; and per job
 * the funnel's counted job page views and wizard applications from the UTC day `fromDay` on (the
 * apply funnel's daily counts, migration 021: the same visitors on both sides).
 */
export async function sourceCounts(
  db: Knex,
  since: Date | null,
  fromDay: string | null,
): Promise<{
  counts: { job_id: number; source: string | null; n: number }[];
  jobs: { id: number; public_id: string; title: string; views: number }[];
  visits: { job_id: number; step: string; n: number }[];
}> {
  const counts = db('applications').select('job_id', 'source').count({ n: '*' }).groupBy('job_id', 'source');
  if (since) counts.where('created_at', '>=', toDbDate(since));
  const visits = db('job_funnel_counts')
    .where('event', 'reached')
    .whereIn('step', ['view', 'submitted'])
    .select('job_id', 'step')
    .sum({ n: 'count' })
    .groupBy('job_id', 'step');
  if (fromDay) visits.where('day', '>=', fromDay);
  const [countRows, jobRows, visitRows] = await Promise.all([
    counts,
    db('jobs').whereNot('status', 'REMOVED').orWhere('views', '>', 0).select('id', 'public_id', 'title', 'views'),
    visits,
  ]);
  return {
    counts: countRows.map((r: Row) => ({ job_id: Number(r.job_id), source: r.source === null ? null : String(r.source), n: Number(r.n) })),
    jobs: jobRows.map((r: Row) => ({ id: Number(r.id), public_id: String(r.public_id), title: String(r.title), views: Number(r.views) })),
    visits: visitRows.map((r: Row) => ({ job_id: Number(r.job_id), step: String(r.step), n: Number(r.n ?? 0) })),
  };
}
