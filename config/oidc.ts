/**
 * Company sign-in with OpenID Connect (issue 30): OIDC_ISSUER, OIDC_CLIENT_ID and
 * OIDC_CLIENT_SECRET, all three or none; OIDC_PROVIDER_NAME (the button's label), OIDC_AUTO_CREATE
 * (off, or recruiter: an unknown verified email gets a recruiter account) and OIDC_ONLY (password
 * sign-in only for admins). Read by loadConfig (index.ts); each problem names its variable.
 */

type Env = Record<string, string | undefined>;

const OIDC_AUTO_CREATE_VALUES = ['off', 'recruiter'] as const;
type OidcAutoCreate = (typeof OIDC_AUTO_CREATE_VALUES)[number];

export interface OidcSetting {
  /** The issuer as configured (discovery reads its /.well-known/openid-configuration). */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** What the sign-in button says after "Sign in with ". */
  providerName: string;
  autoCreate: OidcAutoCreate;
  /** Password sign-in only for admins (the break-glass path). */
  only: boolean;
}

export const OIDC_SETTINGS: { name: string; default: string; secret?: 'url' | 'all' }[] = [
  { name: 'OIDC_ISSUER', default: '(unset: company sign-in off)' },
  { name: 'OIDC_CLIENT_ID', default: '(unset)' },
  { name: 'OIDC_CLIENT_SECRET', default: '(unset)', secret: 'all' },
  { name: 'OIDC_PROVIDER_NAME', default: '(from the issuer: Google, Microsoft, Okta... else "your company")' },
  { name: 'OIDC_AUTO_CREATE', default: 'off' },
  { name: 'OIDC_ONLY', default: 'false' },
];

const PROVIDER_NAME_MAX = 60;

/** A name for well-known issuers; anything else is "your company". */
export function defaultProviderName(issuer: string): string {
  const host = URL.canParse(issuer) ? new URL(issuer).hostname.toLowerCase() : '';
  const known: [RegExp, string][] = [
    [/(^|\.)accounts\.google\.com$/, 'Google'],
    [/(^|\.)(login\.microsoftonline\.com|login\.microsoft\.com|sts\.windows\.net)$/, 'Microsoft'],
    [/(^|\.)(okta\.com|oktapreview\.com|okta-emea\.com)$/, 'Okta'],
    [/(^|\.)auth0\.com$/, 'Auth0'],
    [/(^|\.)onelogin\.com$/, 'OneLogin'],
  ];
  return known.find(([re]) => re.test(host))?.[1] ?? 'your company';
}

const isLoopback = (host: string) => host === 'localhost' || host === '127.0.0.1' || host === '[::1]';

/** OIDC_* read from `env`; problems are pushed, each naming its variable. null: company sign-in off. */
export function parseOidc(env: Env, problems: string[]): OidcSetting | null {
  const get = (name: string) => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? null : v.trim();
  };
  const issuer = get('OIDC_ISSUER');
  const clientId = get('OIDC_CLIENT_ID');
  const clientSecret = get('OIDC_CLIENT_SECRET');
  const rawName = get('OIDC_PROVIDER_NAME');
  const rawAuto = get('OIDC_AUTO_CREATE');
  const rawOnly = get('OIDC_ONLY');

  const set = { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret };
  const missing = Object.entries(set)
    .filter(([, v]) => v === null)
    .map(([k]) => k);
  if (missing.length === 3) {
    const extras = ['OIDC_PROVIDER_NAME', 'OIDC_AUTO_CREATE', 'OIDC_ONLY'].filter((n) => get(n) !== null);
    if (extras.length)
      problems.push(
        `${extras.join(', ')} ${extras.length === 1 ? 'needs' : 'need'} company sign-in: set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET, or leave ${extras.length === 1 ? 'it' : 'them'} unset`,
      );
    return null;
  }
  const before = problems.length;
  if (missing.length) {
    problems.push(
      `OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set together (missing: ${missing.join(', ')}); leave all three unset to turn company sign-in off`,
    );
  }
  if (issuer !== null) {
    const u = URL.canParse(issuer) ? new URL(issuer) : null;
    if (!u || (u.protocol !== 'https:' && !(u.protocol === 'http:' && isLoopback(u.hostname)))) {
      problems.push(
        `OIDC_ISSUER must be the provider's https:// issuer URL, such as https://accounts.google.com (http:// only for localhost or 127.0.0.1) (got "${issuer}")`,
      );
    } else if (u.username || u.password || u.search || u.hash) {
      problems.push(
        `OIDC_ISSUER must be an issuer URL without user name, password, ?query or #fragment, such as https://login.example.com/realms/staff (got "${issuer}")`,
      );
    }
  }
  if (clientId !== null && !/^[\x21-\x7e]{1,255}$/.test(clientId)) {
    problems.push(
      `OIDC_CLIENT_ID must be 1 to 255 visible ASCII characters without spaces, as the provider shows it (got ${clientId.length} characters)`,
    );
  }
  if (clientSecret !== null && !/^[\x20-\x7e]{1,1024}$/.test(clientSecret)) {
    problems.push(
      `OIDC_CLIENT_SECRET must be 1 to 1024 visible ASCII characters, as the provider shows it (got ${clientSecret.length} characters)`,
    );
  }
  const providerName = rawName === null ? defaultProviderName(issuer ?? '') : rawName.replace(/\s+/g, ' ');
  if (rawName !== null && (providerName.length > PROVIDER_NAME_MAX || /[\u0000-\u001f\u007f<>]/.test(providerName))) {
    problems.push(
      `OIDC_PROVIDER_NAME must be at most ${PROVIDER_NAME_MAX} characters of plain text, the name on the button "Sign in with ..." (got "${rawName.slice(0, 80)}")`,
    );
  }
  const auto = (rawAuto ?? 'off').toLowerCase();
  if (!(OIDC_AUTO_CREATE_VALUES as readonly string[]).includes(auto)) {
    problems.push(`OIDC_AUTO_CREATE must be off or recruiter (got "${rawAuto}")`);
  }
  // Issuers anyone can have an account at: auto-creating there would let the whole world in.
  if (
    auto === 'recruiter' &&
    issuer !== null &&
    /^https:\/\/(accounts\.google\.com|login\.microsoftonline\.com\/(common|organizations|consumers))(\/|$)/i.test(issuer)
  ) {
    problems.push(
      `OIDC_AUTO_CREATE=recruiter must not be used with the public issuer ${issuer}: anyone with an account there could sign in; leave it off and add your colleagues' addresses on /hr/users`,
    );
  }
  let only = false;
  if (rawOnly !== null) {
    const v = rawOnly.toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(v)) only = true;
    else if (!['0', 'false', 'no', 'off'].includes(v)) problems.push(`OIDC_ONLY must be true or false (got "${rawOnly}")`);
  }
  if (problems.length > before) return null;
  return {
    issuer: issuer!,
    clientId: clientId!,
    clientSecret: clientSecret!,
    providerName,
    autoCreate: auto as OidcAutoCreate,
    only,
  };
}
