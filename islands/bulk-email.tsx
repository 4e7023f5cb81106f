/**
 * Reject with email, below the applicants list (/hr/applicants): the applications
 * selected with the list's checkboxes are rejected with a reason from the list HR keeps and get
 * a template's email (the rejection one first), in one request
 * (`POST /api/hr/applications/emails/bulk/`). Before it is sent, the email the first selected
 * applicant would get is previewed. The rows then show their new status. Without SMTP_URL the
 * button is off and says why.
 */
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { mountIsland } from './components/mount.js';
import { ApiError, hrJson } from './components/hr-api.js';
import { errorLines } from '../src/shared/api-errors.js';
import type { EmailChoices, BulkEmailResult, BulkPreview } from '../src/emails/types.js';
import { SendLater, emailResultText, sendAtOf, type SendWhen } from './components/reject-email.js';
import './emails.css';

const selectedBoxes = () => [...document.querySelectorAll<HTMLInputElement>('table.applicants-table input[data-select]:checked')];
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function BulkEmail() {
  const uid = useId();
  const [choices, setChoices] = useState<EmailChoices | null>(null);
  const [reasons, setReasons] = useState<string[]>([]);
  const [templateId, setTemplateId] = useState('');
  const [reason, setReason] = useState('');
  const [selected, setSelected] = useState(0);
  const [preview, setPreview] = useState<{ result: BulkPreview; ids: number[] } | null>(null);
  // Issue 30: when to send, and whether those already rejected get the email again.
  const [when, setWhen] = useState<SendWhen>({ kind: 'delay', minutes: 0 });
  const [emailAgain, setEmailAgain] = useState(false);
  const [message, setMessage] = useState('');
  const [problem, setProblem] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    Promise.all([
      hrJson<EmailChoices>('/api/hr/applications/emails/'),
      hrJson<{ reasons: { name: string }[] }>('/api/hr/rejection-reasons/'),
    ])
      .then(([c, r]) => {
        setChoices(c);
        setReasons(r.reasons.map((x) => x.name));
        setReason(r.reasons[0]?.name ?? '');
        const first = c.templates.find((t) => t.purpose === 'rejection') ?? c.templates[0];
        setTemplateId(first ? String(first.id) : '');
        setWhen({ kind: 'delay', minutes: first?.default_delay_minutes ?? 0 });
      })
      .catch((err) => {
        if (!(err instanceof ApiError && err.status === 401))
          setProblem(['Reject with email is not available: the templates could not be loaded.']);
      });
  }, []);

  // The list's checkboxes are the applicants island's; their count is read whenever one changes.
  const count = useCallback(() => {
    setSelected(selectedBoxes().length);
    setPreview(null);
  }, []);
  useEffect(() => {
    const onChange = (e: Event) => {
      if ((e.target as Element | null)?.closest?.('table.applicants-table')) count();
    };
    document.addEventListener('change', onChange);
    count();
    return () => document.removeEventListener('change', onChange);
  }, [count]);
  useEffect(() => {
    if (preview) confirmRef.current?.focus();
  }, [preview]);

  if (!choices)
    return problem ? (
      <p className="alert alert-error" role="alert">
        {problem[0]}
      </p>
    ) : null;
  const off = !choices.email_on;
  const offId = `${uid}-off`;

  const failure = (err: unknown, what: string) => {
    if (err instanceof ApiError && err.status === 401) return;
    setProblem([what, ...(err instanceof ApiError ? errorLines(err.body) : ['The server could not be reached. Please try again.'])]);
  };

  const review = async () => {
    const ids = selectedBoxes().map((b) => Number(b.value));
    if (busy || off || !ids.length || !templateId) return;
    setBusy(true);
    setProblem(null);
    setMessage('');
    try {
      const result = await hrJson<BulkPreview>('/api/hr/applications/emails/bulk/preview/', {
        method: 'POST',
        body: { ids, template_id: Number(templateId) },
      });
      setEmailAgain(false);
      setPreview({ result, ids });
    } catch (err) {
      failure(err, 'The preview could not be made.');
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
      const result = await hrJson<BulkEmailResult>('/api/hr/applications/emails/bulk/', {
        method: 'POST',
        body: {
          ids: preview.ids,
          template_id: Number(templateId),
          outcome: 'REJECTED',
          reason,
          send_at: at.sendAt,
          email_again: emailAgain,
        },
      });
      const done = new Set([...result.queued_ids, ...result.skipped_ids]);
      for (const box of selectedBoxes()) {
        if (!done.has(Number(box.value))) continue;
        const row = box.closest('tr')!;
        const status = row.querySelector('[data-status]');
        if (status) {
          status.textContent = 'ARCHIVED';
          status.className = 'status status-archived';
        }
        const stage = row.querySelector('td[data-label="Stage"]');
        if (stage) stage.innerHTML = '<span class="status status-rejected">Rejected</span>';
        box.checked = false;
        box.dispatchEvent(new Event('change', { bubbles: true }));
      }
      const missing = result.not_found.length
        ? ` ${plural(result.not_found.length, 'application was', 'applications were')} not found.`
        : '';
      setMessage(`${plural(done.size, 'applicant', 'applicants')} rejected (${reason}). ${emailResultText(result)}${missing}`);
      setPreview(null);
    } catch (err) {
      failure(err, 'Nothing was rejected or sent.');
    }
    setBusy(false);
  };

  return (
    <section className="bulk-email card" aria-labelledby={`${uid}-title`}>
      <h2 id={`${uid}-title`} className="h3">
        Reject with email
      </h2>
      <div className="emails-message" role="status" aria-live="polite">
        {message}
      </div>
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
      <div className="bulk-email-row">
        <div className="field">
          <label htmlFor={`${uid}-reason`}>Reason</label>
          <select
            id={`${uid}-reason`}
            value={reason}
            onChange={(e) => {
              setReason(e.target.value);
              setPreview(null);
            }}
          >
            {reasons.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${uid}-template`}>Email</label>
          <select
            id={`${uid}-template`}
            value={templateId}
            onChange={(e) => {
              setTemplateId(e.target.value);
              setWhen({
                kind: 'delay',
                minutes: choices.templates.find((t) => String(t.id) === e.target.value)?.default_delay_minutes ?? 0,
              });
              setPreview(null);
            }}
          >
            {choices.templates.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </div>
        <SendLater
          idPrefix={uid}
          when={when}
          templateDelay={choices.templates.find((t) => String(t.id) === templateId)?.default_delay_minutes ?? null}
          onChange={setWhen}
        />
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => void review()}
          aria-disabled={off || selected === 0}
          aria-describedby={off ? offId : undefined}
          aria-busy={busy && !preview}
        >
          {selected ? `Reject and email ${selected} selected…` : 'Reject and email…'}
        </button>
      </div>
      {preview &&
        (() => {
          const { result } = preview;
          const again = result.already_rejected;
          const emails = again && !emailAgain ? result.count - again : result.count;
          const later = sendAtOf(when).sendAt;
          return (
            <div className="email-preview">
              <h3 id={`${uid}-preview`}>
                {again
                  ? `Preview for ${result.email.to}, one of ${plural(result.count, 'applicant', 'applicants')}`
                  : `Preview for the first of ${plural(result.count, 'applicant', 'applicants')}`}
              </h3>
              {again > 0 && (
                <div className="alert alert-warning">
                  <p>
                    {again} of the {result.count} selected {again === 1 ? 'is' : 'are'} already rejected:{' '}
                    {again === 1 ? 'it gets' : 'they get'} no second email unless you tick below.
                  </p>
                  <div className="checkbox-field">
                    <input id={`${uid}-again`} type="checkbox" checked={emailAgain} onChange={(e) => setEmailAgain(e.target.checked)} />
                    <label htmlFor={`${uid}-again`}>Email {again === 1 ? 'them' : `those ${again}`} again</label>
                  </div>
                </div>
              )}
              <dl>
                <dt>To</dt>
                <dd>{result.email.to}</dd>
                <dt>Subject</dt>
                <dd>{result.email.subject}</dd>
              </dl>
              <pre className="email-text">{result.email.text}</pre>
              <div className="email-actions">
                <button ref={confirmRef} type="button" className="btn btn-danger" onClick={() => void send()} aria-busy={busy}>
                  {busy ? 'Sending…' : `Reject ${result.count} and ${later ? 'schedule' : 'send'} ${plural(emails, 'email', 'emails')}`}
                </button>
                <button type="button" className="btn btn-secondary" onClick={() => setPreview(null)}>
                  Cancel
                </button>
              </div>
            </div>
          );
        })()}
    </section>
  );
}

mountIsland('bulk-email', BulkEmail);
