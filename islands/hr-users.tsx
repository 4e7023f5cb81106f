/**
 * Users (/hr/users, admins only): the table is rendered on the server; this island wires Add user,
 * and each row's Make admin / Make recruiter, Disable / Enable, Email and Reset password. Each opens a
 * modal dialog; a new user or a reset gets either a password typed here or a one-time sign-in link,
 * which is shown once (only its hash is kept) to copy and send. After a change the page reloads and
 * says what was done in its status region (announced to screen readers).
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { mountIsland } from './components/mount.js';
import { Modal } from './components/modal.js';
import { LocalTime } from './components/local-time.js';
import { flashNext } from './components/flash.js';
import { ApiError, hrJson } from './components/hr-api.js';
import { errorLines, fieldErrors } from '../src/shared/api-errors.js';
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USERNAME_MAX_LENGTH,
  USER_EMAIL_MAX_LENGTH,
  USER_MESSAGES,
  passwordProblem,
} from '../src/users/schema.js';
import { ROLE_HELP, ROLE_LABELS, USER_ROLES, type TeamUser, type TeamUserResult, type UserRole } from '../src/users/types.js';
import './hr-users.css';

interface Props {
  /** The signed-in admin's id. */
  me: number;
}

interface RowUser {
  id: number;
  username: string;
  role: UserRole;
  active: boolean;
  email: string;
}

type Open = { kind: 'add'; trigger: HTMLElement } | { kind: 'role' | 'active' | 'reset' | 'email'; user: RowUser; trigger: HTMLElement };

/** Reloads the page (or goes to `to`), which then shows `message` in its status region. */
function reloadWith(message: string, to?: string): void {
  flashNext(message);
  if (to) location.assign(to);
  else location.reload();
}

function HrUsers({ me }: Props) {
  const [open, setOpen] = useState<Open | null>(null);

  useEffect(() => {
    const add = document.querySelector<HTMLButtonElement>('button[data-add-user]');
    const onAdd = () => add && setOpen({ kind: 'add', trigger: add });
    if (add) {
      add.hidden = false; // shown only once the island can handle it
      add.addEventListener('click', onAdd);
    }
    const buttons = [...document.querySelectorAll<HTMLButtonElement>('button[data-user-action]')];
    const onAction = (e: Event) => {
      const b = e.currentTarget as HTMLButtonElement;
      const row = b.closest<HTMLElement>('[data-user]')!;
      const user: RowUser = {
        id: Number(row.dataset.user),
        username: row.dataset.username ?? '',
        role: USER_ROLES.find((r) => r === row.dataset.role) ?? 'interviewer',
        active: row.dataset.active === '1',
        email: row.dataset.email ?? '',
      };
      setOpen({ kind: b.dataset.userAction as 'role' | 'active' | 'reset' | 'email', user, trigger: b });
    };
    for (const b of buttons) {
      b.hidden = false;
      b.addEventListener('click', onAction);
    }
    return () => {
      add?.removeEventListener('click', onAdd);
      for (const b of buttons) b.removeEventListener('click', onAction);
    };
  }, []);

  if (!open) return null;
  const close = () => {
    setOpen(null);
    open.trigger.focus();
  };
  if (open.kind === 'add') return <AddUserDialog onClose={close} />;
  if (open.kind === 'reset') return <ResetDialog user={open.user} onClose={close} />;
  if (open.kind === 'email') return <EmailDialog user={open.user} onClose={close} />;
  return <ChangeDialog kind={open.kind} user={open.user} me={me} onClose={close} />;
}

function Problem({ lines, title }: { lines: string[] | null; title: string }) {
  if (!lines) return null;
  return (
    <div className="alert alert-error" role="alert">
      <p className="alert-title">{title}</p>
      {lines.map((line, i) => (
        <div key={i}>{line}</div>
      ))}
    </div>
  );
}

/** The answer of a failed call as lines; null when the page is on its way to the login page. */
function failure(err: unknown): string[] | null {
  if (err instanceof ApiError && err.status === 401) return null;
  if (err instanceof ApiError) return errorLines(err.body);
  return ['Could not reach the server. Please check your connection and try again.'];
}

/** Password and its repeat; answers the problems keyed by field, or {} when fine. */
function checkPasswords(password: string, repeat: string): Record<string, string> {
  const problem = passwordProblem(password);
  if (problem) return { password: problem };
  if (password !== repeat) return { repeat: USER_MESSAGES.passwordsDiffer };
  return {};
}

function PasswordFields({
  password,
  repeat,
  setPassword,
  setRepeat,
  errors,
}: {
  password: string;
  repeat: string;
  setPassword: (v: string) => void;
  setRepeat: (v: string) => void;
  errors: Record<string, string>;
}) {
  const id = useId();
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-pw`}>Password</label>
        <input
          id={`${id}-pw`}
          type="password"
          autoComplete="new-password"
          required
          maxLength={PASSWORD_MAX_LENGTH}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          aria-invalid={!!errors.password}
          aria-describedby={`${id}-pw-help${errors.password ? ` ${id}-pw-err` : ''}`}
        />
        <span id={`${id}-pw-help`} className="help-text">
          At least {PASSWORD_MIN_LENGTH} characters.
        </span>
        {errors.password && (
          <p id={`${id}-pw-err`} className="field-error">
            {errors.password}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor={`${id}-repeat`}>Repeat password</label>
        <input
          id={`${id}-repeat`}
          type="password"
          autoComplete="new-password"
          required
          maxLength={PASSWORD_MAX_LENGTH}
          value={repeat}
          onChange={(e) => setRepeat(e.target.value)}
          aria-invalid={!!errors.repeat}
          aria-describedby={errors.repeat ? `${id}-repeat-err` : undefined}
        />
        {errors.repeat && (
          <p id={`${id}-repeat-err`} className="field-error">
            {errors.repeat}
          </p>
        )}
      </div>
    </>
  );
}

type Method = 'link' | 'password';

function MethodChoice({ method, setMethod, legend }: { method: Method; setMethod: (m: Method) => void; legend: string }) {
  const name = useId();
  return (
    <fieldset className="choice-group">
      <legend className="label">{legend}</legend>
      <label>
        <input type="radio" name={name} value="link" checked={method === 'link'} onChange={() => setMethod('link')} /> A one-time sign-in
        link (they choose a password)
      </label>
      <label>
        <input type="radio" name={name} value="password" checked={method === 'password'} onChange={() => setMethod('password')} /> A
        password I set now
      </label>
    </fieldset>
  );
}

/** The link made for a user, shown once to copy; Done reloads the page. */
function LinkShown({ result, done }: { result: TeamUserResult; done: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const link = result.sign_in_link!;
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link.url);
      setCopied(true);
    } catch {
      input.current?.select(); // no clipboard access: selected, for Ctrl+C
    }
  };
  return (
    <>
      <p>
        Send this link to <strong>{result.user.username}</strong> (by email or chat). It works once, until{' '}
        <LocalTime iso={link.expires_at} />; it is not shown again.
      </p>
      <div className="field">
        <label htmlFor={`${id}-link`}>Sign-in link</label>
        <input id={`${id}-link`} ref={input} className="link-output" type="text" readOnly value={link.url} />
      </div>
      <p className="copy-status" role="status">
        {copied ? 'Copied.' : ''}
      </p>
      <div className="modal-actions">
        <button type="button" className="btn btn-secondary" onClick={() => void copy()}>
          Copy link
        </button>
        <button type="button" className="btn btn-primary" onClick={() => reloadWith(done)}>
          Done
        </button>
      </div>
    </>
  );
}

function AddUserDialog({ onClose }: { onClose: () => void }) {
  const id = useId();
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<UserRole>('recruiter');
  const [method, setMethod] = useState<Method>('link');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<TeamUserResult | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const own = method === 'password' ? checkPasswords(password, repeat) : {};
    setErrors(own);
    setProblem(null);
    if (Object.keys(own).length) return;
    setBusy(true);
    try {
      const body = { username, role, email, ...(method === 'password' ? { password } : {}) };
      const r = await hrJson<TeamUserResult>('/api/hr/users/', { method: 'POST', body });
      if (r.sign_in_link) {
        setResult(r);
        setBusy(false);
      } else {
        reloadWith(`User ${r.user.username} created.`);
      }
    } catch (err) {
      setBusy(false);
      const fields = err instanceof ApiError ? fieldErrors(err.body) : {};
      if (fields.username || fields.password || fields.email) {
        setErrors({ username: fields.username ?? '', password: fields.password ?? '', email: fields.email ?? '' });
        const rest = Object.entries(fields)
          .filter(([k]) => k !== 'username' && k !== 'password' && k !== 'email')
          .map(([, v]) => v);
        setProblem(rest.length ? rest : null);
      } else {
        setProblem(failure(err));
      }
    }
  };

  return (
    <Modal title={result ? 'User created' : 'Add user'} busy={busy} onClose={onClose} className="users-dialog">
      {(close) =>
        result ? (
          <LinkShown result={result} done={`User ${result.user.username} created; their sign-in link was shown.`} />
        ) : (
          <form className="users-form" onSubmit={(e) => void submit(e)} noValidate>
            <Problem lines={problem} title="The user could not be created." />
            <div className="field">
              <label htmlFor={`${id}-username`}>Username</label>
              <input
                id={`${id}-username`}
                type="text"
                autoComplete="off"
                autoCapitalize="none"
                spellCheck={false}
                required
                maxLength={USERNAME_MAX_LENGTH}
                value={username}
                onChange={(e) => setUsername(e.target.value)}
                aria-invalid={!!errors.username}
                aria-describedby={`${id}-username-help${errors.username ? ` ${id}-username-err` : ''}`}
                // biome-ignore lint/a11y/noAutofocus: a dialog moves focus into itself when it opens (WAI-ARIA dialog pattern)
                autoFocus
              />
              <span id={`${id}-username-help`} className="help-text">
                3 to 150 characters: letters, digits and . _ @ + -
              </span>
              {errors.username && (
                <p id={`${id}-username-err`} className="field-error">
                  {errors.username}
                </p>
              )}
            </div>
            <EmailField id={`${id}-email`} value={email} setValue={setEmail} error={errors.email} />
            <fieldset className="choice-group">
              <legend className="label">Role</legend>
              {USER_ROLES.map((r) => (
                <label key={r}>
                  <input type="radio" name={`${id}-role`} value={r} checked={role === r} onChange={() => setRole(r)} /> {ROLE_LABELS[r]}:{' '}
                  {ROLE_HELP[r]}
                </label>
              ))}
            </fieldset>
            <MethodChoice method={method} setMethod={setMethod} legend="How they sign in the first time" />
            {method === 'password' && (
              <PasswordFields password={password} repeat={repeat} setPassword={setPassword} setRepeat={setRepeat} errors={errors} />
            )}
            <SubmitActions busy={busy} label="Create user" busyLabel="Creating…" close={close} />
          </form>
        )
      }
    </Modal>
  );
}

function ResetDialog({ user, onClose }: { user: RowUser; onClose: () => void }) {
  const [method, setMethod] = useState<Method>('link');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<TeamUserResult | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const own = method === 'password' ? checkPasswords(password, repeat) : {};
    setErrors(own);
    setProblem(null);
    if (Object.keys(own).length) return;
    setBusy(true);
    try {
      if (method === 'link') {
        setResult(await hrJson<TeamUserResult>(`/api/hr/users/${user.id}/sign-in-link/`, { method: 'POST' }));
        setBusy(false);
      } else {
        await hrJson<TeamUserResult>(`/api/hr/users/${user.id}/password/`, { method: 'POST', body: { password } });
        reloadWith(`Password of ${user.username} changed; they were signed out.`);
      }
    } catch (err) {
      setBusy(false);
      const fields = err instanceof ApiError ? fieldErrors(err.body) : {};
      if (fields.password) setErrors({ password: fields.password });
      else setProblem(failure(err));
    }
  };

  return (
    <Modal title={result ? 'Sign-in link made' : `Reset password: ${user.username}`} busy={busy} onClose={onClose} className="users-dialog">
      {(close) =>
        result ? (
          <LinkShown result={result} done={`A new sign-in link was made for ${user.username}; their old password no longer works.`} />
        ) : (
          <form className="users-form" onSubmit={(e) => void submit(e)} noValidate>
            <p>They are signed out everywhere. With a link, their old password stops working now.</p>
            <Problem lines={problem} title="The password could not be reset." />
            <MethodChoice method={method} setMethod={setMethod} legend="New password by" />
            {method === 'password' && (
              <PasswordFields password={password} repeat={repeat} setPassword={setPassword} setRepeat={setRepeat} errors={errors} />
            )}
            <SubmitActions
              busy={busy}
              label={method === 'link' ? 'Make link' : 'Set password'}
              busyLabel="Resetting…"
              close={close}
              focusCancel
            />
          </form>
        )
      }
    </Modal>
  );
}

/** A user's email address (optional): company sign-in matches it. */
function EmailField({
  id,
  value,
  setValue,
  error,
  autoFocus = false,
}: {
  id: string;
  value: string;
  setValue: (v: string) => void;
  error?: string;
  autoFocus?: boolean;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>Email (optional)</label>
      <input
        id={id}
        type="email"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        maxLength={USER_EMAIL_MAX_LENGTH}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        aria-invalid={!!error}
        aria-describedby={`${id}-help${error ? ` ${id}-err` : ''}`}
        // biome-ignore lint/a11y/noAutofocus: a dialog moves focus into itself when it opens (WAI-ARIA dialog pattern)
        autoFocus={autoFocus}
      />
      <span id={`${id}-help`} className="help-text">
        Their work address: company sign-in finds them by it.
      </span>
      {error && (
        <p id={`${id}-err`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** Change or remove a user's email address: PATCH {email}. */
function EmailDialog({ user, onClose }: { user: RowUser; onClose: () => void }) {
  const id = useId();
  const [email, setEmail] = useState(user.email);
  const [error, setError] = useState<string | undefined>(undefined);
  const [problem, setProblem] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    setProblem(null);
    try {
      const u = await hrJson<TeamUser>(`/api/hr/users/${user.id}/`, { method: 'PATCH', body: { email } });
      reloadWith(u.email ? `Email of ${u.username} is now ${u.email}.` : `${u.username} has no email address now.`);
    } catch (err) {
      setBusy(false);
      const fields = err instanceof ApiError ? fieldErrors(err.body) : {};
      if (fields.email) setError(fields.email);
      else setProblem(failure(err));
    }
  };

  return (
    <Modal title={`Email: ${user.username}`} busy={busy} onClose={onClose} className="users-dialog">
      {(close) => (
        <form className="users-form" onSubmit={(e) => void submit(e)} noValidate>
          <Problem lines={problem} title="Nothing was changed." />
          <EmailField id={`${id}-email`} value={email} setValue={setEmail} error={error} autoFocus />
          <SubmitActions busy={busy} label="Save email" busyLabel="Saving…" close={close} />
        </form>
      )}
    </Modal>
  );
}

/** Make admin / Make recruiter, Disable / Enable: a confirmation, then PATCH. */
function ChangeDialog({ kind, user, me, onClose }: { kind: 'role' | 'active'; user: RowUser; me: number; onClose: () => void }) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string[] | null>(null);
  const self = user.id === me;
  const [role, setRole] = useState<UserRole>(user.role === 'admin' ? 'recruiter' : 'admin');
  const text =
    kind === 'role'
      ? `Change the role of ${user.username} (now ${ROLE_LABELS[user.role]}).${self && role !== 'admin' ? ' You will lose access to this page.' : ''}`
      : user.active
        ? `Disable ${user.username}? They are signed out at once and cannot sign in until enabled.${self ? ' This signs you out.' : ''}`
        : `Enable ${user.username}? They can sign in again with their password.`;
  const action = kind === 'role' ? 'Change role' : user.active ? 'Disable' : 'Enable';

  const apply = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const body = kind === 'role' ? { role } : { is_active: !user.active };
      const u = await hrJson<TeamUser>(`/api/hr/users/${user.id}/`, { method: 'PATCH', body });
      const done =
        kind === 'role'
          ? `${u.username} is now ${ROLE_LABELS[u.role].toLowerCase()}.`
          : `${u.username} ${u.is_active ? 'enabled' : 'disabled'}.`;
      // Demoted, the page is no longer ours to see; disabled, our session has ended.
      reloadWith(done, self && kind === 'role' ? '/hr/dashboard' : undefined);
    } catch (err) {
      setBusy(false);
      setProblem(failure(err));
    }
  };

  return (
    <Modal title={`${action}: ${user.username}`} busy={busy} onClose={onClose} className="users-dialog">
      {(close) => (
        <>
          <p>{text}</p>
          {kind === 'role' && (
            <fieldset className="choice-group">
              <legend className="label">New role</legend>
              {USER_ROLES.map((r) => (
                <label key={r}>
                  <input type="radio" name="change-role" value={r} checked={role === r} onChange={() => setRole(r)} /> {ROLE_LABELS[r]}:{' '}
                  {ROLE_HELP[r]}
                </label>
              ))}
            </fieldset>
          )}
          <Problem lines={problem} title="Nothing was changed." />
          <div className="modal-actions">
            <button
              type="button"
              className={`btn ${kind === 'active' && user.active ? 'btn-danger' : 'btn-primary'}`}
              disabled={busy}
              onClick={() => void apply()}
            >
              {busy ? 'Saving…' : action}
            </button>
            <button type="button" className="btn btn-secondary" disabled={busy} onClick={close} data-autofocus>
              Cancel
            </button>
          </div>
        </>
      )}
    </Modal>
  );
}

mountIsland('hr-users', HrUsers);

/** A dialog form's Submit (its label while busy) and Cancel. */
function SubmitActions({
  busy,
  label,
  busyLabel,
  close,
  focusCancel,
}: {
  busy: boolean;
  label: string;
  busyLabel: string;
  close: () => void;
  focusCancel?: boolean;
}) {
  return (
    <div className="modal-actions">
      <button type="submit" className="btn btn-primary" disabled={busy} aria-busy={busy}>
        {busy ? busyLabel : label}
      </button>
      <button type="button" className="btn btn-secondary" disabled={busy} onClick={close} data-autofocus={focusCancel || undefined}>
        Cancel
      </button>
    </div>
  );
}
