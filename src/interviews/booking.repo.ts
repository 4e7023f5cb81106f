/** Booking links (issue 32): the only code writing `booking_links` and `booking_link_slots`. */
import type { Knex } from 'knex';
import { fromDbDate, insertedId, toDbDate } from '../db/codecs.js';
import { isMysql } from '../db/knex.js';
import type { BookingDetails } from './booking.schema.js';

export interface BookingLinkRow {
  id: number;
  application_id: number;
  stage_id: number | null;
  details: BookingDetails;
  duration_minutes: number;
  window_days: number | null;
  cutoff_minutes: number;
  expires_at: Date;
  revoked_at: Date | null;
  created_by: number | null;
  created_at: Date;
  /** Hand-picked starts, oldest first (none in "any free slot" mode). */
  slots: Date[];
  /** The interview booked with it last (scheduled or cancelled), if any. */
  interview: { id: number; status: string; starts_at: Date; ends_at: Date } | null;
}

type Row = Record<string, any>;

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

async function shape(db: Knex, rows: Row[]): Promise<BookingLinkRow[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => Number(r.id));
  const [slots, interviews] = await Promise.all([
    db('booking_link_slots')
      .whereIn('booking_link_id', ids)
      .orderBy(['booking_link_id', 'starts_at'])
      .select('booking_link_id', 'starts_at'),
    db('interviews').whereIn('booking_link_id', ids).orderBy('id').select('id', 'booking_link_id', 'status', 'starts_at', 'ends_at'),
  ]);
  return rows.map((r) => {
    const id = Number(r.id);
    const last = interviews.filter((i: Row) => Number(i.booking_link_id) === id).at(-1);
    return {
      id,
      application_id: Number(r.application_id),
      stage_id: num(r.stage_id),
      details: typeof r.details === 'string' ? JSON.parse(r.details) : r.details,
      duration_minutes: Number(r.duration_minutes),
      window_days: num(r.window_days),
      cutoff_minutes: Number(r.cutoff_minutes),
      expires_at: fromDbDate(r.expires_at)!,
      revoked_at: fromDbDate(r.revoked_at),
      created_by: num(r.created_by),
      created_at: fromDbDate(r.created_at)!,
      slots: slots.filter((s: Row) => Number(s.booking_link_id) === id).map((s: Row) => fromDbDate(s.starts_at)!),
      interview: last
        ? { id: Number(last.id), status: String(last.status), starts_at: fromDbDate(last.starts_at)!, ends_at: fromDbDate(last.ends_at)! }
        : null,
    };
  });
}

export async function insertBookingLink(
  trx: Knex,
  v: {
    applicationId: number;
    stageId: number | null;
    tokenHash: string;
    details: BookingDetails;
    durationMinutes: number;
    windowDays: number | null;
    cutoffMinutes: number;
    expiresAt: Date;
    slots: Date[] | null;
    createdBy: number | null;
  },
  now: Date,
): Promise<number> {
  const result = await trx('booking_links').insert({
    application_id: v.applicationId,
    stage_id: v.stageId,
    token_hash: v.tokenHash,
    details: JSON.stringify(v.details),
    duration_minutes: v.durationMinutes,
    window_days: v.windowDays,
    cutoff_minutes: v.cutoffMinutes,
    expires_at: toDbDate(v.expiresAt),
    created_by: v.createdBy,
    created_at: toDbDate(now),
  });
  const linkId = insertedId(result);
  const minutes = v.durationMinutes * 60_000;
  if (v.slots?.length)
    await trx('booking_link_slots').insert(
      v.slots.map((s) => ({ booking_link_id: linkId, starts_at: toDbDate(s), ends_at: toDbDate(new Date(s.getTime() + minutes)) })),
    );
  return linkId;
}

export async function findBookingLinkByToken(db: Knex, tokenHash: string): Promise<BookingLinkRow | null> {
  const [link] = await shape(db, await db('booking_links').where({ token_hash: tokenHash }).select('*'));
  return link ?? null;
}

export async function findBookingLink(db: Knex, applicationId: number, id: number): Promise<BookingLinkRow | null> {
  const [link] = await shape(db, await db('booking_links').where({ id, application_id: applicationId }).select('*'));
  return link ?? null;
}

export async function bookingLinksOf(db: Knex, applicationId: number): Promise<BookingLinkRow[]> {
  return shape(db, await db('booking_links').where({ application_id: applicationId }).orderBy('id').select('*'));
}

/** Locks the link's row for the booking's transaction (MySQL; SQLite runs one at a time) and answers whether an interview booked with it is still scheduled. */
export async function lockBookingLink(trx: Knex, id: number): Promise<{ scheduled: boolean }> {
  const q = trx('booking_links').where({ id }).first('id');
  if (isMysql(trx)) q.forUpdate();
  await q;
  const booked = await trx('interviews').where({ booking_link_id: id, status: 'scheduled' }).first('id');
  return { scheduled: !!booked };
}

export async function revokeBookingLink(db: Knex, id: number, now: Date): Promise<boolean> {
  return (
    (await db('booking_links')
      .where({ id })
      .whereNull('revoked_at')
      .update({ revoked_at: toDbDate(now) })) > 0
  );
}
