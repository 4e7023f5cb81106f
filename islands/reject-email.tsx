/**
 * The rejection email in the applicant page's Reject dialog (/hr/applicants/{id}, issue 30): the
 * dialog (the applicants island's, also opened with the `r` key) asks for the reason; this adds
 * "Send the rejection email", the template, when to send it and the preview. When the email is
 * on, the dialog's submit first rejects and queues (or schedules) the email in one request
 * (`POST /api/hr/applications/emails/bulk/`), then lets the dialog's own change run, which finds
 * the application rejected and shows it. The scheduled-emails island says what was queued.
 */
import { useEffect, useRef, useState } from 'react';
import { mountIsland } from './components/mount.js';
import { ApiError } from './components/hr-api.js';
import { errorLines } from '../src/shared/api-errors.js';
import {
  RejectEmailOptions,
  emailOptionsProblem,
  emailResultText,
  initialEmailOptions,
  rejectWithEmail,
  useEmailChoices,
  type EmailOptionsState,
} from './components/reject-email.js';

type Props = { id: number };

function RejectEmail({ id }: Props) {
  const { choices, failed } = useEmailChoices();
  const [state, setState] = useState<EmailOptionsState>(() => initialEmailOptions(null));
  const [problem, setProblem] = useState<string[] | null>(null);
  const live = useRef({ state, busy: false, passing: false });
  live.current.state = state;

  useEffect(() => {
    if (choices) setState(initialEmailOptions(choices));
  }, [choices]);

  // Each time the dialog opens, the choices start again (email on, the template's default delay).
  useEffect(() => {
    const dialog = document.querySelector<HTMLDialogElement>('dialog[data-reject-dialog]');
    if (!dialog || !choices) return;
    const observer = new MutationObserver(() => {
      if (dialog.open) {
        setState(initialEmailOptions(choices));
        setProblem(null);
      }
    });
    observer.observe(dialog, { attributes: true, attributeFilter: ['open'] });
    return () => observer.disconnect();
  }, [choices]);

  useEffect(() => {
    const onSubmit = (e: SubmitEvent) => {
      const form = e.target as HTMLFormElement | null;
      if (!form?.matches?.('form[data-reject-form]') || live.current.passing) return;
      const current = live.current.state;
      if (!current.send) return; // no email: the dialog's own Reject
      e.preventDefault();
      e.stopImmediatePropagation();
      const stop = emailOptionsProblem(current);
      if (stop) {
        setProblem([stop]);
        return;
      }
      if (live.current.busy) return;
      live.current.busy = true;
      const reason = form.querySelector<HTMLSelectElement>('select[name="reason"]')?.value ?? '';
      rejectWithEmail([id], reason, current)
        .then((result) => {
          document.dispatchEvent(new CustomEvent('emails:queued', { detail: emailResultText(result) }));
          // The dialog's own change now finds the application rejected and shows it.
          live.current.passing = true;
          try {
            form.requestSubmit();
          } finally {
            live.current.passing = false;
          }
        })
        .catch((err) => {
          if (err instanceof ApiError && err.status === 401) return;
          setProblem([
            'Nothing was rejected or sent.',
            ...(err instanceof ApiError ? errorLines(err.body) : ['The server could not be reached. Please try again.']),
          ]);
        })
        .finally(() => {
          live.current.busy = false;
        });
    };
    // Capture: before the applicants island's own submit handler on the form.
    document.addEventListener('submit', onSubmit, true);
    return () => document.removeEventListener('submit', onSubmit, true);
  }, [id]);

  if (failed) return <p className="hint">The rejection email is not available: the templates could not be loaded.</p>;
  if (!choices) return null;
  return (
    <>
      <RejectEmailOptions ids={[id]} choices={choices} state={state} onChange={setState} />
      {problem && (
        <div className="alert alert-error" role="alert">
          {problem.map((l) => (
            <div key={l}>{l}</div>
          ))}
        </div>
      )}
    </>
  );
}

mountIsland('reject-email', RejectEmail);
