/**
 * HR login (spec 01 'HR login', 'Session'): username, password, 'Sign In' reading 'Signing in...'
 * while pending. POST /api/auth/token/ answers {access}; the token goes to localStorage and the
 * jwt cookie, then the user goes to `next` or the dashboard. `next` was checked on the server and
 * is checked again here with the same function before any navigation (defence in depth: the page
 * may come from a cache or a proxy that rewrote it).
 * A session that ended by itself (idle, or at its limit: session.ts remembers it) is named above
 * the form, in the words of src/shared/session-text.ts; `next` then leads back to the same page.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { mountIsland } from './components/mount.js';
import { clearToken, endedReason, forgetSession, readCookie, storeToken, TOKEN_NAME } from './components/session.js';
import { signedOutMessage } from '../src/shared/session-text.js';
import { AUTH_MESSAGES, MAX_CREDENTIAL_LENGTH } from '../src/users/schema.js';
import { landingPath } from '../src/shared/next-path.js';
import './hr-login.css';

interface Props {
  /** Where to go once signed in: a same-site path the server has checked (checked again here). */
  next: string;
  /** Session lifetime in seconds: the cookie's Max-Age. */
  ttlSeconds: number;
  /** SESSION_IDLE_MINUTES and SESSION_MAX_HOURS, to say why a session ended. */
  idleMinutes: number;
  maxHours: number;
  /**
   * Company sign-in's hand-off page (/hrviewlogin/oidc/done): the server set the jwt cookie;
   * the token is stored in both places as after the form's sign-in, then the user goes on.
   */
  handoff?: boolean;
}

/** After company sign-in: the cookie's token into localStorage too, then `next`. */
function Handoff({ next: given, ttlSeconds }: Props) {
  const next = landingPath(given);
  useEffect(() => {
    const token = readCookie(TOKEN_NAME);
    if (token) {
      storeToken(token, ttlSeconds);
      location.replace(next);
    } else location.replace(`/hrviewlogin?next=${encodeURIComponent(next)}`);
  }, [next, ttlSeconds]);
  return <p role="status">Signing in...</p>;
}

const UNREACHABLE = 'Could not reach the server. Please check your connection and try again.';

async function failureMessage(res: Response): Promise<string> {
  // Too many attempts, or the service is down for a moment (503): the server's own words, so a
  // right password is not reported as wrong.
  if (res.status === 429 || res.status === 503) {
    const body = await res.json().catch(() => null);
    if (body && typeof body.detail === 'string') return body.detail;
  }
  return AUTH_MESSAGES.loginFailed;
}

function HrLogin({ next: given, ttlSeconds, idleMinutes, maxHours }: Props) {
  const next = landingPath(given);
  // Read once, before the effect below forgets it: why the last session ended, if by itself.
  const [ended] = useState(() => (readCookie(TOKEN_NAME) ? null : endedReason()));
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    // Spec: a session cookie that already exists goes to the dashboard. The server has already
    // redirected a valid one; this covers a page restored from the back/forward cache.
    if (readCookie(TOKEN_NAME)) location.replace(next);
    // No cookie means no session: a token left in localStorage alone is stale.
    else {
      clearToken();
      forgetSession();
    }
    const onShow = (e: PageTransitionEvent) => {
      if (readCookie(TOKEN_NAME)) location.replace(next);
      else if (e.persisted) setPending(false);
    };
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, [next]);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (pending) return;
    setPending(true);
    setError(null);
    try {
      const res = await fetch('/api/auth/token/', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ username, password }),
        credentials: 'same-origin',
      });
      if (res.ok) {
        const body = await res.json();
        if (typeof body?.access === 'string' && body.access) {
          storeToken(body.access, ttlSeconds);
          location.assign(next);
          return;
        }
      }
      setError(res.ok ? AUTH_MESSAGES.loginFailed : await failureMessage(res));
    } catch {
      setError(UNREACHABLE);
    }
    setPending(false);
    setPassword('');
    passwordRef.current?.focus();
  }

  return (
    <form className="login-form" onSubmit={submit}>
      {ended && !error && (
        <p id="signed-out" className="alert alert-warning" role="status">
          {signedOutMessage(ended, { idleMinutes, maxHours })}
        </p>
      )}
      {error && (
        <p id="login-error" className="alert alert-error" role="alert">
          {error}
        </p>
      )}
      <div className="field">
        <label htmlFor="login-username">Username</label>
        <input
          id="login-username"
          name="username"
          type="text"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          maxLength={MAX_CREDENTIAL_LENGTH}
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          // biome-ignore lint/a11y/noAutofocus: the sign-in page's only task starts in this field
          autoFocus
        />
      </div>
      <div className="field">
        <label htmlFor="login-password">Password</label>
        <input
          id="login-password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          maxLength={MAX_CREDENTIAL_LENGTH}
          ref={passwordRef}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </div>
      <button type="submit" className="btn btn-primary" disabled={pending} aria-busy={pending}>
        {pending ? 'Signing in...' : 'Sign In'}
      </button>
    </form>
  );
}

mountIsland('hr-login', (props: Props) => (props.handoff ? <Handoff {...props} /> : <HrLogin {...props} />));
