/**
 * A job's hiring team (issue 31): read it, replace it (PUT: the whole team, checked against the
 * active HR users, audited like other job changes), and who can open an application and why.
 */
import type { Db } from '../db/knex.js';
import { NotFound, ValidationError } from '../http/errors.js';
import { TEAM_MESSAGES, type TeamInput } from './schema.js';
import type { ApplicantViewer, JobTeam } from './types.js';
import { findTeamJob, hiringManagersOf, jobOfApplication, teamCandidates, teamOf, usersSeeingAll } from './queries.js';
import { interviewersOf } from './interviews.queries.js';
import { activeUserIds, insertTeamAudit, lockJob, teamRows, writeTeam } from './repo.js';

/** The job's team and the users who may join it (404 for an unknown or removed job). */
export async function jobTeam(db: Db, jobId: number): Promise<JobTeam> {
  const job = await findTeamJob(db, jobId);
  if (!job) throw new NotFound(TEAM_MESSAGES.jobNotFound);
  const [members, candidates] = await Promise.all([teamOf(db, jobId), teamCandidates(db)]);
  return { job_id: jobId, members, candidates };
}

/**
 * Replaces the job's team: every member must be an active HR user (400 naming the others); the
 * change and the team before it go to the audit log in the same transaction. An unchanged team
 * writes nothing.
 */
export async function replaceTeam(db: Db, jobId: number, members: TeamInput, userId: number, now: Date): Promise<JobTeam> {
  await db.transaction(async (trx) => {
    const job = await lockJob(trx, jobId);
    if (!job) throw new NotFound(TEAM_MESSAGES.jobNotFound);
    const active = await activeUserIds(
      trx,
      members.map((m) => m.user_id),
    );
    const errors: Record<string, string[]> = {};
    members.forEach((m, i) => {
      if (!active.has(m.user_id)) errors[`members.${i}.user_id`] = [TEAM_MESSAGES.unknownUser(m.user_id)];
    });
    if (Object.keys(errors).length) throw new ValidationError(errors);
    const before = await teamRows(trx, jobId);
    const after = [...members].sort((a, b) => a.user_id - b.user_id);
    if (JSON.stringify(before) === JSON.stringify(after)) return;
    await writeTeam(trx, jobId, after, now);
    await insertTeamAudit(trx, userId, jobId, { from: before, to: after }, now);
  });
  return jobTeam(db, jobId);
}

/**
 * Who can open the application and the rule that lets each one (the applicant page's "Who can see
 * this applicant and why"); the rules are access.service.ts's. Null for an unknown application.
 */
export async function applicantViewers(db: Db, applicationId: number): Promise<ApplicantViewer[] | null> {
  const jobId = await jobOfApplication(db, applicationId);
  if (jobId === null) return null;
  const [all, managers, interviewers, job] = await Promise.all([
    usersSeeingAll(db),
    hiringManagersOf(db, jobId),
    interviewersOf(db, applicationId),
    findTeamJob(db, jobId),
  ]);
  const title = job?.title ?? `job ${jobId}`;
  const out: ApplicantViewer[] = all.map((u) => ({
    user_id: u.user_id,
    username: u.username,
    rule: u.role === 'admin' ? 'admin' : 'recruiter',
  }));
  for (const m of managers) out.push({ user_id: m.user_id, username: m.username, rule: `hiring manager of ${title}` });
  const stages = new Map<number, { username: string; stages: string[] }>();
  for (const i of interviewers) {
    const entry = stages.get(i.user_id) ?? { username: i.username, stages: [] };
    if (!entry.stages.includes(i.stage)) entry.stages.push(i.stage);
    stages.set(i.user_id, entry);
  }
  for (const [id, v] of stages) out.push({ user_id: id, username: v.username, rule: `asked to interview (${v.stages.join(', ')})` });
  return out;
}
