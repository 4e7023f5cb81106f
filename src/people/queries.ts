/** Reads of the people feature: a person's applications, the review list of suggested duplicates, recent merges. */
import type { Knex } from 'knex';
import { fromDbDate, fromDbJson, toDbDate } from '../db/codecs.js';
import { NOTHING_MOVED, type Moved } from './repo.js';
import type { AccessScope } from '../shared/access-scope.js';
import type { PersonApplication, PersonSummary, SuggestionReason } from './types.js';

type Row = Record<string, any>;

const APPLICATION_COLUMNS = [
  'a.id',
  'a.person_id',
  'a.job_id',
  'j.title as job_title',
  'a.email',
  'a.status',
  's.name as stage',
  'a.outcome',
  'a.outcome_reason',
  'a.created_at',
  'a.first_name',
  'a.last_name',
  'a.phone',
];

const toApplication = (r: Row): PersonApplication => ({
  id: Number(r.id),
  job_id: Number(r.job_id),
  job_title: String(r.job_title ?? ''),
  email: r.email,
  status: r.status,
  stage: r.stage ?? null,
  outcome: r.outcome ?? null,
  outcome_reason: r.outcome_reason ?? null,
  created_at: fromDbDate(r.created_at)!.toISOString(),
});

function applicationsQuery(db: Knex): Knex.QueryBuilder {
  return db('applications as a')
    .join('jobs as j', 'j.id', 'a.job_id')
    .leftJoin('job_stages as s', 's.id', 'a.stage_id')
    .select(APPLICATION_COLUMNS)
    .orderBy([
      { column: 'a.created_at', order: 'desc' },
      { column: 'a.id', order: 'desc' },
    ]);
}

function inScope(q: Knex.QueryBuilder, scope: AccessScope): Knex.QueryBuilder {
  if (scope.jobIds !== null) q.whereIn('a.job_id', scope.jobIds.length ? scope.jobIds : [0]);
  if (scope.applicationIds !== null) q.whereIn('a.id', scope.applicationIds.length ? scope.applicationIds : [0]);
  return q;
}

/** The person's other applications the scope lets through, newest first (none: no person, or no other). */
export async function otherApplications(db: Knex, applicationId: number, scope: AccessScope): Promise<PersonApplication[]> {
  const rows: Row[] = await inScope(
    applicationsQuery(db)
      .where('a.person_id', db('applications').where('id', applicationId).select('person_id'))
      .whereNot('a.id', applicationId),
    scope,
  );
  return rows.map(toApplication);
}

/** Open (not dismissed) suggestions, newest first: a page of pairs and the count. */
export async function openSuggestions(
  db: Knex,
  offset: number,
  limit: number,
): Promise<{ count: number; pairs: { person_id: number; other_person_id: number; reason: SuggestionReason; created_at: Date }[] }> {
  const open = () => db('person_suggestions').whereNull('dismissed_at');
  const [countRow, rows]: [Row | undefined, Row[]] = await Promise.all([
    open().count({ n: '*' }).first(),
    open()
      .select('person_id', 'other_person_id', 'reason', 'created_at')
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'person_id', order: 'desc' },
        { column: 'other_person_id', order: 'desc' },
      ])
      .offset(offset)
      .limit(limit),
  ]);
  return {
    count: Number(countRow?.n ?? 0),
    pairs: rows.map((r) => ({
      person_id: Number(r.person_id),
      other_person_id: Number(r.other_person_id),
      reason: r.reason,
      created_at: fromDbDate(r.created_at)!,
    })),
  };
}

/** The people with their applications (newest first), named by their latest application. */
export async function peopleSummaries(db: Knex, ids: number[]): Promise<Map<number, PersonSummary>> {
  const out = new Map<number, PersonSummary>();
  if (!ids.length) return out;
  const rows: Row[] = await applicationsQuery(db).whereIn('a.person_id', ids);
  for (const r of rows) {
    const id = Number(r.person_id);
    let person = out.get(id);
    if (!person) {
      person = { id, name: `${r.first_name} ${r.last_name}`.trim(), email: r.email, phone: r.phone, applications: [] };
      out.set(id, person);
    }
    person.applications.push(toApplication(r));
  }
  return out;
}

/** A merge as the review list reads it. */
export interface MergeView {
  id: number;
  from_person_id: number;
  into_person_id: number;
  moved: Moved;
  created_at: Date;
  undone_at: Date | null;
  merged_by: string | null;
}

function mergesQuery(db: Knex): Knex.QueryBuilder {
  return db('person_merges as m')
    .leftJoin('hr_users as u', 'u.id', 'm.merged_by')
    .select('m.id', 'm.from_person_id', 'm.into_person_id', 'm.moved', 'm.created_at', 'm.undone_at', 'u.username');
}

const toMergeView = (r: Row): MergeView => ({
  id: Number(r.id),
  from_person_id: Number(r.from_person_id),
  into_person_id: Number(r.into_person_id),
  moved: fromDbJson<Moved>(r.moved, NOTHING_MOVED),
  created_at: fromDbDate(r.created_at)!,
  undone_at: fromDbDate(r.undone_at),
  merged_by: r.username ?? null,
});

/** Merges made since `since`, newest first. */
export async function recentMerges(db: Knex, since: Date, limit: number): Promise<MergeView[]> {
  const rows: Row[] = await mergesQuery(db).where('m.created_at', '>=', toDbDate(since)).orderBy('m.id', 'desc').limit(limit);
  return rows.map(toMergeView);
}

export async function mergeById(db: Knex, id: number): Promise<MergeView | null> {
  const row: Row | undefined = await mergesQuery(db).where('m.id', id).first();
  return row ? toMergeView(row) : null;
}
