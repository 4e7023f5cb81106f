/** The candidates feature's tables (migration 045): the status texts admins write per stage name, and candidates' erasure requests. */
import type { Knex } from 'knex';
import { fromDbDate, toDbDate } from '../db/codecs.js';

type Row = Record<string, any>;

/** A stage name as the texts are keyed: lower case, spaces as one. */
export const stageKey = (name: string) => name.replace(/\s+/g, ' ').trim().toLowerCase();

/** The texts admins wrote, by stage key. */
export async function writtenTexts(db: Knex): Promise<Map<string, { name: string; text: string }>> {
  const rows: Row[] = await db('stage_status_texts').select('name_key', 'name', 'text');
  return new Map(rows.map((r) => [String(r.name_key), { name: String(r.name), text: String(r.text) }]));
}

/** Stage names in use on jobs, in the order the first job has them, each once (case folded). */
export async function stageNamesInUse(db: Knex): Promise<string[]> {
  const rows: Row[] = await db('job_stages').select('name').min({ first: 'id' }).groupBy('name').orderBy('first');
  const seen = new Map<string, string>();
  for (const r of rows) if (!seen.has(stageKey(r.name))) seen.set(stageKey(r.name), String(r.name));
  return [...seen.values()];
}

/** Replaces the texts of the stages given: an empty text removes the stage's (its default shows again). */
export async function saveTexts(trx: Knex, texts: { stage: string; text: string }[], userId: number, now: Date): Promise<void> {
  for (const t of texts) {
    const key = stageKey(t.stage);
    await trx('stage_status_texts').where({ name_key: key }).delete();
    if (t.text)
      await trx('stage_status_texts').insert({ name_key: key, name: t.stage, text: t.text, updated_by: userId, updated_at: toDbDate(now) });
  }
}

/** Records a person's erasure request (once: asking again keeps the first time). */
export async function insertErasureRequest(db: Knex, personId: number, now: Date): Promise<void> {
  await db('erasure_requests')
    .insert({ person_id: personId, requested_at: toDbDate(now) })
    .onConflict('person_id')
    .ignore();
}

export async function erasureRequestOf(db: Knex, personId: number): Promise<Date | null> {
  const row: Row | undefined = await db('erasure_requests').where({ person_id: personId }).first('requested_at');
  return row ? fromDbDate(row.requested_at) : null;
}

/** The open requests, oldest first, with the person's latest name and address and their applications' count. */
export async function openErasureRequests(db: Knex): Promise<Row[]> {
  const rows: Row[] = await db('erasure_requests as r')
    .join('people as p', 'p.id', 'r.person_id')
    .select(
      'r.id',
      'r.person_id',
      'r.requested_at',
      'p.email',
      db('applications').count('*').whereRaw('person_id = r.person_id').as('applications'),
      db('applications').select('first_name').whereRaw('person_id = r.person_id').orderBy('created_at', 'desc').limit(1).as('first_name'),
      db('applications').select('last_name').whereRaw('person_id = r.person_id').orderBy('created_at', 'desc').limit(1).as('last_name'),
    )
    .orderBy('r.id');
  return rows.map((r) => ({ ...r, requested_at: fromDbDate(r.requested_at) }));
}

export async function findErasureRequest(db: Knex, id: number): Promise<{ id: number; person_id: number } | null> {
  const row: Row | undefined = await db('erasure_requests').where({ id }).first('id', 'person_id');
  return row ? { id: Number(row.id), person_id: Number(row.person_id) } : null;
}

export async function deleteErasureRequest(db: Knex, id: number): Promise<void> {
  await db('erasure_requests').where({ id }).delete();
}

/** The addresses of a person and every alias merged into them (what an erase matches). */
export async function addressesOf(db: Knex, personId: number): Promise<string[]> {
  return (await db('people').where('id', personId).orWhere('merged_into_id', personId).orderBy('id').pluck('email')).map(String);
}
