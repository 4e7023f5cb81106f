/**
 * passport-local checks HR credentials against hr_users (no passport sessions: a successful check
 * leads to an opaque token, see sessions.ts). Each app gets its own Authenticator so two apps in
 * one process (tests) never share strategies.
 */
import type { Request, Response } from 'express';
import type { Db } from '../../db/knex.js';
import passport from 'passport';
import { Strategy as LocalStrategy } from 'passport-local';
import { hashPassword, verifyPassword } from './passwords.js';
import { findUserByUsername } from '../repo.js';
import { USERNAME_PATTERN, normaliseUsername } from '../schema.js';

export interface AuthUser {
  id: number;
  username: string;
}

// Compared against when the username is unknown, so an unknown user costs the same scrypt run as
// a known one and the answer time does not tell which usernames exist.
let dummyHash: Promise<string> | null = null;
function dummy(): Promise<string> {
  dummyHash ??= hashPassword('not-a-real-password-' + Math.random());
  return dummyHash;
}

/** The user when the password is right and the account active; null otherwise (same cost). */
export async function checkCredentials(db: Db, username: string, password: string): Promise<AuthUser | null> {
  // Only a name of the allowed shape is looked up: MySQL's utf8mb4_unicode_ci would otherwise
  // match 'hr.admin\0' or 'hr.ädmin' to 'hr.admin', and each variant would get its own
  // rate-limit key for the same account.
  const name = normaliseUsername(username);
  const user = USERNAME_PATTERN.test(name) ? await findUserByUsername(db, name) : null;
  const ok = await verifyPassword(password, user?.password_hash ?? (await dummy()));
  if (!user || !ok || !user.is_active) return null;
  return { id: user.id, username: user.username };
}

export function createAuthenticator(db: Db): passport.Authenticator {
  const auth = new passport.Passport();
  auth.use(
    'local',
    new LocalStrategy({ usernameField: 'username', passwordField: 'password', session: false }, (username, password, done) => {
      checkCredentials(db, username, password).then((user) => done(null, user ?? false), done);
    }),
  );
  return auth;
}

/** Runs the local strategy on a request whose body holds string username and password. */
export function authenticateLocal(auth: passport.Authenticator, req: Request, res: Response): Promise<AuthUser | null> {
  return new Promise((resolve, reject) => {
    const middleware = auth.authenticate('local', { session: false }, (err: unknown, user: AuthUser | false) => {
      if (err) reject(err);
      else resolve(user || null);
    });
    middleware(req, res, (err?: unknown) => (err ? reject(err) : resolve(null)));
  });
}
