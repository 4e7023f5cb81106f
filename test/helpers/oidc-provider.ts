/**
 * A real OpenID provider for company sign-in tests (issue 30): `oidc-provider` on 127.0.0.1 (a
 * free port), one confidential client (client_secret_post, code flow, PKCE required), and
 * accounts the test names with their email and email_verified. Its sign-in step is the package's
 * dev interactions (a login form taking any password, then a consent form): `providerSignIn` drives
 * them over HTTP like a browser (manual redirects, a cookie jar), a browser test clicks them.
 */
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface TestAccount {
  /** The subject, and what the provider's login form takes as its login. */
  sub: string;
  email?: string;
  email_verified?: boolean | string;
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Change or add accounts between tests. */
  accounts: Map<string, TestAccount>;
  close: () => Promise<void>;
}

const TEST_CLIENT_ID = 'careers-test';
const TEST_CLIENT_SECRET = 'careers-test-secret-0123456789abcdef';

/** Starts the provider; `redirectUris` are the client's registered redirect URIs. */
export async function startOidcProvider(redirectUris: string[], accounts: TestAccount[] = []): Promise<TestProvider> {
  let handler: http.RequestListener = (_req, res) => res.writeHead(503).end();
  const server: Server = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const byId = new Map(accounts.map((a) => [a.sub, a]));
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: TEST_CLIENT_ID,
        client_secret: TEST_CLIENT_SECRET,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['test-cookie-key-0123456789abcdef'] },
    async findAccount(_ctx, sub) {
      const account = byId.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        async claims() {
          const a = byId.get(sub) ?? account;
          return {
            sub,
            ...(a.email === undefined ? {} : { email: a.email }),
            ...(a.email_verified === undefined ? {} : { email_verified: a.email_verified as boolean }),
          };
        },
      };
    },
  });
  // Quiet: a refused sign-in is what many tests do on purpose.
  provider.on('server_error', () => undefined);
  handler = provider.callback();
  return {
    issuer,
    clientId: TEST_CLIENT_ID,
    clientSecret: TEST_CLIENT_SECRET,
    accounts: byId,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A cookie jar of one host: names to values, from Set-Cookie (an expired or empty one removes it). */
export class CookieJar {
  readonly cookies = new Map<string, string>();

  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some(
        (a) => /^\s*max-age=(0|-)/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split('=')[1]) < Date.now()),
      );
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
  }
}

/**
 * Follows the provider's redirects from an authorization URL, signs in as `login` and consents,
 * until the provider redirects to a URL starting with `callbackPrefix`; answers that URL. With
 * `abort`, the login step is cancelled instead (the provider answers error=access_denied).
 */
export async function providerSignIn(
  authorizationUrl: string,
  login: string,
  callbackPrefix: string,
  opts: { abort?: boolean } = {},
): Promise<string> {
  const jar = new CookieJar();
  let url = authorizationUrl;
  let method = 'GET';
  let body: string | undefined;
  for (let step = 0; step < 20; step++) {
    if (url.startsWith(callbackPrefix)) return url;
    const res = await fetch(url, {
      method,
      redirect: 'manual',
      headers: { Cookie: jar.header(), ...(body ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}) },
      body,
    });
    jar.take(res);
    method = 'GET';
    body = undefined;
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      url = new URL(location, url).href;
      continue;
    }
    const html = await res.text();
    if (res.status !== 200) throw new Error(`provider answered ${res.status}: ${html.slice(0, 500)}`);
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1];
    if (!action || !prompt) throw new Error(`no sign-in form at ${url}: ${html.slice(0, 500)}`);
    if (prompt === 'login' && opts.abort) {
      url = new URL(`${new URL(action, url).pathname}/abort`, url).href;
      continue;
    }
    url = new URL(action.replace(/&amp;/g, '&'), url).href;
    method = 'POST';
    body =
      prompt === 'login' ? new URLSearchParams({ prompt, login, password: 'any' }).toString() : new URLSearchParams({ prompt }).toString();
  }
  throw new Error('too many redirects at the provider');
}
