/**
 * Talent pools (issue 35): pools HR keeps; people added from the applicant page, the list's
 * selection or a rejection for "Position filled"; a member is offered to the recruiters of a new
 * job whose department or title words match (with why: furthest stage, scorecard average, reason,
 * when) only while their consent to be kept holds (given or renewed on their status page, for
 * POOL_CONSENT_DAYS); "Invite to apply" emails them the job's link. Erasing a person removes them.
 */
import type { Config } from '../../config/index.js';
import type { Db } from '../db/knex.js';
import type { ServerKey } from '../db/server-key.js';
import { Conflict, NotFound, ValidationError } from '../http/errors.js';
import { isUniqueViolation } from '../db/errors.js';
import { insertApplicationAudit } from '../applicants/index.js';
import { brandedConfig } from '../branding/index.js';
import { statusLink } from '../people/index.js';
import { enqueueEmails, oneLine } from '../posts/index.js';
import { consentEmail, inviteEmail } from './lib/mail.js';
import {
  addMembers,
  consentOf,
  deletePool,
  dropConsent,
  insertInvite,
  insertPool,
  poolByName,
  poolExists,
  removeMember,
  saveConsent,
} from './repo.js';
import {
  applicantContact,
  consentedMembers,
  jobForMatching,
  peopleOfApplications,
  personOfApplication,
  poolMembers,
  poolName,
  poolTemplate,
  poolsOfPerson,
  poolsWithCounts,
} from './queries.js';
import { POOL_MESSAGES, POSITION_FILLED } from './schema.js';
import type { AddedToPool, ConsentState, PoolMatch, PoolMember, TalentPool } from './types.js';

type PoolConfig = Pick<Config, 'publicBaseUrl' | 'candidateLinkDays' | 'poolConsentDays' | 'company' | 'mail'>;

export interface PoolDeps {
  db: Db;
  serverKey: ServerKey;
  config: PoolConfig;
  now: () => Date;
}

/** What adding to a pool needs: the clock, and (to ask for consent by email) the server key and settings. */
type AddDeps = { now: () => Date; serverKey?: ServerKey; config?: PoolConfig };

const DAY_MS = 86_400_000;

/** What a candidate agrees to on their status page to be kept in talent pools. */
export const poolConsentText = (company: string, days: number) =>
  `Keep my details so that ${company} can tell me about other jobs that fit me, for ${days} days; I can withdraw this at any time.`;

export async function listPools(db: Db, now: Date): Promise<TalentPool[]> {
  return (await poolsWithCounts(db, now)).map((p) => ({
    id: Number(p.id),
    name: String(p.name),
    members: Number(p.members),
    consented: Number(p.consented),
  }));
}

export async function createPool(db: Db, name: string, userId: number, now: Date): Promise<TalentPool> {
  try {
    const id = await db.transaction((trx) => insertPool(trx, name, userId, now));
    return { id, name, members: 0, consented: 0 };
  } catch (err) {
    if (isUniqueViolation(err)) throw new ValidationError({ name: [POOL_MESSAGES.nameTaken] });
    throw err;
  }
}

export async function removePool(db: Db, id: number): Promise<void> {
  if (!(await db.transaction((trx) => deletePool(trx, id)))) throw new NotFound(POOL_MESSAGES.poolNotFound);
}

const consentState = (expires: Date | null, now: Date): ConsentState =>
  expires === null ? 'waiting' : expires > now ? 'given' : 'expired';

export async function membersOf(db: Db, poolId: number, now: Date): Promise<PoolMember[]> {
  if (!(await poolExists(db, poolId))) throw new NotFound(POOL_MESSAGES.poolNotFound);
  return (await poolMembers(db, poolId)).map((m) => ({
    person_id: Number(m.person_id),
    name: `${m.first_name ?? ''} ${m.last_name ?? ''}`.trim(),
    email: String(m.email),
    reason: String(m.reason),
    added_at: (m.added_at as Date).toISOString(),
    consent: consentState(m.expires_at, now),
    consent_until: m.expires_at ? (m.expires_at as Date).toISOString() : null,
    application_id: Number(m.application_id),
  }));
}

/** What an addition did: the people new to the pool, those in it already, and the application ids that name no one. */
interface Added {
  added: number[];
  already: number;
  notFound: number[];
}

/**
 * Adds the people of these applications to a pool, in the caller's transaction, with a line on
 * each application's history; a person without consent that holds is asked for it by email (the
 * "Talent pool consent request" template HR edits, with a link to their status page), once per
 * addition.
 */
async function addToPool(
  trx: Db,
  deps: AddDeps,
  poolId: number,
  poolName: string,
  applicationIds: number[],
  reason: string,
  userId: number | null,
): Promise<Added> {
  const now = deps.now();
  const people = await peopleOfApplications(trx, applicationIds);
  const byPerson = new Map<number, number>();
  for (const [appId, personId] of people) if (!byPerson.has(personId)) byPerson.set(personId, appId);
  const added = await addMembers(trx, poolId, [...byPerson.keys()], reason, userId, now);
  const result = { added, already: byPerson.size - added.length, notFound: applicationIds.filter((id) => !people.has(id)) };
  if (!added.length) return result;
  await insertApplicationAudit(
    trx,
    added.map((p) => ({
      userId,
      action: 'pool',
      entityId: byPerson.get(p)!,
      details: { text: `Added to the talent pool “${poolName}” (${reason})` },
    })),
    now,
  );
  const { serverKey, config } = deps;
  if (!serverKey || !config?.mail.smtpUrl) return result;
  const asked: number[] = [];
  for (const personId of added) {
    const consent = await consentOf(trx, personId);
    if (!consent || consent.expires_at <= now) asked.push(personId);
  }
  if (!asked.length) return result;
  // Read once for every email of this addition, with the transaction (on SQLite it holds the only connection).
  const template = await poolTemplate(trx, 'pool_consent');
  const branded = await brandedConfig(trx, config);
  for (const personId of asked) {
    const appId = byPerson.get(personId)!;
    const to = await applicantContact(trx, appId);
    const link = await statusLink({ serverKey, config }, personId, now);
    const message = consentEmail(template, to, { company_name: branded.company.name, status_link: link.url, expires: link.expiresAt });
    await enqueueEmails(trx, appId, [{ template: 'pool_consent_request', message }], now);
  }
  return result;
}

export async function addApplicationsToPool(
  deps: PoolDeps,
  poolId: number,
  applicationIds: number[],
  reason: string | undefined,
  userId: number,
): Promise<AddedToPool> {
  return deps.db.transaction(async (trx) => {
    const name = await poolName(trx, poolId);
    if (name === null) throw new NotFound(POOL_MESSAGES.poolNotFound);
    const done = await addToPool(trx, deps, poolId, name, applicationIds, reason || 'Added by HR', userId);
    return { added: done.added.length, already: done.already, not_found: done.notFound };
  });
}

/** A rejection for "Position filled" keeps the candidate in the pool of that name (made on first use), in the rejection's transaction. */
export async function keepPositionFilled(trx: Db, deps: AddDeps, applicationIds: number[], userId: number | null): Promise<void> {
  const poolId = (await poolByName(trx, POSITION_FILLED)) ?? (await insertPool(trx, POSITION_FILLED, userId, deps.now()));
  await addToPool(trx, deps, poolId, POSITION_FILLED, applicationIds, `Rejected: ${POSITION_FILLED}`, userId);
}

export async function leavePool(db: Db, poolId: number, personId: number): Promise<void> {
  if (!(await db.transaction((trx) => removeMember(trx, poolId, personId)))) throw new NotFound(POOL_MESSAGES.memberNotFound);
}

/** The pools of an application's person, for the applicant page. */
export async function applicationPools(db: Db, applicationId: number, now: Date) {
  const personId = await personOfApplication(db, applicationId);
  if (personId === null) return { pools: [], consent: 'waiting' as ConsentState, consent_until: null };
  const [pools, consent] = await Promise.all([poolsOfPerson(db, personId), consentOf(db, personId)]);
  return {
    pools: pools.map((p) => ({ id: p.id, name: p.name, reason: p.reason, added_at: p.added_at.toISOString() })),
    consent: consentState(consent?.expires_at ?? null, now),
    consent_until: consent?.expires_at.toISOString() ?? null,
  };
}

const STOP_WORDS = new Set(['and', 'the', 'for', 'with', 'of', 'in', 'senior', 'junior', 'lead', 'head', 'remote']);
const titleWords = (title: string) =>
  new Set(
    title
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length >= 3 && !STOP_WORDS.has(w)),
  );

/** The pool members a job is offered: consent holding, not applied to it, with a department or title word in common; why for each. */
export async function jobMatches(db: Db, jobId: number, now: Date): Promise<PoolMatch[]> {
  const job = await jobForMatching(db, jobId);
  if (!job) throw new NotFound('Job not found.');
  const words = titleWords(job.title);
  const dept = job.department?.trim().toLowerCase() ?? null;
  const data = await consentedMembers(db, jobId, now);
  const out: PoolMatch[] = [];
  const seen = new Set<number>();
  for (const m of data.members) {
    if (seen.has(m.person_id)) continue;
    const apps = data.applications.filter((a) => a.person_id === m.person_id);
    if (!apps.length) continue;
    const sameDept = dept ? apps.find((a) => a.department?.trim().toLowerCase() === dept) : undefined;
    const shared = [...new Set(apps.flatMap((a) => [...titleWords(a.title)].filter((w) => words.has(w))))];
    if (!sameDept && !shared.length) continue;
    seen.add(m.person_id);
    const furthest = apps.reduce((best, a) => (a.position > best.position ? a : best), apps[0]);
    const values = data.ratings.filter((r) => r.person_id === m.person_id).flatMap((r) => r.values);
    out.push({
      person_id: m.person_id,
      name: apps[0].name,
      pool: m.pool,
      reason: m.reason,
      added_at: m.added_at.toISOString(),
      why: sameDept ? `Same department (${sameDept.department})` : `Title words: ${shared.join(', ')}`,
      furthest_stage: furthest.stage ? `${furthest.stage} (${furthest.title})` : null,
      scorecard_average: values.length ? Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 10) / 10 : null,
      application_id: apps[0].id,
      invited_at: data.invites.find((i) => i.person_id === m.person_id)?.invited_at.toISOString() ?? null,
    });
  }
  return out;
}

/** Emails a matched member the job's link (once per job; the "Talent pool invitation" template HR edits), with a line on their latest application's history. */
export async function inviteToApply(deps: PoolDeps, jobId: number, personId: number, userId: number): Promise<{ invited_at: string }> {
  if (!deps.config.mail.smtpUrl) throw new Conflict(POOL_MESSAGES.noEmail);
  const now = deps.now();
  const match = (await jobMatches(deps.db, jobId, now)).find((m) => m.person_id === personId);
  if (!match || match.invited_at) throw new Conflict(POOL_MESSAGES.notMatched);
  const job = (await jobForMatching(deps.db, jobId))!;
  const url = `${deps.config.publicBaseUrl}/careers/${encodeURIComponent(job.public_id)}?utm_source=talent-pool&utm_medium=email`;
  await deps.db.transaction(async (trx) => {
    if (!(await insertInvite(trx, personId, jobId, userId, now))) throw new Conflict(POOL_MESSAGES.notMatched);
    const to = await applicantContact(trx, match.application_id);
    const template = await poolTemplate(trx, 'pool_invite');
    const branded = await brandedConfig(trx, deps.config);
    const message = inviteEmail(template, to, { company_name: branded.company.name, job_title: job.title, job_url: url });
    await enqueueEmails(trx, match.application_id, [{ template: 'pool_invite', message }], now);
    await insertApplicationAudit(
      trx,
      [{ userId, action: 'pool', entityId: match.application_id, details: { text: `Invited to apply for ${oneLine(job.title)}` } }],
      now,
    );
  });
  return { invited_at: now.toISOString() };
}

/** The status page's part: whether the person is in a pool and their consent. */
export async function personPoolState(
  db: Db,
  personId: number,
  now: Date,
): Promise<{ in_pools: boolean; consent: ConsentState; until: Date | null }> {
  const [pools, consent] = await Promise.all([poolsOfPerson(db, personId), consentOf(db, personId)]);
  return { in_pools: pools.length > 0, consent: consentState(consent?.expires_at ?? null, now), until: consent?.expires_at ?? null };
}

/** The candidate gives or renews consent (from their status page): for POOL_CONSENT_DAYS from now. */
export async function givePoolConsent(deps: Pick<PoolDeps, 'db' | 'config' | 'now'>, personId: number): Promise<void> {
  const now = deps.now();
  const text = poolConsentText(deps.config.company.name, deps.config.poolConsentDays);
  await deps.db.transaction((trx) => saveConsent(trx, personId, text, now, new Date(now.getTime() + deps.config.poolConsentDays * DAY_MS)));
}

/** The candidate withdraws consent: they leave every pool. */
export async function withdrawPoolConsent(db: Db, personId: number): Promise<void> {
  await db.transaction((trx) => dropConsent(trx, personId));
}
