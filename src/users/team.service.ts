/**
 * The team (issue 20, /hr/users and /api/hr/users/): admins create users with a password or a
 * one-time sign-in link, change roles, disable and enable users and reset passwords (the same two
 * ways). Rules kept here, for the API, the page and the CLI alike:
 * - at least one active admin always remains (demoting or disabling the last one is a 409);
 * - disabling a user ends their sessions and voids their unused links;
 * - setting a password (by an admin, or through a link) ends the user's sessions;
 * - a link works once, until it expires (SIGN_IN_LINK_TTL_SECONDS); a newer link replaces older
 *   unused ones; a reset link also stops the old password at once.
 */
import type { Db } from '../db/knex.js';
import { isUniqueViolation } from '../db/errors.js';
import { Conflict, HttpError, NotFound, ValidationError } from '../http/errors.js';
import { hashPassword } from './lib/passwords.js';
import * as repo from './repo.js';
import { USER_MESSAGES, type NewUserInput, type UserPatchInput } from './schema.js';
import type { SignInLink, TeamUser, TeamUserResult } from './types.js';

/** How long a one-time sign-in link works: 72 hours. */
export const SIGN_IN_LINK_TTL_SECONDS = 72 * 3600;

/** Where a sign-in link leads (the token follows); the page is public, the token is the proof. */
export const SIGN_IN_LINK_PATH = '/hrviewlogin/link/';

export interface TeamDeps {
  db: Db;
  now: () => Date;
  publicBaseUrl: string;
}

/** 410 {detail}: a sign-in link that was used or has expired. */
class Gone extends HttpError {
  constructor(detail: string) {
    super(410, detail, { detail });
  }
}

function teamUser(u: repo.HrUser): TeamUser {
  return {
    id: u.id,
    username: u.username,
    role: u.role,
    is_active: u.is_active,
    email: u.email,
    password_set: u.password_hash.startsWith('scrypt$'),
    created_at: u.created_at.toISOString(),
    last_login_at: u.last_login_at?.toISOString() ?? null,
  };
}

export async function listTeam(db: Db, page: { page: number; pageSize: number }): Promise<{ count: number; results: TeamUser[] }> {
  const [count, rows] = await Promise.all([repo.countUsers(db), repo.listUsersPage(db, page)]);
  return { count, results: rows.map(teamUser) };
}

async function userOr404(db: Db, id: number): Promise<repo.HrUser> {
  const user = await repo.findUserById(db, id);
  if (!user) throw new NotFound(USER_MESSAGES.notFound);
  return user;
}

export async function getTeamUser(db: Db, id: number): Promise<TeamUser> {
  return teamUser(await userOr404(db, id));
}

async function issueLink(deps: TeamDeps, db: Db, userId: number, purpose: repo.LinkPurpose, createdBy: number | null): Promise<SignInLink> {
  await repo.deleteOpenLinks(db, userId);
  const { token, expiresAt } = await repo.createLink(db, userId, purpose, SIGN_IN_LINK_TTL_SECONDS, deps.now(), createdBy);
  return { url: deps.publicBaseUrl + SIGN_IN_LINK_PATH + token, expires_at: expiresAt.toISOString() };
}

const emailTaken = () => new ValidationError({ email: [USER_MESSAGES.emailTaken] });

/** A new user with a password, or (no password) with a one-time link to set one. */
export async function createTeamUser(deps: TeamDeps, input: NewUserInput, createdBy: number | null): Promise<TeamUserResult> {
  const hash = input.password === null ? repo.NO_PASSWORD : await hashPassword(input.password);
  const taken = () => new ValidationError({ username: [USER_MESSAGES.usernameTaken] });
  if (await repo.findUserByUsername(deps.db, input.username)) throw taken();
  if (input.email !== null && (await repo.findUserByEmail(deps.db, input.email))) throw emailTaken();
  try {
    return await deps.db.transaction(async (trx) => {
      const id = await repo.insertUser(trx, input.username, hash, deps.now(), input.role, input.email);
      const link = input.password === null ? await issueLink(deps, trx, id, 'invite', createdBy) : null;
      return { user: teamUser((await repo.findUserById(trx, id))!), sign_in_link: link };
    });
  } catch (err) {
    // A second request with the same name (or email) won the race.
    if (isUniqueViolation(err)) throw (await repo.findUserByUsername(deps.db, input.username)) ? taken() : emailTaken();
    throw err;
  }
}

/**
 * Changes a user's role, active state and/or email address (unique: 400 when another user has it). Refuses (409) when no active admin would remain;
 * disabling ends the user's sessions and voids their unused links.
 */
export async function updateTeamUser(deps: TeamDeps, id: number, patch: UserPatchInput): Promise<TeamUser> {
  if (patch.email) {
    const holder = await repo.findUserByEmail(deps.db, patch.email);
    if (holder && holder.id !== id) throw emailTaken();
  }
  try {
    return await updateInTransaction(deps, id, patch);
  } catch (err) {
    if (isUniqueViolation(err)) throw emailTaken();
    throw err;
  }
}

function updateInTransaction(deps: TeamDeps, id: number, patch: UserPatchInput): Promise<TeamUser> {
  return deps.db.transaction(async (trx) => {
    const admins = await repo.activeAdminIds(trx);
    const user = await userOr404(trx, id);
    const role = patch.role ?? user.role;
    const active = patch.is_active ?? user.is_active;
    const staysAdmin = role === 'admin' && active;
    if (!staysAdmin && admins.length === 1 && admins[0] === user.id) throw new Conflict(USER_MESSAGES.lastAdmin);
    const now = deps.now();
    if (role !== user.role) await repo.setRole(trx, id, role, now);
    if (active !== user.is_active) await repo.setActive(trx, id, active, now);
    if (patch.email !== undefined && patch.email !== user.email) await repo.setEmail(trx, id, patch.email, now);
    if (!active) {
      await repo.revokeUserSessions(trx, id);
      await repo.deleteOpenLinks(trx, id);
    }
    return teamUser((await repo.findUserById(trx, id))!);
  });
}

/** An admin sets a user's password: the user's sessions end and unused links go. */
export async function setTeamPassword(deps: TeamDeps, id: number, password: string): Promise<TeamUserResult> {
  const hash = await hashPassword(password);
  return deps.db.transaction(async (trx) => {
    await userOr404(trx, id);
    await repo.setPassword(trx, id, hash, deps.now());
    await repo.revokeUserSessions(trx, id);
    await repo.deleteOpenLinks(trx, id);
    return { user: teamUser((await repo.findUserById(trx, id))!), sign_in_link: null };
  });
}

/**
 * A reset by link: a new one-time link for an active user; the old password stops working and the
 * user's sessions end now, so a reset after a leak takes effect before the link is used.
 */
export async function resetWithLink(deps: TeamDeps, id: number, createdBy: number | null): Promise<TeamUserResult> {
  return deps.db.transaction(async (trx) => {
    const user = await userOr404(trx, id);
    if (!user.is_active) throw new Conflict(USER_MESSAGES.disabledLink);
    await repo.setPassword(trx, id, repo.NO_PASSWORD, deps.now());
    await repo.revokeUserSessions(trx, id);
    const link = await issueLink(deps, trx, id, 'reset', createdBy);
    return { user: teamUser((await repo.findUserById(trx, id))!), sign_in_link: link };
  });
}

/** A link that can still be used, or the error saying why not (404 unknown, 410 used or expired). */
export async function liveLink(db: Db, token: string, now: Date): Promise<repo.SignInLinkRow> {
  const link = await repo.findLink(db, token);
  if (!link?.userActive) throw new NotFound(USER_MESSAGES.linkInvalid);
  if (link.usedAt) throw new Gone(USER_MESSAGES.linkUsed);
  if (link.expiresAt <= now) throw new Gone(USER_MESSAGES.linkExpired);
  return link;
}

/**
 * Uses a link: sets the password, ends the user's other sessions, marks the link used (once: a
 * second request with the same link gets 410). Answers the user's id, for the session that follows.
 */
export async function useSignInLink(deps: TeamDeps, token: string, password: string): Promise<number> {
  const link = await liveLink(deps.db, token, deps.now());
  const hash = await hashPassword(password);
  return deps.db.transaction(async (trx) => {
    const now = deps.now();
    if (!(await repo.markLinkUsed(trx, link.id, now))) throw new Gone(USER_MESSAGES.linkUsed);
    await repo.setPassword(trx, link.userId, hash, now);
    await repo.revokeUserSessions(trx, link.userId);
    return link.userId;
  });
}
