/** Shapes of the users feature shared with islands (Node-free). */

/**
 * admin: everything; recruiter: everything but users and settings; hiring_manager: the jobs whose
 * hiring team they are on; interviewer: the applications they are asked to interview (issue 31,
 * the rules in src/teams/access.service.ts).
 */
export const USER_ROLES = ['admin', 'recruiter', 'hiring_manager', 'interviewer'] as const;
export type UserRole = (typeof USER_ROLES)[number];

/** Role names as the Users page shows them. */
export const ROLE_LABELS: Record<UserRole, string> = {
  admin: 'Admin',
  recruiter: 'Recruiter',
  hiring_manager: 'Hiring manager',
  interviewer: 'Interviewer',
};

/** What each role may do, as the Users page explains it. */
export const ROLE_HELP: Record<UserRole, string> = {
  admin: 'everything',
  recruiter: 'everything but users and settings',
  hiring_manager: 'only the jobs whose hiring team they are on',
  interviewer: 'only the applications they are asked to interview',
};

/** A user as GET /api/hr/users/ and the Users page show them (never the password hash). */
export interface TeamUser {
  id: number;
  username: string;
  role: UserRole;
  is_active: boolean;
  /** The address company sign-in matches (lower-cased ASCII letters); null: none. */
  email: string | null;
  /** false until the user has set a password (a user invited with a link that is not used yet). */
  password_set: boolean;
  created_at: string;
  last_login_at: string | null;
}

/** A one-time sign-in link, shown once to the admin who made it (only its hash is kept). */
export interface SignInLink {
  url: string;
  expires_at: string;
}

/** What creating a user and resetting a password answer. */
export interface TeamUserResult {
  user: TeamUser;
  sign_in_link: SignInLink | null;
}
