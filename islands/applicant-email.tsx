/**
 * Email the applicant (/hr/applicants/{id}): choose a template, edit its subject and body for
 * this email if needed, preview it as the applicant will get it (the API fills the variables),
 * then send it: it is queued in the email outbox and its delivery shows in the History (the
 * `applicant:changed` event reads it again). Without SMTP_URL the buttons are off and say why.
 */
import { type FormEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { mountIsland } from './components/mount.js';
import { draftText, useDraft } from './components/drafts.js';
import { DraftNote } from './components/draft-note.js';
import { ApiError, hrJson } from './components/hr-api.js';
import { errorLines, fieldErrors } from '../src/shared/api-errors.js';
import { EMAIL_LIMITS } from '../src/emails/schema.js';
import type { EmailChoices, QueuedEmail, RenderedEmail } from '../src/emails/types.js';
import { SendLater, emailResultText, sendAtOf, type SendWhen } from './components/reject-email.js';
import './emails.css';

type Props = { id: number };

function EmailPreview({ email, headingId }: { email: RenderedEmail; headingId: string }) {
  return (
    <section className="email-preview" aria-labelledby={headingId}>
      <h3 id={headingId}>Preview</h3>
      <dl>
        <dt>To</dt>
        <dd>{email.to}</dd>
        <dt>Subject</dt>
        <dd>{email.subject}</dd>
      </dl>
      <pre className="email-text">{email.text}</pre>
    </section>
  );
}

function ApplicantEmail({ id }: Props) {
  const uid = useId();
  const [choices, setChoices] = useState<EmailChoices | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [templateId, setTemplateId] = useState<number | null>(null);
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const [preview, setPreview] = useState<RenderedEmail | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string[] | null>(null);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const sendRef = useRef<HTMLButtonElement>(null);
  /** What was last sent: the same text is no longer a draft. */
  const [sent, setSent] = useState<string | null>(null);

  // The email being written (a template's text edited) is kept on this device until sent (issue 30).
  const writing = useMemo(() => ({ template_id: templateId, subject, body }), [templateId, subject, body]);
  const template = choices?.templates.find((t) => t.id === templateId);
  const edited = !!template && (subject !== template.subject || body !== template.body) && JSON.stringify(writing) !== sent;
  const kept = useDraft(
    'email',
    id,
    writing,
    edited,
    (raw) => {
      const t = choices?.templates.find((x) => raw && typeof raw === 'object' && x.id === (raw as { template_id?: unknown }).template_id);
      return t
        ? { template_id: t.id, subject: draftText(raw, 'subject', EMAIL_LIMITS.subject), body: draftText(raw, 'body', EMAIL_LIMITS.body) }
        : null;
    },
    (d) => {
      setTemplateId(d.template_id);
      setSubject(d.subject);
      setBody(d.body);
    },
    choices !== null,
  );
  // Issue 30: send now or later (the template's default delay first).
  const [when, setWhen] = useState<SendWhen>({ kind: 'delay', minutes: 0 });

  useEffect(() => {
    hrJson<EmailChoices>('/api/hr/applications/emails/')
      .then(setChoices)
      .catch((err) => {
        if (!(err instanceof ApiError && err.status === 401)) setLoadFailed(true);
      });
  }, []);
  useEffect(() => {
    if (preview) sendRef.current?.focus();
  }, [preview]);

  const choose = (value: string) => {
    const t = choices?.templates.find((x) => x.id === Number(value));
    setTemplateId(t ? t.id : null);
    setSubject(t?.subject ?? '');
    setBody(t?.body ?? '');
    setWhen({ kind: 'delay', minutes: t?.default_delay_minutes ?? 0 });
    setPreview(null);
    setErrors({});
    setProblem(null);
  };

  const failed = (err: unknown, what: string) => {
    if (err instanceof ApiError && err.status === 401) return;
    const fields = err instanceof ApiError ? fieldErrors(err.body) : {};
    if (fields.subject || fields.body || fields.template_id) setErrors(fields);
    else setProblem([what, ...(err instanceof ApiError ? errorLines(err.body) : ['The server could not be reached. Please try again.'])]);
  };

  const request = () => ({ template_id: templateId, subject, body });

  const showPreview = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || templateId === null) return;
    setBusy(true);
    setErrors({});
    setProblem(null);
    setMessage('');
    try {
      setPreview(await hrJson<RenderedEmail>(`/api/hr/applications/${id}/emails/preview/`, { method: 'POST', body: request() }));
    } catch (err) {
      failed(err, 'The preview could not be made.');
    }
    setBusy(false);
  };

  const send = async () => {
    if (busy || !preview) return;
    const at = sendAtOf(when);
    if (at.problem) {
      setProblem([at.problem]);
      return;
    }
    setBusy(true);
    try {
      const queued = await hrJson<QueuedEmail>(`/api/hr/applications/${id}/emails/`, {
        method: 'POST',
        body: { ...request(), send_at: at.sendAt },
      });
      const detail = queued.send_after
        ? emailResultText({
            queued: 1,
            queued_ids: [queued.id],
            rejected_ids: [],
            not_found: [],
            skipped_ids: [],
            send_after: queued.send_after,
            detail: queued.detail,
          })
        : queued.detail;
      setMessage(`${detail} “${queued.subject}” to ${queued.to}.`);
      setPreview(null);
      setSent(JSON.stringify(writing));
      kept.clear();
      document.dispatchEvent(new CustomEvent('applicant:changed'));
    } catch (err) {
      failed(err, 'The email was not sent.');
    }
    setBusy(false);
  };

  const off = choices && !choices.email_on;
  const offId = `${uid}-off`;
  return (
    <section className="card applicant-email" aria-labelledby={`${uid}-title`}>
      <h2 id={`${uid}-title`}>Email the applicant</h2>
      <div className="emails-message" role="status" aria-live="polite">
        {message}
      </div>
      {loadFailed && (
        <p className="alert alert-error" role="alert">
          The email templates could not be loaded. Reload the page to try again.
        </p>
      )}
      {off && (
        <p id={offId} className="alert alert-warning email-off">
          {choices.off_reason}
        </p>
      )}
      {problem && (
        <div className="alert alert-error" role="alert">
          {problem.map((l) => (
            <div key={l}>{l}</div>
          ))}
        </div>
      )}
      {choices && (
        <form className="email-form" onSubmit={(e) => void showPreview(e)} noValidate>
          {kept.restored && (
            <DraftNote
              id={`${uid}-draft`}
              onDiscard={() => {
                choose(String(templateId ?? ''));
                kept.clear();
              }}
            />
          )}
          <div className="field">
            <label htmlFor={`${uid}-template`}>Template</label>
            <select
              id={`${uid}-template`}
              value={templateId ?? ''}
              onChange={(e) => choose(e.target.value)}
              aria-invalid={errors.template_id ? true : undefined}
              aria-describedby={errors.template_id ? `${uid}-template-err` : undefined}
            >
              <option value="">Choose a template…</option>
              {choices.templates.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
            {errors.template_id && (
              <p id={`${uid}-template-err`} className="field-error">
                {errors.template_id}
              </p>
            )}
          </div>
          {templateId !== null && (
            <>
              <div className="field">
                <label htmlFor={`${uid}-subject`}>Subject</label>
                <input
                  id={`${uid}-subject`}
                  type="text"
                  maxLength={EMAIL_LIMITS.subject}
                  value={subject}
                  onChange={(e) => {
                    setSubject(e.target.value);
                    setPreview(null);
                  }}
                  aria-invalid={errors.subject ? true : undefined}
                  aria-describedby={errors.subject ? `${uid}-subject-err` : undefined}
                />
                {errors.subject && (
                  <p id={`${uid}-subject-err`} className="field-error">
                    {errors.subject}
                  </p>
                )}
              </div>
              <div className="field">
                <label htmlFor={`${uid}-body`}>Message</label>
                <textarea
                  id={`${uid}-body`}
                  rows={10}
                  value={body}
                  onChange={(e) => {
                    setBody(e.target.value);
                    setPreview(null);
                  }}
                  aria-invalid={errors.body ? true : undefined}
                  aria-describedby={errors.body ? `${uid}-body-err` : `${uid}-body-help`}
                />
                <p id={`${uid}-body-help`} className="help-text">
                  Edits apply to this email only; the template stays as it is.
                </p>
                {errors.body && (
                  <p id={`${uid}-body-err`} className="field-error">
                    {errors.body}
                  </p>
                )}
              </div>
            </>
          )}
          <div className="email-actions">
            <button type="submit" className="btn btn-secondary" disabled={templateId === null} aria-busy={busy && !preview}>
              Preview
            </button>
          </div>
        </form>
      )}
      {preview && (
        <>
          <EmailPreview email={preview} headingId={`${uid}-preview`} />
          <SendLater
            idPrefix={uid}
            when={when}
            templateDelay={choices?.templates.find((t) => t.id === templateId)?.default_delay_minutes ?? null}
            onChange={setWhen}
          />
          <div className="email-actions">
            <button
              ref={sendRef}
              type="button"
              className="btn btn-primary"
              onClick={() => void send()}
              disabled={!!off}
              aria-describedby={off ? offId : undefined}
              aria-busy={busy}
            >
              {busy ? 'Sending…' : sendAtOf(when).sendAt ? 'Schedule email' : 'Send email'}
            </button>
          </div>
        </>
      )}
    </section>
  );
}

mountIsland('applicant-email', ApplicantEmail);
