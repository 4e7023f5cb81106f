/**
 * The people tables (migration 044): an application's person by its email address, the suggested
 * duplicates, merges and their undo. Every function runs inside the caller's transaction.
 */
import type { Knex } from 'knex';
import { fromDbDate, fromDbJson, insertedId, toDbDate, toDbJson } from '../db/codecs.js';
import { isMysql } from '../db/knex.js';
import type { SuggestionReason } from './types.js';

type Row = Record<string, any>;

/** What a merge moved, kept to undo it (the applications and the alias people re-pointed), and who the two were. */
export interface Moved {
  applications: number[];
  people: number[];
  from_label: string;
  into_label: string;
}

export const NOTHING_MOVED: Moved = { applications: [], people: [], from_label: '', into_label: '' };

export interface MergeRow {
  id: number;
  from_person_id: number;
  into_person_id: number;
  moved: Moved;
  created_at: Date;
  undone_at: Date | null;
}

/** The id of the person who owns applications with this address: an alias (a merged person) answers with the person it was merged into. */
export async function personOfEmail(trx: Knex, email: string, now: Date): Promise<number> {
  // Two applications with a new address at once: the unique index keeps one row, both read it.
  await trx('people')
    .insert({ email, created_at: toDbDate(now) })
    .onConflict('email')
    .ignore();
  const row: Row = await trx('people').where({ email }).first('id', 'merged_into_id');
  return Number(row.merged_into_id ?? row.id);
}

/** The person (not an alias) of an address already applied with, or null; reads only. */
export async function personIdOfEmail(db: Knex, email: string): Promise<number | null> {
  const row: Row | undefined = await db('people').where({ email }).first('id', 'merged_into_id');
  return row ? Number(row.merged_into_id ?? row.id) : null;
}

/**
 * Suggests the people who may be this one (never merges): another person with an application of
 * the same phone number, or of the same name with a resume file of the same hash. A pair HR
 * dismissed stays dismissed (the insert ignores the pair kept).
 */
export async function suggestDuplicates(trx: Knex, personId: number, now: Date): Promise<void> {
  const found = await duplicateCandidates(trx, personId);
  if (!found.length) return;
  const at = toDbDate(now);
  const rows = found.map((f) => {
    const [newer, older] = f.id > personId ? [f.id, personId] : [personId, f.id];
    return { person_id: newer, other_person_id: older, reason: f.reason, created_at: at };
  });
  await trx('person_suggestions').insert(rows).onConflict(['person_id', 'other_person_id']).ignore();
}

/** The other people (not aliases) matching one person's applications, each once with its first reason. */
async function duplicateCandidates(db: Knex, personId: number): Promise<{ id: number; reason: SuggestionReason }[]> {
  const [byPhone, byNameAndResume]: Row[][] = await Promise.all([
    db('applications as a')
      .join('applications as b', 'b.phone', 'a.phone')
      .join('people as p', 'p.id', 'b.person_id')
      .where('a.person_id', personId)
      .whereNot('a.phone', '')
      .whereNot('b.person_id', personId)
      .whereNull('p.merged_into_id')
      .distinct('b.person_id as id'),
    db('applications as a')
      .join('stored_files as fa', 'fa.id', 'a.resume_file_id')
      .join('applications as b', (j) => j.on('b.last_name', 'a.last_name').andOn('b.first_name', 'a.first_name'))
      .join('stored_files as fb', (j) => j.on('fb.id', 'b.resume_file_id').andOn('fb.sha256', 'fa.sha256'))
      .join('people as p', 'p.id', 'b.person_id')
      .where('a.person_id', personId)
      .whereNot('b.person_id', personId)
      .whereNull('p.merged_into_id')
      .distinct('b.person_id as id'),
  ]);
  const reasons = new Map<number, SuggestionReason>();
  for (const r of byPhone) reasons.set(Number(r.id), 'PHONE');
  for (const r of byNameAndResume) if (!reasons.has(Number(r.id))) reasons.set(Number(r.id), 'NAME_RESUME');
  return [...reasons].map(([id, reason]) => ({ id, reason }));
}

/** The person (not an alias) with this id, or null. */
export async function findPerson(trx: Knex, id: number): Promise<{ id: number; merged_into_id: number | null } | null> {
  const row: Row | undefined = await trx('people').where({ id }).first('id', 'merged_into_id');
  return row ? { id: Number(row.id), merged_into_id: row.merged_into_id === null ? null : Number(row.merged_into_id) } : null;
}

/** Locks and returns the open suggestion between two people (either order), or null. */
export async function openSuggestion(trx: Knex, a: number, b: number): Promise<{ person_id: number; other_person_id: number } | null> {
  const [newer, older] = a > b ? [a, b] : [b, a];
  const q = trx('person_suggestions').where({ person_id: newer, other_person_id: older }).whereNull('dismissed_at');
  const row: Row | undefined = await (isMysql(trx) ? q.forUpdate() : q).first('person_id', 'other_person_id');
  return row ? { person_id: Number(row.person_id), other_person_id: Number(row.other_person_id) } : null;
}

export async function dismissSuggestion(trx: Knex, a: number, b: number, userId: number, now: Date): Promise<void> {
  const [newer, older] = a > b ? [a, b] : [b, a];
  await trx('person_suggestions')
    .where({ person_id: newer, other_person_id: older })
    .update({ dismissed_at: toDbDate(now), dismissed_by: userId });
}

/**
 * Moves `from`'s applications (and the aliases merged into it) to `into`, makes `from` an alias of
 * `into`, drops the open suggestions of `from` and records the merge; returns its id and what moved.
 */
export async function mergeInto(
  trx: Knex,
  from: number,
  into: number,
  labels: { from_label: string; into_label: string },
  userId: number,
  now: Date,
): Promise<{ id: number; moved: Moved }> {
  const applications = (await trx('applications').where({ person_id: from }).orderBy('id').pluck('id')).map(Number);
  const aliases = (await trx('people').where({ merged_into_id: from }).orderBy('id').pluck('id')).map(Number);
  await trx('applications').where({ person_id: from }).update({ person_id: into });
  await trx('people').where({ merged_into_id: from }).update({ merged_into_id: into });
  await trx('people').where({ id: from }).update({ merged_into_id: into });
  await trx('person_suggestions')
    .whereNull('dismissed_at')
    .where((q) => q.where('person_id', from).orWhere('other_person_id', from))
    .delete();
  const moved = { applications, people: aliases, ...labels };
  const id = insertedId(
    await trx('person_merges').insert({
      from_person_id: from,
      into_person_id: into,
      moved: toDbJson(moved),
      merged_by: userId,
      created_at: toDbDate(now),
    }),
  );
  return { id, moved };
}

/** The merge, locked on MySQL, or null. */
export async function lockMerge(trx: Knex, id: number): Promise<MergeRow | null> {
  const q = trx('person_merges').where({ id });
  const row: Row | undefined = await (isMysql(trx) ? q.forUpdate() : q).first();
  if (!row) return null;
  return {
    id: Number(row.id),
    from_person_id: Number(row.from_person_id),
    into_person_id: Number(row.into_person_id),
    moved: fromDbJson<Moved>(row.moved, NOTHING_MOVED),
    created_at: fromDbDate(row.created_at)!,
    undone_at: fromDbDate(row.undone_at),
  };
}

/**
 * Undoes a merge: `from` is its own person again with the applications it brought and those sent
 * with its addresses since; the aliases it brought follow it. Returns the applications moved back.
 */
export async function undoMerge(trx: Knex, merge: MergeRow, userId: number, now: Date): Promise<number[]> {
  const { from_person_id: from, into_person_id: into } = merge;
  const people = [from, ...merge.moved.people];
  const emails = trx('people').whereIn('id', people).select('email');
  const back = (
    await trx('applications')
      .where({ person_id: into })
      .where((q) => q.whereIn('id', merge.moved.applications.length ? merge.moved.applications : [0]).orWhereIn('email', emails))
      .orderBy('id')
      .pluck('id')
  ).map(Number);
  if (back.length) await trx('applications').whereIn('id', back).update({ person_id: from });
  await trx('people').where({ id: from }).update({ merged_into_id: null });
  if (merge.moved.people.length)
    await trx('people').whereIn('id', merge.moved.people).where({ merged_into_id: into }).update({ merged_into_id: from });
  await trx('person_merges')
    .where({ id: merge.id })
    .update({ undone_at: toDbDate(now), undone_by: userId });
  return back;
}

/** Application ids of the person. */
export async function applicationIdsOf(trx: Knex, personId: number): Promise<number[]> {
  return (await trx('applications').where({ person_id: personId }).orderBy('id').pluck('id')).map(Number);
}

/**
 * After applications were removed (erase, purge): the people of `personIds` with no application
 * left go, with the aliases merged into them, their suggestions and merges (foreign keys cascade).
 */
export async function removePeopleWithoutApplications(trx: Knex, personIds: number[]): Promise<void> {
  if (!personIds.length) return;
  const empty = (q: Knex.QueryBuilder) =>
    q.whereNotExists(trx('applications as a').select(trx.raw('1')).whereRaw('a.person_id = people.id'));
  const gone = (await empty(trx('people').whereIn('id', personIds)).pluck('id')).map(Number);
  if (!gone.length) return;
  await empty(trx('people').whereIn('merged_into_id', gone)).delete();
  await trx('people').whereIn('id', gone).delete();
}
