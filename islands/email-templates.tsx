/**
 * The Email templates page (/hr/settings/email-templates, admins): the templates HR sends to
 * candidates, each editable and deletable, and New template; the two interview reminder templates
 * (issue 32) are edited with their times ("Send 24 hours before", "Send 1 hour before") and, like
 * the job alert and talent pool templates the system sends (issue 35), are never deleted. The subject and body are checked as the API checks them (src/emails/schema.ts:
 * the variables of the template's purpose only, the subject on one line); the API's answer is
 * shown when it still refuses. A message after each change is announced.
 */
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { mountIsland } from './components/mount.js';
import { ApiError, hrJson } from './components/hr-api.js';
import { errorLines, fieldErrors } from '../src/shared/api-errors.js';
import { DELAY_CHOICES, EMAIL_LIMITS, EMAIL_MESSAGES, unknownVariables } from '../src/emails/schema.js';
import {
  isAlertPurpose,
  isAutomaticPurpose,
  isPoolPurpose,
  isReminderPurpose,
  templateVariables,
  type EmailTemplate,
  type TemplatePurpose,
} from '../src/emails/types.js';
import './emails.css';

type Props = { templates: EmailTemplate[]; offReason: string | null };
type Draft = {
  id: number | null;
  purpose: TemplatePurpose | null;
  name: string;
  subject: string;
  body: string;
  delay: number | null;
  remind24h: boolean | null;
  remind1h: boolean | null;
};

const draftOf = (t: EmailTemplate): Draft => ({
  id: t.id,
  purpose: t.purpose,
  name: t.name,
  subject: t.subject,
  body: t.body,
  delay: t.default_delay_minutes,
  remind24h: t.remind_24h,
  remind1h: t.remind_1h,
});

/** A reminder template's times as its card says them. */
function remindText(t: EmailTemplate): string {
  const times = [t.remind_24h ? '24 hours' : null, t.remind_1h ? '1 hour' : null].filter(Boolean);
  return times.length ? `Sent ${times.join(' and ')} before each interview` : 'Not sent: no time is ticked';
}

/** "In 2 days" (a choice of the list) or the minutes a template was given through the API. */
function delayText(minutes: number): string {
  const known = DELAY_CHOICES.find((c) => c.minutes === minutes);
  if (known) return minutes ? known.label : 'Now';
  return minutes % 1440 === 0 ? `In ${minutes / 1440} days` : minutes % 60 === 0 ? `In ${minutes / 60} hours` : `In ${minutes} minutes`;
}

type Errors = Partial<Record<'name' | 'subject' | 'body' | 'remind_24h' | 'remind_1h', string>>;

/** What the API would refuse, checked here first. */
function problems(d: Draft): Errors {
  const out: Errors = {};
  const name = d.name.trim();
  if (!name || [...name].length > EMAIL_LIMITS.name) out.name = EMAIL_MESSAGES.name;
  const subject = d.subject.trim();
  if (!subject) out.subject = EMAIL_MESSAGES.blank;
  else if (/[\r\n]/.test(subject)) out.subject = EMAIL_MESSAGES.subjectLines;
  else if ([...subject].length > EMAIL_LIMITS.subject) out.subject = EMAIL_MESSAGES.tooLong(EMAIL_LIMITS.subject);
  else if (unknownVariables(subject, d.purpose).length)
    out.subject = EMAIL_MESSAGES.unknownVariable(unknownVariables(subject, d.purpose), d.purpose);
  const body = d.body.trim();
  if (!body) out.body = EMAIL_MESSAGES.blank;
  else if ([...body].length > EMAIL_LIMITS.body) out.body = EMAIL_MESSAGES.tooLong(EMAIL_LIMITS.body);
  else if (unknownVariables(body, d.purpose).length)
    out.body = EMAIL_MESSAGES.unknownVariable(unknownVariables(body, d.purpose), d.purpose);
  return out;
}

function Editor({
  draft,
  onSaved,
  onCancel,
}: {
  draft: Draft;
  onSaved: (t: EmailTemplate, created: boolean) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [d, setD] = useState(draft);
  const [errors, setErrors] = useState<Errors>({});
  const [problem, setProblem] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const reminder = isReminderPurpose(d.purpose);
  const nameRef = useRef<HTMLInputElement>(null);
  useEffect(() => nameRef.current?.focus(), []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const found = problems(d);
    setErrors(found);
    setProblem(null);
    if (Object.keys(found).length) {
      document.getElementById(`${id}-${Object.keys(found)[0]}`)?.focus();
      return;
    }
    setBusy(true);
    try {
      const body = {
        name: d.name,
        subject: d.subject,
        body: d.body,
        default_delay_minutes: isAutomaticPurpose(d.purpose) ? null : d.delay,
        ...(reminder ? { remind_24h: d.remind24h === true, remind_1h: d.remind1h === true } : {}),
      };
      const saved =
        d.id === null
          ? await hrJson<EmailTemplate>('/api/hr/email-templates/', { method: 'POST', body })
          : await hrJson<EmailTemplate>(`/api/hr/email-templates/${d.id}/`, { method: 'PUT', body });
      onSaved(saved, d.id === null);
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.status === 401) return;
      const fields = err instanceof ApiError ? fieldErrors(err.body) : {};
      const named = {
        name: fields.name,
        subject: fields.subject,
        body: fields.body,
        remind_24h: fields.remind_24h,
        remind_1h: fields.remind_1h,
      };
      if (Object.values(named).some(Boolean)) setErrors(named);
      else setProblem(err instanceof ApiError ? errorLines(err.body) : ['The server could not be reached. Please try again.']);
    }
  };

  const field = (key: 'name' | 'subject' | 'body') => ({
    id: `${id}-${key}`,
    value: d[key],
    'aria-invalid': errors[key] ? true : undefined,
    'aria-describedby': errors[key] ? `${id}-${key}-err` : undefined,
  });
  const error = (key: keyof Errors) =>
    errors[key] && (
      <p id={`${id}-${key}-err`} className="field-error">
        {errors[key]}
      </p>
    );

  return (
    <form className="card email-form" onSubmit={(e) => void submit(e)} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{d.id === null ? 'New template' : `Edit “${draft.name}”`}</h2>
      {problem && (
        <div className="alert alert-error" role="alert">
          <div>The template was not saved.</div>
          {problem.map((l) => (
            <div key={l}>{l}</div>
          ))}
        </div>
      )}
      <div className="field">
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          ref={nameRef}
          type="text"
          maxLength={EMAIL_LIMITS.name}
          {...field('name')}
          onChange={(e) => setD({ ...d, name: e.target.value })}
        />
        {error('name')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-subject`}>Subject</label>
        <input
          type="text"
          maxLength={EMAIL_LIMITS.subject}
          {...field('subject')}
          onChange={(e) => setD({ ...d, subject: e.target.value })}
        />
        {error('subject')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-body`}>Body (plain text)</label>
        <textarea rows={12} {...field('body')} onChange={(e) => setD({ ...d, body: e.target.value })} />
        <p className="help-text">
          Variables:{' '}
          {templateVariables(d.purpose)
            .map((v) => `{${v}}`)
            .join(', ')}
          .
        </p>
        {error('body')}
      </div>
      {reminder ? (
        <fieldset className="remind-times">
          <legend>When it is sent</legend>
          {(
            [
              ['remind24h', 'remind_24h', 'Send 24 hours before'],
              ['remind1h', 'remind_1h', 'Send 1 hour before'],
            ] as const
          ).map(([key, apiKey, label]) => (
            <div key={key} className="remind-time">
              <label>
                <input
                  type="checkbox"
                  checked={d[key] === true}
                  aria-invalid={errors[apiKey] ? true : undefined}
                  aria-describedby={errors[apiKey] ? `${id}-${apiKey}-err` : undefined}
                  onChange={(e) => setD({ ...d, [key]: e.target.checked })}
                />
                {label}
              </label>
              {error(apiKey)}
            </div>
          ))}
          <p className="help-text">Before each scheduled interview. With neither ticked, this reminder is not sent.</p>
        </fieldset>
      ) : isAlertPurpose(d.purpose) ? (
        <p className="help-text">
          Sent to job alert subscribers by the careers site:{' '}
          {d.purpose === 'alert_confirm' ? 'when they subscribe' : 'with new matching jobs'}.
        </p>
      ) : isPoolPurpose(d.purpose) ? (
        <p className="help-text">
          Sent to people in talent pools:{' '}
          {d.purpose === 'pool_invite'
            ? 'when HR presses “Invite to apply” on a job’s board'
            : 'when they are added to a pool without having agreed to be kept for other jobs'}
          .
        </p>
      ) : (
        <div className="field">
          <label htmlFor={`${id}-delay`}>Send by default</label>
          <select
            id={`${id}-delay`}
            value={d.delay ?? 0}
            onChange={(e) => setD({ ...d, delay: Number(e.target.value) || null })}
            aria-describedby={`${id}-delay-help`}
          >
            {[...new Set([...DELAY_CHOICES.map((c) => c.minutes), ...(d.delay ? [d.delay] : [])])]
              .sort((a, b) => a - b)
              .map((m) => (
                <option key={m} value={m}>
                  {delayText(m)}
                </option>
              ))}
          </select>
          <p id={`${id}-delay-help`} className="help-text">
            What the Send choice starts with when this template is sent; HR can change it for each email.
          </p>
        </div>
      )}
      <div className="email-actions">
        <button type="submit" className="btn btn-primary" aria-busy={busy}>
          {busy ? 'Saving…' : 'Save template'}
        </button>
        <button type="button" className="btn btn-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function EmailTemplates({ templates: initial }: Props) {
  const [list, setList] = useState(initial);
  const [editing, setEditing] = useState<Draft | null>(null);
  const [confirming, setConfirming] = useState<EmailTemplate | null>(null);
  const [message, setMessage] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const newRef = useRef<HTMLButtonElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);

  const saved = (t: EmailTemplate, created: boolean) => {
    setList(created ? [...list, t] : list.map((x) => (x.id === t.id ? t : x)));
    setEditing(null);
    setMessage(created ? `Template “${t.name}” created.` : `Template “${t.name}” saved.`);
    requestAnimationFrame(() => document.getElementById(`template-edit-${t.id}`)?.focus());
  };

  const remove = async (t: EmailTemplate) => {
    setProblem(null);
    try {
      await hrJson(`/api/hr/email-templates/${t.id}/`, { method: 'DELETE' });
      setList(list.filter((x) => x.id !== t.id));
      setMessage(`Template “${t.name}” deleted.`);
      newRef.current?.focus();
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return;
      setProblem(
        `The template could not be deleted. ${err instanceof ApiError ? errorLines(err.body).join(' ') : 'The server could not be reached.'}`,
      );
    }
    setConfirming(null);
  };

  return (
    <div className="email-templates">
      <div className="emails-message" role="status" aria-live="polite">
        {message}
      </div>
      {problem && (
        <p className="alert alert-error" role="alert">
          {problem}
        </p>
      )}
      <div className="email-actions">
        <button
          ref={newRef}
          type="button"
          className="btn btn-primary"
          onClick={() => {
            setMessage('');
            setEditing({ id: null, purpose: null, name: '', subject: '', body: '', delay: null, remind24h: null, remind1h: null });
          }}
        >
          New template
        </button>
      </div>
      {editing && <Editor key={editing.id ?? 'new'} draft={editing} onSaved={saved} onCancel={() => setEditing(null)} />}
      {list.length === 0 && <p className="empty-state">No templates yet.</p>}
      <ul className="template-list">
        {list.map((t) => (
          <li key={t.id} className="card">
            <h2>{t.name}</h2>
            <p className="subject">
              <strong>Subject:</strong> {t.subject}
            </p>
            {isReminderPurpose(t.purpose) ? (
              <p className="subject remind-when">
                <strong>{t.purpose === 'reminder_candidate' ? 'To the candidate:' : 'To each interviewer:'}</strong> {remindText(t)}
              </p>
            ) : null}
            {t.default_delay_minutes ? (
              <p className="subject">
                <strong>Sent by default:</strong> {delayText(t.default_delay_minutes).toLowerCase()}
              </p>
            ) : null}
            <pre className="email-text">{t.body}</pre>
            {confirming?.id === t.id ? (
              <fieldset className="email-actions email-confirm">
                <legend>Delete “{t.name}”? Emails already sent keep its name.</legend>
                <button ref={confirmRef} type="button" className="btn btn-danger btn-sm" onClick={() => void remove(t)}>
                  Delete
                </button>
                <button type="button" className="btn btn-secondary btn-sm" onClick={() => setConfirming(null)}>
                  Cancel
                </button>
              </fieldset>
            ) : (
              <div className="email-actions">
                <button
                  id={`template-edit-${t.id}`}
                  type="button"
                  className="btn btn-secondary btn-sm"
                  onClick={() => {
                    setMessage('');
                    setEditing(draftOf(t));
                  }}
                >
                  Edit<span className="visually-hidden"> {t.name}</span>
                </button>
                {isAutomaticPurpose(t.purpose) ? null : (
                  <button type="button" className="btn btn-secondary btn-sm" onClick={() => setConfirming(t)}>
                    Delete<span className="visually-hidden"> {t.name}</span>
                  </button>
                )}
              </div>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

mountIsland('email-templates', EmailTemplates);
