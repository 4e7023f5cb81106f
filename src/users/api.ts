/**
 * Sign-in and sessions (spec 01 'HR login', 'Session'; DESIGN.md section 3):
 * - POST /api/auth/token/   {username, password} (JSON or form-encoded) -> 200 {access}
 * - POST /api/auth/logout/  Bearer token -> 204, the session row is deleted
 * - GET  /api/auth/me/      Bearer or jwt cookie -> {username, expires_at}
 * (The login page, /hrviewlogin, is in pages.ts.)
 *
 * Failed sign-ins are rate-limited in the database (config.rateLimits.login, successes not
 * counted) on three keys: the username from one IP address (LOGIN_RATE_LIMIT), the IP address over
 * all usernames (five times that, so colleagues behind one office NAT do not block each other) and
 * the username over all addresses (also five times that), so guessing one user's password from
 * many addresses is slowed too. The price of the last one: someone failing on purpose from many
 * addresses can keep that user out until the window ends; the first limit stops any one address
 * from doing it alone.
 */
import { createHash } from 'node:crypto';
import express, { Router, type Request } from 'express';
import type { AppContext } from '../context.js';
import { FieldErrorBag, Unauthorized } from '../http/errors.js';
import { dbRateLimit, tooManyMessage } from '../http/rate-limit.js';
import { authorizationBearer } from '../http/credentials.js';
import { BAD_TOKEN, NO_CREDENTIALS, requireHrApi } from './guards.js';
import { authenticateLocal, createAuthenticator } from './passport.js';
import { normaliseUsername } from './repo.js';
import { endSession, startSession } from './service.js';

export const LOGIN_FAILED = 'Invalid credentials or unauthorized.';
/** Longest username or password looked at; anything longer is refused before hashing. */
export const MAX_CREDENTIAL_LENGTH = 256;
/** Failed sign-ins allowed from one IP address over all usernames, as a multiple of the limit. */
export const IP_LIMIT_FACTOR = 5;
/** Failed sign-ins allowed for one username over all IP addresses, as a multiple of the limit. */
export const USERNAME_LIMIT_FACTOR = 5;

interface Credentials {
  username: string;
  password: string;
}

/** 400 field errors for missing, non-string, blank or over-long values (checked before any hashing). */
export function parseCredentials(body: unknown): Credentials {
  const src = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const errors = new FieldErrorBag();
  const read = (name: keyof Credentials): string => {
    const v = Object.hasOwn(src, name) ? src[name] : undefined;
    if (v === undefined || v === null) errors.add(name, 'This field is required.');
    else if (typeof v !== 'string') errors.add(name, 'Not a valid string.');
    else if (v.length > MAX_CREDENTIAL_LENGTH) errors.add(name, `Ensure this field has no more than ${MAX_CREDENTIAL_LENGTH} characters.`);
    else if ((name === 'username' ? v.trim() : v) === '') errors.add(name, 'This field may not be blank.');
    else return v;
    return '';
  };
  const username = read('username');
  const password = read('password');
  errors.throwIfAny();
  return { username: normaliseUsername(username), password };
}

/** Rate-limit key of the username tried (hashed: any length, any characters, fixed size). */
function usernameKey(req: Request): string {
  const raw = (req.body as Record<string, unknown> | undefined)?.username;
  const name = typeof raw === 'string' ? normaliseUsername(raw.slice(0, MAX_CREDENTIAL_LENGTH)) : '';
  return createHash('sha256').update(name).digest('hex').slice(0, 32);
}

export function usersApi(ctx: AppContext): Router {
  const router = Router();
  const { db, config } = ctx;
  const auth = createAuthenticator(db);
  const login = config.rateLimits.login;
  const message = tooManyMessage('sign-in attempts', login.windowSeconds);
  const perIp = dbRateLimit(ctx, {
    name: 'login-ip',
    setting: { limit: login.limit * IP_LIMIT_FACTOR, windowSeconds: login.windowSeconds },
    message,
    skipSuccessfulRequests: true,
  });
  const perUsername = dbRateLimit(ctx, {
    name: 'login-username',
    setting: { limit: login.limit * USERNAME_LIMIT_FACTOR, windowSeconds: login.windowSeconds },
    message,
    skipSuccessfulRequests: true,
    key: usernameKey,
  });
  const perUser = dbRateLimit(ctx, {
    name: 'login-user',
    setting: login,
    message,
    skipSuccessfulRequests: true,
    key: (req, client) => `${client}|${usernameKey(req)}`,
  });
  const formBody = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 10 });

  router.post('/api/auth/token/', formBody, perIp, perUsername, perUser, async (req, res) => {
    req.body = parseCredentials(req.body);
    const user = await authenticateLocal(auth, req, res);
    if (!user) throw new Unauthorized(LOGIN_FAILED);
    const token = await startSession(db, user.id, config.sessionTtlSeconds, ctx.now(), { ip: req.ip, userAgent: req.get('user-agent') });
    res.json({ access: token });
  });

  router.post('/api/auth/logout/', async (req, res) => {
    const token = authorizationBearer(req);
    if (token === undefined) throw new Unauthorized(NO_CREDENTIALS);
    if (token === null) throw new Unauthorized(BAD_TOKEN);
    // An expired token's row goes too; only a live session is a successful logout.
    if (!(await endSession(db, token, ctx.now()))) throw new Unauthorized(BAD_TOKEN);
    res.status(204).end();
  });

  router.get('/api/auth/me/', requireHrApi(ctx), (req, res) => {
    res.json({ username: req.hr!.username, expires_at: req.hr!.expiresAt.toISOString() });
  });

  return router;
}
