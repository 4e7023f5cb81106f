/**
 * Who is asked to interview whom (issue 31): an interviewer's applications are those where they
 * have a scorecard request (the scorecards feature's `scorecards` rows, read-only here, decision
 * 0010): a draft or a submitted scorecard alike.
 */
import type { Knex } from 'knex';

type Row = Record<string, any>;

/** The applications the user has a scorecard request on. */
export async function applicationsToInterview(db: Knex, userId: number): Promise<number[]> {
  const rows: Row[] = await db('scorecards').where({ interviewer_user_id: userId }).distinct('application_id');
  return rows.map((r) => Number(r.application_id));
}

/** The active interviewers (users of role interviewer) asked to interview on this application, with the stages they are asked for. */
export async function interviewersOf(db: Knex, applicationId: number): Promise<{ user_id: number; username: string; stage: string }[]> {
  const rows: Row[] = await db('scorecards as s')
    .join('hr_users as u', 'u.id', 's.interviewer_user_id')
    .where({ 's.application_id': applicationId, 'u.is_active': 1, 'u.role': 'interviewer' })
    .orderBy([{ column: 'u.username' }, { column: 's.stage_name' }])
    .select('u.id', 'u.username', 's.stage_name');
  return rows.map((r) => ({ user_id: Number(r.id), username: r.username, stage: r.stage_name }));
}
