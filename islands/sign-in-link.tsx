/**
 * The page of a one-time sign-in link (/hrviewlogin/link/{token}): the new password twice, then
 * POST /api/auth/link/ {token, password} answers {access} like a sign-in; the token is stored as
 * the login page stores it and the user goes to the dashboard. A link used or expired meanwhile
 * says so (the server's words).
 */
import { useState, type FormEvent } from 'react';
import { mountIsland } from './components/mount.js';
import { storeToken } from './components/session.js';
import { fieldErrors } from '../src/shared/api-errors.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, USER_MESSAGES, passwordProblem } from '../src/users/schema.js';
import './hr-login.css';

interface Props {
  token: string;
  username: string;
  purpose: 'invite' | 'reset';
  /** Session lifetime in seconds: the cookie's Max-Age. */
  ttlSeconds: number;
}

const UNREACHABLE = 'Could not reach the server. Please check your connection and try again.';

function SignInLink({ token, username, ttlSeconds }: Props) {
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (pending) return;
    const own = passwordProblem(password);
    const next: Record<string, string> = own ? { password: own } : password !== repeat ? { repeat: USER_MESSAGES.passwordsDiffer } : {};
    setErrors(next);
    setProblem(null);
    if (Object.keys(next).length) return;
    setPending(true);
    try {
      const res = await fetch('/api/auth/link/', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ token, password }),
        credentials: 'same-origin',
      });
      const body = await res.json().catch(() => null);
      if (res.ok && typeof body?.access === 'string') {
        storeToken(body.access, ttlSeconds);
        location.assign('/hr/dashboard');
        return;
      }
      const fields = fieldErrors(body);
      if (fields.password) setErrors({ password: fields.password });
      else setProblem(fields.detail || fields.token || 'Your password could not be set. Please try again.');
    } catch {
      setProblem(UNREACHABLE);
    }
    setPending(false);
  }

  return (
    <form className="login-form" onSubmit={(e) => void submit(e)} noValidate>
      {problem && (
        <p className="alert alert-error" role="alert">
          {problem} <a href="/hrviewlogin">Go to sign in</a>
        </p>
      )}
      {/* For password managers: the account the new password belongs to. */}
      <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
      <div className="field">
        <label htmlFor="link-password">New password</label>
        <input
          id="link-password"
          type="password"
          autoComplete="new-password"
          required
          maxLength={PASSWORD_MAX_LENGTH}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          aria-invalid={!!errors.password}
          aria-describedby={`link-password-help${errors.password ? ' link-password-error' : ''}`}
          // biome-ignore lint/a11y/noAutofocus: the page's only task starts in this field
          autoFocus
        />
        <span id="link-password-help" className="help-text">
          At least {PASSWORD_MIN_LENGTH} characters.
        </span>
        {errors.password && (
          <p id="link-password-error" className="field-error">
            {errors.password}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor="link-repeat">Repeat password</label>
        <input
          id="link-repeat"
          type="password"
          autoComplete="new-password"
          required
          maxLength={PASSWORD_MAX_LENGTH}
          value={repeat}
          onChange={(e) => setRepeat(e.target.value)}
          aria-invalid={!!errors.repeat}
          aria-describedby={errors.repeat ? 'link-repeat-error' : undefined}
        />
        {errors.repeat && (
          <p id="link-repeat-error" className="field-error">
            {errors.repeat}
          </p>
        )}
      </div>
      <button type="submit" className="btn btn-primary" disabled={pending} aria-busy={pending}>
        {pending ? 'Saving...' : 'Set password and sign in'}
      </button>
    </form>
  );
}

mountIsland('sign-in-link', SignInLink);
