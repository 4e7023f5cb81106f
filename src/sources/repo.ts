/** The only writer of `tracking_links`. */
import type { Knex } from 'knex';
import { insertedId, toDbDate } from '../db/codecs.js';

export interface NewTrackingLink {
  slug: string;
  name: string;
  source: string;
  medium: string;
  campaign: string;
  job_id: number | null;
  created_by: number | null;
}

export async function insertTrackingLink(db: Knex, link: NewTrackingLink, now: Date): Promise<number> {
  return insertedId(await db('tracking_links').insert({ ...link, clicks: 0, created_at: toDbDate(now) }));
}

/** Removes a link; applications keep the source, medium and campaign they came with. */
export async function deleteTrackingLink(db: Knex, id: number): Promise<boolean> {
  return (await db('tracking_links').where({ id }).delete()) > 0;
}

/** The link of a slug; null for none. */
export async function findTrackingLink(
  db: Knex,
  slug: string,
): Promise<{ id: number; source: string; medium: string; campaign: string; job_id: number | null } | null> {
  const row = await db('tracking_links').where({ slug }).first('id', 'source', 'medium', 'campaign', 'job_id');
  return row
    ? {
        id: Number(row.id),
        source: String(row.source),
        medium: String(row.medium),
        campaign: String(row.campaign),
        job_id: row.job_id === null ? null : Number(row.job_id),
      }
    : null;
}

/** One more click of a link (an atomic increment). */
export async function countTrackingLinkClick(db: Knex, id: number): Promise<void> {
  await db('tracking_links').where({ id }).increment('clicks', 1);
}
