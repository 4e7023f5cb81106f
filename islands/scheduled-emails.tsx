/**
 * Scheduled emails on the applicant page (/hr/applicants/{id}, issue 30): the emails to this
 * applicant waiting for their time, each with when it goes (in the viewer's zone), who scheduled
 * it, and Cancel for its sender or an admin (`POST /api/hr/emails/{id}/cancel/`) until it is
 * sent. Read again when an email is queued on the page (`emails:queued`, whose text it
 * announces) or the application changes (`applicant:changed`).
 */
import { useCallback, useEffect, useId, useState } from 'react';
import { mountIsland } from './components/mount.js';
import { ApiError, hrJson } from './components/hr-api.js';
import { LocalTime } from './components/local-time.js';
import { errorLines } from '../src/shared/api-errors.js';
import type { CancelledEmail, ScheduledEmail } from '../src/emails/types.js';
import './emails.css';
import './components/reject-email.css';

type Props = { id: number };

function ScheduledEmails({ id }: Props) {
  const uid = useId();
  const [emails, setEmails] = useState<ScheduledEmail[]>([]);
  const [message, setMessage] = useState('');
  const [problem, setProblem] = useState<string[] | null>(null);
  const [busy, setBusy] = useState<number | null>(null);

  const load = useCallback(async () => {
    try {
      setEmails((await hrJson<{ results: ScheduledEmail[] }>(`/api/hr/applications/${id}/emails/scheduled/`)).results);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) setProblem(['The scheduled emails could not be loaded.']);
    }
  }, [id]);

  useEffect(() => {
    void load();
    const onQueued = (e: Event) => {
      setMessage(String((e as CustomEvent).detail ?? ''));
      void load();
    };
    const onChanged = () => void load();
    document.addEventListener('emails:queued', onQueued);
    document.addEventListener('applicant:changed', onChanged);
    return () => {
      document.removeEventListener('emails:queued', onQueued);
      document.removeEventListener('applicant:changed', onChanged);
    };
  }, [load]);

  const cancel = async (email: ScheduledEmail) => {
    if (busy !== null) return;
    setBusy(email.id);
    setProblem(null);
    try {
      const done = await hrJson<CancelledEmail>(`/api/hr/emails/${email.id}/cancel/`, { method: 'POST' });
      // Gone from the list with the message, not a reload later.
      setEmails((list) => list.filter((e) => e.id !== email.id));
      setMessage(`“${email.subject}”: ${done.detail}`);
      document.dispatchEvent(new CustomEvent('applicant:changed'));
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401))
        setProblem([
          'The email could not be cancelled.',
          ...(err instanceof ApiError ? errorLines(err.body) : ['The server could not be reached. Please try again.']),
        ]);
    }
    setBusy(null);
    await load();
  };

  return (
    <section className="scheduled-emails card" aria-labelledby={`${uid}-title`} hidden={!emails.length && !message && !problem}>
      <h2 id={`${uid}-title`} className="h3">
        Scheduled emails
      </h2>
      <div className="emails-message" role="status" aria-live="polite">
        {message}
      </div>
      {problem && (
        <div className="alert alert-error" role="alert">
          {problem.map((l) => (
            <div key={l}>{l}</div>
          ))}
        </div>
      )}
      {emails.length ? (
        <ul>
          {emails.map((e) => (
            <li key={e.id}>
              <div>
                <strong>{e.subject}</strong>
                <div>
                  Scheduled for <LocalTime iso={e.send_after} />
                  {e.sent_by ? ` by ${e.sent_by.username}` : ''}
                </div>
              </div>
              {e.can_cancel && (
                <button type="button" className="btn btn-secondary btn-sm" onClick={() => void cancel(e)} aria-busy={busy === e.id}>
                  Cancel email<span className="visually-hidden">: {e.subject}</span>
                </button>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p className="empty-state">No email is waiting to be sent.</p>
      )}
    </section>
  );
}

mountIsland('scheduled-emails', ScheduledEmails);
