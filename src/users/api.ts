/**
 * Sign-in and sessions (spec 01 'HR login', 'Session'; DESIGN.md section 3):
 * - POST /api/auth/token/   {username, password} (JSON or form-encoded) -> 200 {access}; with
 *   OIDC_ONLY=true a right password of a non-admin is 403 {detail} (company sign-in only)
 * - POST /api/auth/logout/  Bearer token -> 204, the session row is deleted
 * - GET  /api/auth/me/      Bearer or jwt cookie -> {username, role, expires_at}
 * - POST /api/auth/link/    {token, password}: uses a one-time sign-in link -> 200 {access}
 *   (with OIDC_ONLY=true only an admin's link: 403 {detail} otherwise, the link left unused)
 * - POST /api/hr/session/renew/  Bearer token -> {expires_at, expires_in, limit_at}: stay signed in
 *   (the guard renews the session on every request; this call does nothing else, for the page's
 *   "Stay signed in" button)
 * The team (admins only: app.ts mounts requireAdmin on ADMIN_API_PATHS; the rules are in team.ts):
 * - GET   /api/hr/users/                 the users, by username, paged
 * - POST  /api/hr/users/                 {username, role?, password?} -> 201 {user, sign_in_link}
 * - GET   /api/hr/users/{id}/            one user
 * - PATCH /api/hr/users/{id}/            {role?, is_active?} -> the user
 * - POST  /api/hr/users/{id}/password/   {password} -> {user, sign_in_link: null}
 * - POST  /api/hr/users/{id}/sign-in-link/ -> 201 {user, sign_in_link}
 * (The login page, /hrviewlogin, and the link's page are in pages.ts.)
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
import { Forbidden, Unauthorized } from '../http/errors.js';
import { dbRateLimit, tooManyMessage } from '../http/rate-limit.js';
import { authorizationBearer } from '../http/credentials.js';
import { pageResponse, parsePaging } from '../http/paging.js';
import { pathId, validate } from '../http/validate.js';
import { BAD_TOKEN, NO_CREDENTIALS, requireHrApi, secondsUntil } from './lib/guards.js';
import { authenticateLocal, createAuthenticator } from './lib/passport.js';
import {
  AUTH_MESSAGES,
  MAX_CREDENTIAL_LENGTH,
  USER_MESSAGES,
  credentialsSchema,
  linkPasswordSchema,
  newPasswordSchema,
  newUserSchema,
  normaliseUsername,
  userPatchSchema,
} from './schema.js';
import { endSession, findUser, sessionTimes, startSession } from './service.js';
import { oidcOnlyMessage } from './lib/oidc.js';
import {
  createTeamUser,
  getTeamUser,
  listTeam,
  liveLink,
  resetWithLink,
  setTeamPassword,
  updateTeamUser,
  useSignInLink,
  type TeamDeps,
} from './team.service.js';

/** Failed sign-ins allowed from one IP address over all usernames, as a multiple of the limit. */
const IP_LIMIT_FACTOR = 5;
/** Failed sign-ins allowed for one username over all IP addresses, as a multiple of the limit. */
const USERNAME_LIMIT_FACTOR = 5;

/** 400 field errors for missing, non-string, blank or over-long values (checked before any hashing). */
export function parseCredentials(body: unknown): { username: string; password: string } {
  const { username, password } = validate(credentialsSchema(), body);
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
    if (!user) throw new Unauthorized(AUTH_MESSAGES.loginFailed);
    // OIDC_ONLY: a password is the break-glass path of admins alone (checked after the password, so
    // only someone who knows it learns the account's role).
    if (config.oidc?.only && (await findUser(db, user.username))?.role !== 'admin')
      throw new Forbidden(oidcOnlyMessage(config.oidc.providerName));
    const token = await startSession(db, user.id, sessionTimes(config), ctx.now(), { ip: req.ip, userAgent: req.get('user-agent') });
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
    res.json({ username: req.hr!.username, role: req.hr!.role, expires_at: req.hr!.expiresAt.toISOString() });
  });

  router.post('/api/hr/session/renew/', (req, res) => {
    const now = ctx.now();
    const session = req.hr!;
    res.json({
      expires_at: session.expiresAt.toISOString(),
      expires_in: secondsUntil(session.expiresAt, now),
      limit_at: session.limitAt.toISOString(),
    });
  });

  const team: TeamDeps = { db, now: ctx.now, publicBaseUrl: config.publicBaseUrl };
  // A link's token is 256 random bits, so guessing is hopeless; failures are still limited like sign-ins.
  const perIpLinks = dbRateLimit(ctx, {
    name: 'link-ip',
    setting: { limit: login.limit * IP_LIMIT_FACTOR, windowSeconds: login.windowSeconds },
    message: tooManyMessage('attempts', login.windowSeconds),
    skipSuccessfulRequests: true,
  });

  router.post('/api/auth/link/', perIpLinks, async (req, res) => {
    const { token, password } = validate(linkPasswordSchema(), req.body);
    // OIDC_ONLY: a link sets a password and signs in, so it is for admins alone too (the link stays unused).
    if (config.oidc?.only) {
      const link = await liveLink(db, token, ctx.now());
      if ((await findUser(db, link.username))?.role !== 'admin') throw new Forbidden(oidcOnlyMessage(config.oidc.providerName));
    }
    const userId = await useSignInLink(team, token, password);
    const access = await startSession(db, userId, sessionTimes(config), ctx.now(), { ip: req.ip, userAgent: req.get('user-agent') });
    res.json({ access });
  });

  const userId = (raw: unknown) => pathId(raw, USER_MESSAGES.notFound);

  router.get('/api/hr/users/', async (req, res) => {
    const paging = parsePaging(req);
    const { count, results } = await listTeam(db, paging);
    res.json(pageResponse(req, config.publicBaseUrl, paging, count, results));
  });

  router.post('/api/hr/users/', async (req, res) => {
    res.status(201).json(await createTeamUser(team, validate(newUserSchema(), req.body), req.hr!.userId));
  });

  router.get('/api/hr/users/:id/', async (req, res) => {
    res.json(await getTeamUser(db, userId(req.params.id)));
  });

  router.patch('/api/hr/users/:id/', async (req, res) => {
    const id = userId(req.params.id);
    res.json(await updateTeamUser(team, id, validate(userPatchSchema(), req.body)));
  });

  router.post('/api/hr/users/:id/password/', async (req, res) => {
    const id = userId(req.params.id);
    res.json(await setTeamPassword(team, id, validate(newPasswordSchema(), req.body).password));
  });

  router.post('/api/hr/users/:id/sign-in-link/', async (req, res) => {
    res.status(201).json(await resetWithLink(team, userId(req.params.id), req.hr!.userId));
  });

  return router;
}
