/**
 * The only code touching the scorecards feature's tables (migration 029): kit templates, a job's
 * stage kits, scorecards, their amendments and the debrief's decisions. It reads the application,
 * its job and stages and HR users' names (other features' tables) only to check and name them.
 */
import type { Knex } from 'knex';
import { fromDbDate, fromDbJson, insertedId, toDbDate, toDbJson } from '../db/codecs.js';
import { isMysql } from '../db/knex.js';
import type { AttributeRating, KitAttribute, KitContent, Recommendation } from './scorecards.types.js';

const iso = (v: unknown) => fromDbDate(v)?.toISOString() ?? null;

function kitContent(row: { instructions: string; questions: unknown; attributes: unknown }): KitContent {
  return {
    instructions: row.instructions,
    questions: fromDbJson<string[]>(row.questions, []),
    attributes: fromDbJson<KitAttribute[]>(row.attributes, []),
  };
}

const kitValues = (k: KitContent) => ({
  instructions: k.instructions,
  questions: toDbJson(k.questions),
  attributes: toDbJson(k.attributes),
});

// ---- Templates ----

export interface TemplateRow extends KitContent {
  id: number;
  name: string;
  created_at: string;
  updated_at: string;
}

function templateOf(r: any): TemplateRow {
  return { id: Number(r.id), name: r.name, ...kitContent(r), created_at: iso(r.created_at)!, updated_at: iso(r.updated_at)! };
}

export async function listTemplates(db: Knex): Promise<TemplateRow[]> {
  return (
    await db('kit_templates')
      .select('*')
      .orderBy([{ column: 'name' }, { column: 'id' }])
  ).map(templateOf);
}

export async function findTemplate(db: Knex, id: number): Promise<TemplateRow | null> {
  const row = await db('kit_templates').where({ id }).first();
  return row ? templateOf(row) : null;
}

/** Every template's id and name, locked (a name stays unique while one is written). */
export async function lockTemplateNames(trx: Knex): Promise<{ id: number; name: string }[]> {
  return (await trx('kit_templates').select('id', 'name').forUpdate()).map((r: any) => ({ id: Number(r.id), name: r.name }));
}

export async function insertTemplate(trx: Knex, t: KitContent & { name: string }, now: Date): Promise<number> {
  const at = toDbDate(now);
  return insertedId(await trx('kit_templates').insert({ name: t.name, ...kitValues(t), created_at: at, updated_at: at }));
}

export async function updateTemplate(trx: Knex, id: number, t: KitContent & { name: string }, now: Date): Promise<void> {
  await trx('kit_templates')
    .where({ id })
    .update({ name: t.name, ...kitValues(t), updated_at: toDbDate(now) });
}

export async function deleteTemplate(db: Knex, id: number): Promise<number> {
  return db('kit_templates').where({ id }).delete();
}

// ---- Jobs, stages, kits ----

export interface StageRow {
  id: number;
  name: string;
  position: number;
}

export async function findJob(db: Knex, id: number): Promise<{ id: number; title: string; status: string } | null> {
  const row = await db('jobs').where({ id }).first('id', 'title', 'status');
  return row ? { id: Number(row.id), title: row.title, status: row.status } : null;
}

export async function stagesOfJob(db: Knex, jobId: number): Promise<StageRow[]> {
  return (
    await db('job_stages')
      .where({ job_id: jobId })
      .orderBy([{ column: 'position' }, { column: 'id' }])
      .select('id', 'name', 'position')
  ).map((r: any) => ({ id: Number(r.id), name: r.name, position: Number(r.position) }));
}

export interface KitRow extends KitContent {
  stage_id: number;
  template_id: number | null;
  updated_at: string;
}

function kitOf(r: any): KitRow {
  return {
    stage_id: Number(r.stage_id),
    template_id: r.template_id === null ? null : Number(r.template_id),
    ...kitContent(r),
    updated_at: iso(r.updated_at)!,
  };
}

export async function kitsOfJob(db: Knex, jobId: number): Promise<KitRow[]> {
  return (await db('interview_kits').where({ job_id: jobId }).select('*')).map(kitOf);
}

export async function kitOfStage(db: Knex, stageId: number): Promise<KitRow | null> {
  const row = await db('interview_kits').where({ stage_id: stageId }).first();
  return row ? kitOf(row) : null;
}

/** Writes a stage's kit (one per stage): updated when it exists, else inserted. */
export async function saveKit(
  trx: Knex,
  jobId: number,
  stageId: number,
  kit: KitContent & { template_id: number | null },
  userId: number,
  now: Date,
): Promise<void> {
  const values = { ...kitValues(kit), template_id: kit.template_id, updated_at: toDbDate(now), updated_by: userId };
  // Two first saves of one stage at once would both find no row and deadlock on the inserts
  // (MySQL's gap locks); locking the job first makes them take turns. SQLite writes one at a time.
  if (isMysql(trx)) await trx('jobs').where({ id: jobId }).forUpdate().first('id');
  const updated = await trx('interview_kits').where({ stage_id: stageId }).update(values);
  if (!updated) await trx('interview_kits').insert({ job_id: jobId, stage_id: stageId, ...values });
}

// ---- Applications and users ----

export interface ApplicationRow {
  id: number;
  job_id: number;
  job_title: string;
  job_status: string;
  stage_id: number | null;
  outcome: string | null;
  name: string;
  has_resume: boolean;
}

export async function findApplication(db: Knex, id: number): Promise<ApplicationRow | null> {
  const row = await db('applications as a')
    .join('jobs as j', 'j.id', 'a.job_id')
    .where('a.id', id)
    .first(
      'a.id',
      'a.job_id',
      'a.stage_id',
      'a.outcome',
      'a.resume_file_id',
      'a.first_name',
      'a.last_name',
      'j.title as job_title',
      'j.status as job_status',
    );
  if (!row) return null;
  return {
    id: Number(row.id),
    job_id: Number(row.job_id),
    job_title: row.job_title,
    job_status: row.job_status,
    stage_id: row.stage_id === null ? null : Number(row.stage_id),
    outcome: row.outcome,
    name: [row.first_name, row.last_name].filter(Boolean).join(' '),
    has_resume: row.resume_file_id !== null && row.resume_file_id !== undefined,
  };
}

export async function findHrUser(
  db: Knex,
  id: number,
): Promise<{ id: number; username: string; email: string | null; active: boolean } | null> {
  const row = await db('hr_users').where({ id }).first('id', 'username', 'email', 'is_active');
  if (!row) return null;
  return {
    id: Number(row.id),
    username: row.username,
    email: row.email ?? null,
    active: row.is_active === true || Number(row.is_active) === 1,
  };
}

// ---- Scorecards ----

export interface ScorecardRow {
  id: number;
  application_id: number;
  stage_id: number;
  stage_name: string;
  interviewer_user_id: number | null;
  interviewer_email: string | null;
  interviewer_name: string;
  interview_at: Date | null;
  requested_at: Date;
  requested_by_name: string | null;
  ratings: AttributeRating[];
  recommendation: Recommendation | null;
  submitted_at: Date | null;
  updated_at: Date;
}

function scorecardOf(r: any): ScorecardRow {
  return {
    id: Number(r.id),
    application_id: Number(r.application_id),
    stage_id: Number(r.stage_id),
    stage_name: r.stage_name,
    interviewer_user_id: r.interviewer_user_id === null ? null : Number(r.interviewer_user_id),
    interviewer_email: r.interviewer_email,
    interviewer_name: r.interviewer_name,
    interview_at: fromDbDate(r.interview_at),
    requested_at: fromDbDate(r.requested_at)!,
    requested_by_name: r.requested_by_name ?? null,
    ratings: fromDbJson<AttributeRating[]>(r.ratings, []),
    recommendation: r.recommendation ?? null,
    submitted_at: fromDbDate(r.submitted_at),
    updated_at: fromDbDate(r.updated_at)!,
  };
}

const scorecardQuery = (db: Knex) =>
  db('scorecards as s').leftJoin('hr_users as r', 'r.id', 's.requested_by').select('s.*', 'r.username as requested_by_name');

export async function scorecardsOf(db: Knex, applicationId: number): Promise<ScorecardRow[]> {
  return (await scorecardQuery(db).where('s.application_id', applicationId).orderBy('s.id')).map(scorecardOf);
}

export async function findScorecard(db: Knex, applicationId: number, id: number): Promise<ScorecardRow | null> {
  const row = await scorecardQuery(db).where({ 's.application_id': applicationId, 's.id': id }).first();
  return row ? scorecardOf(row) : null;
}

/** Whether this interviewer (an HR user or an email) is already asked on the application at the stage. */
export async function alreadyAsked(
  db: Knex,
  applicationId: number,
  stageId: number,
  who: { userId: number } | { email: string },
): Promise<boolean> {
  const q = db('scorecards').where({ application_id: applicationId, stage_id: stageId });
  if ('userId' in who) q.andWhere('interviewer_user_id', who.userId);
  else q.andWhere('interviewer_email', who.email);
  return !!(await q.first('id'));
}

/** Moves the interview time of a scorecard not submitted yet (its interview was rescheduled, issue 32): it is due 24 h after that. */
export async function moveInterviewAt(
  trx: Knex,
  applicationId: number,
  stageId: number,
  who: { userId: number } | { email: string },
  at: Date,
): Promise<void> {
  const q = trx('scorecards').where({ application_id: applicationId, stage_id: stageId }).whereNull('submitted_at');
  if ('userId' in who) q.andWhere('interviewer_user_id', who.userId);
  else q.andWhere('interviewer_email', who.email);
  await q.update({ interview_at: toDbDate(at) });
}

/**
 * The interview these scorecards were asked for (at `at`) was cancelled, or its interviewer taken
 * off it (issue 32): the unsubmitted ones are withdrawn: an outside person's link dies and no
 * overdue reminder goes.
 */
export async function withdrawForInterview(
  trx: Knex,
  applicationId: number,
  stageId: number,
  who: ({ userId: number } | { email: string })[],
  at: Date,
  now: Date,
): Promise<void> {
  if (!who.length) return;
  const rows = () =>
    trx('scorecards')
      .where({ application_id: applicationId, stage_id: stageId, interview_at: toDbDate(at) })
      .whereNull('submitted_at')
      .where((w) => {
        for (const x of who) 'userId' in x ? w.orWhere('interviewer_user_id', x.userId) : w.orWhere('interviewer_email', x.email);
      });
  await rows()
    .whereNotNull('token_hash')
    .update({ token_expires_at: toDbDate(now) });
  await rows()
    .whereNull('reminded_at')
    .update({ reminded_at: toDbDate(now) });
}

export async function insertScorecard(
  trx: Knex,
  v: {
    applicationId: number;
    stageId: number;
    stageName: string;
    userId: number | null;
    email: string | null;
    name: string;
    interviewAt: Date | null;
    requestedBy: number | null;
  },
  now: Date,
): Promise<number> {
  const at = toDbDate(now);
  return insertedId(
    await trx('scorecards').insert({
      application_id: v.applicationId,
      stage_id: v.stageId,
      stage_name: v.stageName,
      interviewer_user_id: v.userId,
      interviewer_email: v.email,
      interviewer_name: v.name,
      interview_at: v.interviewAt ? toDbDate(v.interviewAt) : null,
      requested_by: v.requestedBy,
      requested_at: at,
      ratings: toDbJson([]),
      updated_at: at,
    }),
  );
}

export async function updateScorecardContent(
  trx: Knex,
  id: number,
  v: { ratings: AttributeRating[]; recommendation: Recommendation | null },
  now: Date,
): Promise<void> {
  await trx('scorecards')
    .where({ id })
    .update({ ratings: toDbJson(v.ratings), recommendation: v.recommendation, updated_at: toDbDate(now) });
}

/** Marks a draft submitted; false when it already was (submitted once, whoever was first). */
export async function markSubmitted(trx: Knex, id: number, now: Date): Promise<boolean> {
  const n = await trx('scorecards')
    .where({ id })
    .whereNull('submitted_at')
    .update({ submitted_at: toDbDate(now), updated_at: toDbDate(now) });
  return n === 1;
}

export interface AmendmentRow {
  id: number;
  scorecard_id: number;
  note: string;
  author: string | null;
  created_at: string;
}

export async function amendmentsOf(db: Knex, scorecardIds: number[]): Promise<AmendmentRow[]> {
  if (!scorecardIds.length) return [];
  return (
    await db('scorecard_amendments as m')
      .leftJoin('hr_users as u', 'u.id', 'm.user_id')
      .whereIn('m.scorecard_id', scorecardIds)
      .orderBy('m.id')
      .select('m.id', 'm.scorecard_id', 'm.note', 'm.created_at', 'u.username as author')
  ).map((r: any) => ({
    id: Number(r.id),
    scorecard_id: Number(r.scorecard_id),
    note: r.note,
    author: r.author ?? null,
    created_at: iso(r.created_at)!,
  }));
}

export async function insertAmendment(db: Knex, scorecardId: number, userId: number, note: string, now: Date): Promise<void> {
  await db('scorecard_amendments').insert({ scorecard_id: scorecardId, user_id: userId, note, created_at: toDbDate(now) });
}

// ---- Decisions ----

export interface DecisionRow {
  id: number;
  stage_name: string;
  decision: string;
  reason: string | null;
  by: string | null;
  created_at: string;
}

export async function decisionsOf(db: Knex, applicationId: number): Promise<DecisionRow[]> {
  return (
    await db('scorecard_decisions as d')
      .leftJoin('hr_users as u', 'u.id', 'd.user_id')
      .where('d.application_id', applicationId)
      .orderBy('d.id')
      .select('d.id', 'd.stage_name', 'd.decision', 'd.reason', 'd.created_at', 'u.username as by')
  ).map((r: any) => ({
    id: Number(r.id),
    stage_name: r.stage_name,
    decision: r.decision,
    reason: r.reason,
    by: r.by ?? null,
    created_at: iso(r.created_at)!,
  }));
}

export async function insertDecision(
  db: Knex,
  v: { applicationId: number; stageId: number | null; stageName: string; decision: string; reason: string | null; userId: number },
  now: Date,
): Promise<void> {
  await db('scorecard_decisions').insert({
    application_id: v.applicationId,
    stage_id: v.stageId,
    stage_name: v.stageName,
    decision: v.decision,
    reason: v.reason,
    user_id: v.userId,
    created_at: toDbDate(now),
  });
}

// ---- What goes with a submission or a decision ----

/** The job's webhook as it is now: its URL when posting is on, else null. */
export async function jobWebhookUrl(db: Knex, jobId: number): Promise<string | null> {
  const row = await db('jobs').where({ id: jobId }).first('webhook_enabled', 'webhook_url');
  const on = row && (row.webhook_enabled === true || Number(row.webhook_enabled) === 1);
  return on && row.webhook_url ? String(row.webhook_url) : null;
}

/** Active HR users (who may be asked for feedback), by name. */
export async function activeHrUsers(db: Knex): Promise<{ id: number; username: string }[]> {
  return (await db('hr_users').where({ is_active: true }).orderBy('username').select('id', 'username')).map((r: any) => ({
    id: Number(r.id),
    username: r.username,
  }));
}

/** The rejection reasons HR keeps, in their order. */
export async function rejectionReasonNames(db: Knex): Promise<string[]> {
  return (
    await db('rejection_reasons')
      .orderBy([{ column: 'position' }, { column: 'id' }])
      .select('name')
  ).map((r: any) => String(r.name));
}

// ---- Feedback links of outside interviewers ----

/** Sets the SHA-256 of an outside interviewer's link and when it expires. */
export async function setScorecardToken(trx: Knex, id: number, tokenHash: string, expiresAt: Date): Promise<void> {
  await trx('scorecards')
    .where({ id })
    .update({ token_hash: tokenHash, token_expires_at: toDbDate(expiresAt) });
}

/** The scorecard a link's hash names, with when the link expires (null: none). */
export async function findScorecardByToken(
  db: Knex,
  tokenHash: string,
): Promise<(ScorecardRow & { token_expires_at: Date | null }) | null> {
  const row = await scorecardQuery(db).where('s.token_hash', tokenHash).first();
  return row ? { ...scorecardOf(row), token_expires_at: fromDbDate(row.token_expires_at) } : null;
}

// ---- Overdue scorecards ----

export interface OverdueRow {
  id: number;
  application_id: number;
  applicant: string;
  job_title: string;
  stage_name: string;
  interviewer_name: string;
  interviewer_email: string | null;
  user_email: string | null;
  due_from: Date;
  reminded_at: Date | null;
}

/**
 * Scorecards not submitted whose interview (or, without a time, whose request) is older than
 * `before`, on jobs not removed, oldest first, at most `limit`; `unremindedOnly`: only those whose
 * reminder is not queued yet; `jobIds`: of those jobs only (a hiring manager's dashboard, issue 31).
 */
export async function overdueScorecards(
  db: Knex,
  before: Date,
  opts: { unremindedOnly: boolean; limit: number; jobIds?: readonly number[] | null },
): Promise<OverdueRow[]> {
  const at = toDbDate(before);
  const q = db('scorecards as s')
    .join('applications as a', 'a.id', 's.application_id')
    .join('jobs as j', 'j.id', 'a.job_id')
    .leftJoin('hr_users as u', 'u.id', 's.interviewer_user_id')
    .whereNull('s.submitted_at')
    .whereNot('j.status', 'REMOVED')
    .where((w) => w.where('s.interview_at', '<', at).orWhere((x) => x.whereNull('s.interview_at').andWhere('s.requested_at', '<', at)))
    .modify((m) => {
      if (opts.jobIds) m.whereIn('a.job_id', opts.jobIds.length ? [...opts.jobIds] : [0]);
    })
    .orderBy('s.id')
    .limit(opts.limit)
    .select(
      's.id',
      's.application_id',
      'a.first_name',
      'a.last_name',
      'j.title as job_title',
      's.stage_name',
      's.interviewer_name',
      's.interviewer_email',
      'u.email as user_email',
      's.interview_at',
      's.requested_at',
      's.reminded_at',
    );
  if (opts.unremindedOnly) q.whereNull('s.reminded_at');
  return (await q).map((r: any) => ({
    id: Number(r.id),
    application_id: Number(r.application_id),
    applicant: [r.first_name, r.last_name].filter(Boolean).join(' '),
    job_title: r.job_title,
    stage_name: r.stage_name,
    interviewer_name: r.interviewer_name,
    interviewer_email: r.interviewer_email ?? null,
    user_email: r.user_email ?? null,
    due_from: fromDbDate(r.interview_at) ?? fromDbDate(r.requested_at)!,
    reminded_at: fromDbDate(r.reminded_at),
  }));
}

/** Marks a scorecard's reminder queued; false when another sweep already did (one reminder, once). */
export async function claimReminder(trx: Knex, id: number, now: Date): Promise<boolean> {
  return (
    (await trx('scorecards')
      .where({ id })
      .whereNull('reminded_at')
      .whereNull('submitted_at')
      .update({ reminded_at: toDbDate(now) })) === 1
  );
}
