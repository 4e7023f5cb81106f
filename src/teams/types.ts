/** Shapes of the teams feature shared with islands (Node-free): a job's hiring team (issue 31). */
import type { UserRole } from '../users/types.js';

/** What a member does on a job's hiring team; one role per user per job. */
export const TEAM_ROLES = ['recruiter', 'hiring_manager', 'coordinator', 'interviewer'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

export const TEAM_ROLE_LABELS: Record<TeamRole, string> = {
  recruiter: 'Recruiter',
  hiring_manager: 'Hiring manager',
  coordinator: 'Coordinator',
  interviewer: 'Interviewer',
};

/** A member as GET/PUT /api/hr/jobs/{id}/team/ answer them. */
export interface TeamMember {
  user_id: number;
  username: string;
  role: TeamRole;
  /** The user's account role (admin, recruiter, hiring_manager, interviewer). */
  user_role: UserRole;
}

/** An HR user who may be put on a team (active users), for the Team tab's picker. */
export interface TeamCandidate {
  id: number;
  username: string;
  role: UserRole;
}

/** GET/PUT /api/hr/jobs/{id}/team/. */
export interface JobTeam {
  job_id: number;
  members: TeamMember[];
  candidates: TeamCandidate[];
}

/** One person who can open an applicant, and the rule that lets them ("Who can see this applicant and why"). */
export interface ApplicantViewer {
  user_id: number;
  username: string;
  rule: string;
}
