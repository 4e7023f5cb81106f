/**
 * Company sign-in with OpenID Connect (issue 30; OIDC_* settings, config/oidc.ts): the
 * authorization code flow with PKCE (S256), state and nonce, through `openid-client`.
 * - `start`: a fresh state, nonce and PKCE verifier, kept with the page to return to in a
 *   short-lived cookie signed with the server key (OIDC_FLOW_TTL_SECONDS, httpOnly, SameSite=Lax,
 *   only sent to /hrviewlogin/oidc); answers the provider's authorization URL.
 * - `finish`: the callback's query checked against that cookie (the route clears it: single use;
 *   the provider's code is single use too), the code exchanged with the verifier, the ID token's
 *   nonce checked, and the email read from the ID token or else the userinfo endpoint.
 * - The user is the HR user whose email (stored lower-cased, migration 025) is the verified email
 *   (`email_verified` true, or Microsoft's `xms_edov`); an unknown address makes a recruiter only
 *   with OIDC_AUTO_CREATE=recruiter; a disabled user is refused.
 * No request or response here: the routes are in oidc-pages.ts.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import * as client from 'openid-client';
import type { OidcSetting } from '../../../config/index.js';
import type { Db } from '../../db/knex.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { ServerKey } from '../../db/server-key.js';
import type { Logger } from '../../log/logger.js';
import { emailError, storedEmail } from '../../shared/application-rules.js';
import { landingPath } from '../../shared/next-path.js';
import * as repo from '../repo.js';
import { USERNAME_MAX_LENGTH, USERNAME_PATTERN, USER_EMAIL_MAX_LENGTH } from '../schema.js';

/** Where the button leads (GET, `?next=`): sets the flow cookie and redirects to the provider. */
export const OIDC_START_PATH = '/hrviewlogin/oidc';
/** The redirect URI to register at the provider: PUBLIC_BASE_URL + this. */
export const OIDC_CALLBACK_PATH = '/hrviewlogin/oidc/callback';
/** The page that hands the new session to the browser (localStorage, as the login form does). */
export const OIDC_DONE_PATH = '/hrviewlogin/oidc/done';
export const OIDC_FLOW_COOKIE = 'careers_oidc';
/** How long a started sign-in may take at the provider. */
export const OIDC_FLOW_TTL_SECONDS = 600;
const FLOW_COOKIE_MAX_LENGTH = 2000;

/** Why a company sign-in failed: the login page says it in words (OIDC_ERROR_MESSAGES). */
export const OIDC_ERRORS = [
  'state',
  'denied',
  'provider',
  'unverified',
  'no-email',
  'unknown',
  'disabled',
  'unreachable',
  'failed',
] as const;
export type OidcErrorCode = (typeof OIDC_ERRORS)[number];

/** The login page's message for each failure; `name` is the provider's (OIDC_PROVIDER_NAME). */
export const OIDC_ERROR_MESSAGES: Record<OidcErrorCode, (name: string) => string> = {
  state: () => 'That sign-in had expired or was not started on this page. Please try again.',
  denied: (name) => `Sign-in with ${name} was cancelled. Please try again, or sign in with your password.`,
  provider: (name) => `${name} did not sign you in. Please try again, or ask your ${name} administrator.`,
  unverified: (name) =>
    `${name} did not confirm that your email address is verified, so it cannot be used to sign in here. Ask your ${name} administrator.`,
  'no-email': (name) =>
    `${name} did not share your email address, so we cannot tell who you are. Ask your ${name} administrator to allow the email scope.`,
  unknown: () => 'No HR account has your email address. Ask an admin to add your email address to your account on the Users page.',
  disabled: () => 'Your HR account is disabled. Ask an admin to enable it.',
  unreachable: (name) => `Could not reach ${name} to sign you in. Please try again in a moment.`,
  failed: (name) => `Sign-in with ${name} failed. Please try again.`,
};

/** What POST /api/auth/token/ answers a non-admin's right password when OIDC_ONLY is on (403). */
export const oidcOnlyMessage = (name: string) =>
  `Password sign-in is turned off for your account: use "Sign in with ${name}" on the sign-in page. Only admins can sign in with a password.`;

export class OidcFailure extends Error {
  constructor(
    public readonly code: OidcErrorCode,
    /** The flow's `next`, when the cookie was read: the login page keeps it. */
    public readonly next: string | null = null,
    cause?: unknown,
  ) {
    super(`company sign-in failed: ${code}`, { cause });
    this.name = 'OidcFailure';
  }
}

interface Flow {
  state: string;
  nonce: string;
  verifier: string;
  next: string;
  /** Started at, ms since the epoch. */
  at: number;
}

export interface OidcDeps {
  db: Db;
  setting: OidcSetting;
  /** PUBLIC_BASE_URL: the redirect URI is built from it. */
  publicBaseUrl: string;
  serverKey: ServerKey;
  log: Logger;
  now: () => Date;
}

/** Network failures (refused, reset, DNS, timeouts) as opposed to a provider's answer. */
function isUnreachable(err: unknown): boolean {
  for (let e: any = err, i = 0; e && i < 5; e = e.cause, i++) {
    if (e.name === 'AbortError' || e.name === 'TimeoutError') return true;
    if (typeof e.code === 'string' && /^(ECONN|ENOTFOUND|EAI_|ETIMEDOUT|EHOST|ENETUNREACH|UND_ERR)/.test(e.code)) return true;
    if (e instanceof TypeError && /fetch failed/i.test(e.message)) return true;
  }
  return false;
}

/** One per app: the provider's metadata is discovered on first use and kept (retried after a failure). */
export class OidcSignIn {
  private discovered: Promise<client.Configuration> | null = null;

  constructor(private readonly deps: OidcDeps) {}

  get providerName(): string {
    return this.deps.setting.providerName;
  }

  get redirectUri(): string {
    return this.deps.publicBaseUrl + OIDC_CALLBACK_PATH;
  }

  get secureCookies(): boolean {
    return this.deps.publicBaseUrl.startsWith('https:');
  }

  private configuration(): Promise<client.Configuration> {
    if (!this.discovered) {
      const { issuer, clientId, clientSecret } = this.deps.setting;
      const url = new URL(issuer);
      this.discovered = client
        .discovery(url, clientId, { client_secret: clientSecret }, client.ClientSecretPost(clientSecret), {
          // http:// issuers pass config validation only on loopback (a provider on this machine, tests).
          execute: url.protocol === 'http:' ? [client.allowInsecureRequests] : [],
          timeout: 10,
        })
        .catch((err) => {
          this.discovered = null;
          throw err;
        });
    }
    return this.discovered;
  }

  private async sign(payload: string): Promise<string> {
    return this.deps.serverKey.hash(`oidc-flow:${payload}`);
  }

  /** The provider's authorization URL and the flow cookie's value. */
  async start(rawNext: unknown): Promise<{ url: string; cookie: string }> {
    const next = landingPath(rawNext);
    let config: client.Configuration;
    try {
      config = await this.configuration();
    } catch (err) {
      this.deps.log.warn({ err }, 'company sign-in: the provider could not be discovered');
      throw new OidcFailure(isUnreachable(err) ? 'unreachable' : 'failed', next, err);
    }
    const flow: Flow = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      verifier: client.randomPKCECodeVerifier(),
      next,
      at: this.deps.now().getTime(),
    };
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri,
      scope: 'openid email profile',
      response_type: 'code',
      state: flow.state,
      nonce: flow.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
      code_challenge_method: 'S256',
    });
    const payload = Buffer.from(JSON.stringify(flow)).toString('base64url');
    return { url: url.href, cookie: `${payload}.${await this.sign(payload)}` };
  }

  /** The flow of a cookie that verifies and has not expired; null otherwise. */
  private async readFlow(cookie: string | undefined): Promise<Flow | null> {
    if (!cookie || cookie.length > FLOW_COOKIE_MAX_LENGTH) return null;
    const dot = cookie.indexOf('.');
    if (dot <= 0) return null;
    const payload = cookie.slice(0, dot);
    const given = Buffer.from(cookie.slice(dot + 1));
    const expected = Buffer.from(await this.sign(payload));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    let flow: Flow;
    try {
      flow = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return null;
    }
    if (
      typeof flow?.state !== 'string' ||
      typeof flow.nonce !== 'string' ||
      typeof flow.verifier !== 'string' ||
      typeof flow.at !== 'number'
    )
      return null;
    const age = this.deps.now().getTime() - flow.at;
    if (age < 0 || age > OIDC_FLOW_TTL_SECONDS * 1000) return null;
    return { ...flow, next: landingPath(flow.next) };
  }

  /**
   * The callback: `search` is the query string as received (with its `?`), `cookie` the flow
   * cookie's value. Answers the signed-in user's id and where to go; throws OidcFailure.
   */
  async finish(search: string, cookie: string | undefined): Promise<{ userId: number; next: string }> {
    const flow = await this.readFlow(cookie);
    const params = new URLSearchParams(search);
    const state = params.get('state');
    if (!flow || state === null || state.length !== flow.state.length || !timingSafeEqual(Buffer.from(state), Buffer.from(flow.state))) {
      throw new OidcFailure('state', flow?.next ?? null);
    }
    const { next } = flow;
    const error = params.get('error');
    if (error !== null) throw new OidcFailure(error === 'access_denied' ? 'denied' : 'provider', next);
    if (!params.get('code')) throw new OidcFailure('failed', next);

    let claims: Record<string, unknown>;
    try {
      const config = await this.configuration();
      const currentUrl = new URL(OIDC_CALLBACK_PATH + search, this.deps.publicBaseUrl);
      const tokens = await client.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims();
      if (!idClaims) throw new OidcFailure('failed', next);
      claims = { ...idClaims };
      if (typeof claims.email !== 'string') {
        const info = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub);
        claims = { ...idClaims, email: info.email, email_verified: info.email_verified };
      }
    } catch (err) {
      if (err instanceof OidcFailure) throw err;
      if (err instanceof client.AuthorizationResponseError)
        throw new OidcFailure(err.error === 'access_denied' ? 'denied' : 'provider', next, err);
      const code: OidcErrorCode = isUnreachable(err) ? 'unreachable' : 'failed';
      this.deps.log.warn(
        { err },
        `company sign-in: ${code === 'unreachable' ? 'the provider could not be reached' : 'the code exchange or ID token check failed'}`,
      );
      throw new OidcFailure(code, next, err);
    }
    return { userId: await this.userFor(claims, next), next };
  }

  /** The HR user of verified claims (or a new recruiter with OIDC_AUTO_CREATE=recruiter). */
  private async userFor(claims: Record<string, unknown>, next: string): Promise<number> {
    if (typeof claims.email !== 'string' || !claims.email.trim()) throw new OidcFailure('no-email', next);
    const verified = [claims.email_verified, claims.xms_edov].some((v) => v === true || v === 'true');
    if (!verified) throw new OidcFailure('unverified', next);
    const email = storedEmail(claims.email);
    if (email.length > USER_EMAIL_MAX_LENGTH || emailError(email) !== null) throw new OidcFailure('unknown', next);
    const { db } = this.deps;
    let user = await repo.findUserByEmail(db, email);
    if (!user && this.deps.setting.autoCreate === 'recruiter') user = await this.createRecruiter(email);
    if (!user) throw new OidcFailure('unknown', next);
    if (!user.is_active) throw new OidcFailure('disabled', next);
    return user.id;
  }

  /** A recruiter for a verified address no user has: named after the address (or its local part, made unique). */
  private async createRecruiter(email: string): Promise<repo.HrUser | null> {
    const { db } = this.deps;
    const base = USERNAME_PATTERN.test(email)
      ? email
      : email
          .split('@')[0]
          .replace(/[^a-z0-9_.+-]/g, '')
          .slice(0, USERNAME_MAX_LENGTH - 12)
          .padEnd(3, '_');
    for (let attempt = 0; attempt < 5; attempt++) {
      const username = attempt === 0 ? base : `${base.slice(0, USERNAME_MAX_LENGTH - 12)}-${randomBytes(4).toString('hex')}`;
      if (await repo.findUserByUsername(db, username)) continue;
      try {
        const id = await repo.insertUser(db, username, repo.NO_PASSWORD, this.deps.now(), 'recruiter', email);
        this.deps.log.info({ userId: id }, 'company sign-in created a recruiter account');
        return repo.findUserById(db, id);
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        // The same address signed in twice at once: the other request made the user.
        const byEmail = await repo.findUserByEmail(db, email);
        if (byEmail) return byEmail;
      }
    }
    return null;
  }
}
