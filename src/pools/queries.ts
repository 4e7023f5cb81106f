/** Reads of talent pools: the pools, their members, a person's pools, and the members a job is offered. */
import type { Knex } from 'knex';
import { fromDbDate, fromDbJson, toDbDate } from '../db/codecs.js';

type Row = Record<string, any>;

export async function poolsWithCounts(db: Knex, now: Date): Promise<Row[]> {
  return db('talent_pools as p')
    .leftJoin('pool_members as m', 'm.pool_id', 'p.id')
    .leftJoin('pool_consents as c', function () {
      this.on('c.person_id', 'm.person_id').andOn('c.expires_at', '>', db.raw('?', [toDbDate(now)]));
    })
    .groupBy('p.id', 'p.name')
    .select('p.id', 'p.name')
    .count({ members: 'm.person_id' })
    .count({ consented: 'c.person_id' })
    .orderBy('p.name');
}

/** Members of a pool with the name, address and latest application of each, and their consent. */
export async function poolMembers(db: Knex, poolId: number): Promise<Row[]> {
  const rows: Row[] = await db('pool_members as m')
    .join('people as pe', 'pe.id', 'm.person_id')
    .leftJoin('pool_consents as c', 'c.person_id', 'm.person_id')
    .where('m.pool_id', poolId)
    .select(
      'm.person_id',
      'm.reason',
      'm.added_at',
      'pe.email',
      'c.expires_at',
      db('applications').select('id').whereRaw('person_id = m.person_id').orderBy('created_at', 'desc').limit(1).as('application_id'),
      db('applications').select('first_name').whereRaw('person_id = m.person_id').orderBy('created_at', 'desc').limit(1).as('first_name'),
      db('applications').select('last_name').whereRaw('person_id = m.person_id').orderBy('created_at', 'desc').limit(1).as('last_name'),
    )
    .orderBy('m.added_at', 'desc');
  return rows.map((r) => ({ ...r, added_at: fromDbDate(r.added_at), expires_at: fromDbDate(r.expires_at) }));
}

/** The people of these applications (those linked to one). */
export async function peopleOfApplications(db: Knex, ids: number[]): Promise<Map<number, number>> {
  const rows: Row[] = await db('applications').whereIn('id', ids).whereNotNull('person_id').select('id', 'person_id');
  return new Map(rows.map((r) => [Number(r.id), Number(r.person_id)]));
}

export async function poolsOfPerson(db: Knex, personId: number): Promise<{ id: number; name: string; reason: string; added_at: Date }[]> {
  const rows: Row[] = await db('pool_members as m')
    .join('talent_pools as p', 'p.id', 'm.pool_id')
    .where('m.person_id', personId)
    .select('p.id', 'p.name', 'm.reason', 'm.added_at')
    .orderBy('p.name');
  return rows.map((r) => ({ id: Number(r.id), name: String(r.name), reason: String(r.reason), added_at: fromDbDate(r.added_at)! }));
}

export async function personOfApplication(db: Knex, applicationId: number): Promise<number | null> {
  const row: Row | undefined = await db('applications').where({ id: applicationId }).first('person_id');
  return row?.person_id ? Number(row.person_id) : null;
}

export async function jobForMatching(
  db: Knex,
  jobId: number,
): Promise<{ id: number; title: string; public_id: string; department: string | null } | null> {
  const row: Row | undefined = await db('jobs').where({ id: jobId }).first('id', 'title', 'public_id', 'department');
  return row
    ? { id: Number(row.id), title: String(row.title), public_id: String(row.public_id), department: row.department || null }
    : null;
}

/**
 * Pool members whose consent holds at `now`, with every application of theirs (job title and
 * department, the furthest stage reached) and their submitted scorecards' ratings; those who
 * applied to `jobId` already are left out.
 */
export async function consentedMembers(db: Knex, jobId: number, now: Date) {
  const members: Row[] = await db('pool_members as m')
    .join('talent_pools as p', 'p.id', 'm.pool_id')
    .join('pool_consents as c', 'c.person_id', 'm.person_id')
    .where('c.expires_at', '>', toDbDate(now))
    .whereNotExists(db('applications as x').select(db.raw('1')).whereRaw('x.person_id = m.person_id').where('x.job_id', jobId))
    .select('m.person_id', 'p.name as pool', 'm.reason', 'm.added_at')
    .orderBy('m.added_at', 'desc')
    .limit(2000);
  const ids = [...new Set(members.map((m) => Number(m.person_id)))];
  if (!ids.length) return { members: [], applications: [], ratings: [], invites: [] };
  const [applications, ratings, invites]: Row[][] = await Promise.all([
    db('applications as a')
      .join('jobs as j', 'j.id', 'a.job_id')
      .leftJoin('job_stages as s', 's.id', 'a.stage_id')
      .whereIn('a.person_id', ids)
      .select(
        'a.id',
        'a.person_id',
        'a.first_name',
        'a.last_name',
        'a.created_at',
        'j.title',
        'j.department',
        's.name as stage',
        's.position as position',
      )
      .orderBy('a.created_at', 'desc'),
    db('scorecards as sc')
      .join('applications as a', 'a.id', 'sc.application_id')
      .whereIn('a.person_id', ids)
      .whereNotNull('sc.submitted_at')
      .select('a.person_id', 'sc.ratings'),
    db('pool_invites').where({ job_id: jobId }).whereIn('person_id', ids).select('person_id', 'invited_at'),
  ]);
  return {
    members: members.map((m) => ({
      person_id: Number(m.person_id),
      pool: String(m.pool),
      reason: String(m.reason),
      added_at: fromDbDate(m.added_at)!,
    })),
    applications: applications.map((a) => ({
      id: Number(a.id),
      person_id: Number(a.person_id),
      name: `${a.first_name} ${a.last_name}`.trim(),
      title: String(a.title),
      department: a.department || null,
      stage: a.stage ?? null,
      position: a.position === null || a.position === undefined ? -1 : Number(a.position),
    })),
    ratings: ratings.map((r) => ({
      person_id: Number(r.person_id),
      values: (fromDbJson<{ rating?: unknown }[]>(r.ratings, []) ?? [])
        .map((x) => Number(x?.rating))
        .filter((n) => Number.isFinite(n) && n >= 1),
    })),
    invites: invites.map((i) => ({ person_id: Number(i.person_id), invited_at: fromDbDate(i.invited_at)! })),
  };
}

/** Where to write to a person: the address and name of this application. */
export async function applicantContact(db: Knex, applicationId: number): Promise<{ email: string; first_name: string; last_name: string }> {
  const row: Row = await db('applications').where({ id: applicationId }).first('email', 'first_name', 'last_name');
  return { email: String(row.email), first_name: String(row.first_name), last_name: String(row.last_name ?? '') };
}

export async function poolName(db: Knex, id: number): Promise<string | null> {
  const row: Row | undefined = await db('talent_pools').where({ id }).first('name');
  return row ? String(row.name) : null;
}

/**
 * The talent pool email template HR keeps for this purpose (`email_templates`, the emails
 * feature's table, read only), or null when there is none.
 */
export async function poolTemplate(db: Knex, purpose: 'pool_invite' | 'pool_consent'): Promise<{ subject: string; body: string } | null> {
  const row: Row | undefined = await db('email_templates').where({ purpose }).orderBy('id').first('subject', 'body');
  return row ? { subject: String(row.subject), body: String(row.body) } : null;
}
