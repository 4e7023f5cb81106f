/**
 * One person across jobs (issue 35): applications are linked to their person by the exact email
 * address as they are made; people who may be the same are suggested (same phone, or same name and
 * resume file) and merged only by HR, from the review list, in one transaction recorded on the
 * timeline of every application involved, and undoable for UNDO_DAYS.
 */
import type { Db } from '../db/knex.js';
import type { Config } from '../../config/index.js';
import type { ServerKey } from '../db/server-key.js';
import { Conflict, NotFound } from '../http/errors.js';
import { makeStatusToken, readStatusToken } from './lib/status-token.js';
import type { AccessScope } from '../shared/access-scope.js';
import { PEOPLE_MESSAGES, UNDO_DAYS } from './schema.js';
import { DUPLICATES_PAGE } from './types.js';
import {
  applicationIdsOf,
  dismissSuggestion,
  findPerson,
  lockMerge,
  mergeInto,
  openSuggestion,
  personIdOfEmail,
  personOfEmail,
  removePeopleWithoutApplications,
  suggestDuplicates,
  undoMerge,
} from './repo.js';
import { mergeById, otherApplications, openSuggestions, peopleSummaries, recentMerges, type MergeView } from './queries.js';
import type { DuplicateList, PersonApplication, PersonMerge, PersonSummary } from './types.js';

const DAY_MS = 86_400_000;

/**
 * Writes lines on applications' timelines in the caller's transaction: the applicants feature's
 * `insertApplicationAudit`, which app.ts hands in (applicants imports people, so people cannot
 * import it: a port, decision 0007).
 */
export type TimelineWriter = (
  trx: Db,
  entries: { userId: number | null; action: string; entityId: number | null; details: unknown }[],
  now: Date,
) => Promise<void>;

/** A line with `text` on the timeline of each of the applications. */
function timelineLines(applicationIds: number[], action: string, text: string, userId: number) {
  return applicationIds.map((entityId) => ({ userId, action, entityId, details: { text } }));
}

/** The person an application with this (lower-cased) address belongs to; call in the application's transaction. */
export function personForApplication(trx: Db, email: string, now: Date): Promise<number> {
  return personOfEmail(trx, email, now);
}

/** After an application of the person was written: the suggested duplicates it adds (in the same transaction). */
export function suggestAfterApplying(trx: Db, personId: number, now: Date): Promise<void> {
  return suggestDuplicates(trx, personId, now);
}

/** After applications were removed: their people with no application left go too (in the same transaction). */
export function removeEmptyPeople(trx: Db, personIds: number[]): Promise<void> {
  return removePeopleWithoutApplications(trx, personIds);
}

/** The applicant page's "Other applications": the same person's other applications the viewer may see. */
export function personOtherApplications(db: Db, applicationId: number, scope: AccessScope): Promise<PersonApplication[]> {
  return otherApplications(db, applicationId, scope);
}

/** "Ann Lee <ann@example.com>" */
const labelOf = (p: PersonSummary | undefined, fallback: string) => (p ? `${p.name} <${p.email}>` : fallback);

/** A page of the open suggestions, newest first, each side with its applications. */
export async function listDuplicates(db: Db, page: number): Promise<DuplicateList> {
  const { count, pairs } = await openSuggestions(db, (page - 1) * DUPLICATES_PAGE, DUPLICATES_PAGE);
  const people = await peopleSummaries(db, [...new Set(pairs.flatMap((p) => [p.person_id, p.other_person_id]))]);
  const results = pairs.flatMap((p) => {
    const person = people.get(p.person_id);
    const other = people.get(p.other_person_id);
    // A side without applications (removed since) is no pair to review.
    return person && other ? [{ person, other, reason: p.reason, created_at: p.created_at.toISOString() }] : [];
  });
  return { count, results };
}

function toMerge(m: MergeView, now: Date): PersonMerge {
  const undoUntil = new Date(m.created_at.getTime() + UNDO_DAYS * DAY_MS);
  return {
    id: m.id,
    from_person_id: m.from_person_id,
    into_person_id: m.into_person_id,
    from_label: m.moved.from_label,
    into_label: m.moved.into_label,
    applications_moved: m.moved.applications.length,
    merged_by: m.merged_by,
    created_at: m.created_at.toISOString(),
    undo_until: m.undone_at || undoUntil <= now ? null : undoUntil.toISOString(),
    undone_at: m.undone_at?.toISOString() ?? null,
  };
}

/** The merges of the last UNDO_DAYS, newest first (those still undoable say until when). */
export async function listRecentMerges(db: Db, now: Date): Promise<PersonMerge[]> {
  return (await recentMerges(db, new Date(now.getTime() - UNDO_DAYS * DAY_MS), 50)).map((m) => toMerge(m, now));
}

/** A person (not an alias) or 404 / 409. */
async function livePerson(trx: Db, id: number): Promise<void> {
  const person = await findPerson(trx, id);
  if (!person) throw new NotFound(PEOPLE_MESSAGES.personNotFound);
  if (person.merged_into_id !== null) throw new Conflict(PEOPLE_MESSAGES.mergedAlready);
}

/**
 * Merges a suggested pair: `from`'s applications become `into`'s, in one transaction, with a line on
 * the timeline of each application of both. 404 for an unknown person or a pair not suggested,
 * 409 for a person merged already.
 */
export async function mergePeople(
  db: Db,
  timeline: TimelineWriter,
  from: number,
  into: number,
  userId: number,
  now: Date,
): Promise<PersonMerge> {
  const id = await db.transaction(async (trx) => {
    await livePerson(trx, from);
    await livePerson(trx, into);
    if (!(await openSuggestion(trx, from, into))) throw new NotFound(PEOPLE_MESSAGES.suggestionNotFound);
    const people = await peopleSummaries(trx, [from, into]);
    const labels = { from_label: labelOf(people.get(from), `person ${from}`), into_label: labelOf(people.get(into), `person ${into}`) };
    const merged = await mergeInto(trx, from, into, labels, userId, now);
    const text = `Merged: ${labels.from_label} and ${labels.into_label} are one person now`;
    await timeline(trx, timelineLines(await applicationIdsOf(trx, into), 'person_merged', text, userId), now);
    return merged.id;
  });
  return toMerge((await mergeById(db, id))!, now);
}

/** Undoes a merge within UNDO_DAYS: 404 unknown, 409 undone already, too old, or the person merged into has been merged since. */
export async function undoPeopleMerge(db: Db, timeline: TimelineWriter, mergeId: number, userId: number, now: Date): Promise<PersonMerge> {
  await db.transaction(async (trx) => {
    const merge = await lockMerge(trx, mergeId);
    if (!merge) throw new NotFound(PEOPLE_MESSAGES.mergeNotFound);
    if (merge.undone_at) throw new Conflict(PEOPLE_MESSAGES.undone);
    if (now.getTime() - merge.created_at.getTime() > UNDO_DAYS * DAY_MS) throw new Conflict(PEOPLE_MESSAGES.undoExpired);
    const into = await findPerson(trx, merge.into_person_id);
    const from = await findPerson(trx, merge.from_person_id);
    if (!into || into.merged_into_id !== null || from?.merged_into_id !== merge.into_person_id)
      throw new Conflict(PEOPLE_MESSAGES.undoBlocked);
    const back = await undoMerge(trx, merge, userId, now);
    const text = `Merge undone: ${merge.moved.from_label} and ${merge.moved.into_label} are two people again`;
    const ids = [...back, ...(await applicationIdsOf(trx, merge.into_person_id))];
    await timeline(trx, timelineLines(ids, 'person_unmerged', text, userId), now);
    // The pair may be suggested again (it was when merged); a dismissal stays as HR left it.
    await suggestDuplicates(trx, merge.from_person_id, now);
  });
  return toMerge((await mergeById(db, mergeId))!, now);
}

/** HR says a suggested pair is two people: it is not suggested again. 404 for a pair not suggested. */
export async function dismissDuplicate(db: Db, a: number, b: number, userId: number, now: Date): Promise<void> {
  await db.transaction(async (trx) => {
    if (!(await openSuggestion(trx, a, b))) throw new NotFound(PEOPLE_MESSAGES.suggestionNotFound);
    await dismissSuggestion(trx, a, b, userId, now);
  });
}

/** The link to the person's status page (issue 35), working for CANDIDATE_LINK_DAYS from `now`. */
export async function statusLink(
  deps: { serverKey: ServerKey; config: Pick<Config, 'publicBaseUrl' | 'candidateLinkDays'> },
  personId: number,
  now: Date,
): Promise<{ url: string; expiresAt: Date }> {
  const expiresAt = new Date(now.getTime() + deps.config.candidateLinkDays * DAY_MS);
  return { url: `${deps.config.publicBaseUrl}/candidate/${await makeStatusToken(deps.serverKey, personId, expiresAt)}`, expiresAt };
}

/**
 * The person a status page token names (an alias answers with the person it was merged into), or
 * why none: a token not made here or changed, one past its time, or a person erased since ('invalid').
 */
export async function personOfStatusToken(
  deps: { db: Db; serverKey: ServerKey },
  token: unknown,
  now: Date,
): Promise<{ personId: number } | { problem: 'invalid' | 'expired' }> {
  const read = await readStatusToken(deps.serverKey, token, now);
  if ('problem' in read) return read;
  const person = await findPerson(deps.db, read.personId);
  return person ? { personId: person.merged_into_id ?? person.id } : { problem: 'invalid' };
}

/** The person who applied with this (lower-cased) address, or null. */
export async function personOfAddress(db: Db, email: string): Promise<number | null> {
  return personIdOfEmail(db, email);
}
