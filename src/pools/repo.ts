/** The talent pools' tables (migration 046): pools, members, consents and invitations. Every write runs in the caller's transaction. */
import type { Knex } from 'knex';
import { fromDbDate, insertedId, toDbDate } from '../db/codecs.js';

type Row = Record<string, any>;

export async function insertPool(trx: Knex, name: string, userId: number | null, now: Date): Promise<number> {
  return insertedId(await trx('talent_pools').insert({ name, created_by: userId, created_at: toDbDate(now) }));
}

export async function poolByName(db: Knex, name: string): Promise<number | null> {
  const row: Row | undefined = await db('talent_pools').where({ name }).first('id');
  return row ? Number(row.id) : null;
}

export async function poolExists(db: Knex, id: number): Promise<boolean> {
  return (await db('talent_pools').where({ id }).first('id')) !== undefined;
}

export async function deletePool(trx: Knex, id: number): Promise<boolean> {
  return (await trx('talent_pools').where({ id }).delete()) > 0;
}

/** Adds people (a person already in the pool keeps their first reason); returns those new to it. */
export async function addMembers(
  trx: Knex,
  poolId: number,
  personIds: number[],
  reason: string,
  userId: number | null,
  now: Date,
): Promise<number[]> {
  if (!personIds.length) return [];
  const already = new Set(
    (await trx('pool_members').where({ pool_id: poolId }).whereIn('person_id', personIds).pluck('person_id')).map(Number),
  );
  const fresh = personIds.filter((id) => !already.has(id));
  if (fresh.length)
    await trx('pool_members')
      .insert(fresh.map((person_id) => ({ pool_id: poolId, person_id, reason, added_by: userId, added_at: toDbDate(now) })))
      .onConflict(['pool_id', 'person_id'])
      .ignore();
  return fresh;
}

export async function removeMember(trx: Knex, poolId: number, personId: number): Promise<boolean> {
  return (await trx('pool_members').where({ pool_id: poolId, person_id: personId }).delete()) > 0;
}

/** The person's consent to be kept for future jobs, or null. */
export async function consentOf(db: Knex, personId: number): Promise<{ given_at: Date; expires_at: Date } | null> {
  const row: Row | undefined = await db('pool_consents').where({ person_id: personId }).first('given_at', 'expires_at');
  return row ? { given_at: fromDbDate(row.given_at)!, expires_at: fromDbDate(row.expires_at)! } : null;
}

/** Gives or renews consent (the text as agreed to, from now until `expiresAt`). */
export async function saveConsent(trx: Knex, personId: number, text: string, now: Date, expiresAt: Date): Promise<void> {
  await trx('pool_consents').where({ person_id: personId }).delete();
  await trx('pool_consents').insert({ person_id: personId, consent_text: text, given_at: toDbDate(now), expires_at: toDbDate(expiresAt) });
}

/** Withdraws consent and leaves every pool. */
export async function dropConsent(trx: Knex, personId: number): Promise<void> {
  await trx('pool_members').where({ person_id: personId }).delete();
  await trx('pool_consents').where({ person_id: personId }).delete();
}

/** Records an invitation; false when the person was invited to this job already. */
export async function insertInvite(trx: Knex, personId: number, jobId: number, userId: number, now: Date): Promise<boolean> {
  const done = await trx('pool_invites').where({ person_id: personId, job_id: jobId }).first('person_id');
  if (done) return false;
  await trx('pool_invites').insert({ person_id: personId, job_id: jobId, invited_by: userId, invited_at: toDbDate(now) });
  return true;
}
