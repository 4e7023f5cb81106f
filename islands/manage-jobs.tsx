/**
 * The HR job list (Manage Jobs /hr/jobs and All Job Posts /hr/jobs/list): the table is rendered on
 * the server; this island wires each row's menu (More: Applicants, Board, View, Duplicate, Remove
 * or Restore) and its actions.
 * - Remove asks 'Remove this job? This sets status to REMOVED.' in a modal dialog, then loads the
 *   job and PUTs it back in full with status REMOVED (spec 02 section 4).
 * - Restore (removed jobs) asks first too, then PUTs the job back as INACTIVE: a restored job is
 *   not published again until HR makes it Active in the editor.
 * - Duplicate loads the job and POSTs a copy: 'Copy of …', INACTIVE, a new public id, the same
 *   texts, questions and webhook (a recruiter's copy without the webhook: only an admin sets one,
 *   issue 28); the copy then heads the whole list (newest first).
 * After each, the next page says what was done in a message screen readers announce.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { mountIsland } from './components/mount.js';
import { flashNext } from './components/flash.js';
import { wireButtons } from './components/wire-buttons.js';
import { menuButtonOf, wireMenuButtons } from './components/menu-button.js';
import { ApiError, hrJson } from './components/hr-api.js';
import { errorLines } from '../src/shared/api-errors.js';
import { JOB_LIMITS } from '../src/jobs/schema.js';
import type { HrJob } from '../src/jobs/types.js';
import './manage-jobs.css';

export const REMOVE_CONFIRM = 'Remove this job? This sets status to REMOVED.';
const RESTORE_CONFIRM = 'Restore this job? It comes back as Inactive: make it Active in the editor to publish it again.';
const DONE = {
  removed: 'Job removed.',
  restored: 'Job restored as Inactive.',
  duplicated: 'Job duplicated: the copy is the first row, saved as Inactive.',
  duplicatedWithoutWebhook: 'Job duplicated without its webhook (only an admin can set one): the copy is the first row, saved as Inactive.',
} as const;

type Action = 'remove' | 'restore';

interface Target {
  action: Action;
  id: string;
  title: string;
  trigger: HTMLButtonElement;
}

/** The job as a new job: the copy is inactive and gets a public id of its own (the API makes one). */
function copyOf(job: HrJob, withWebhook: boolean): Record<string, unknown> {
  return {
    ...job,
    ...(withWebhook ? {} : { webhook_enabled: false, webhook_url: null, webhook_secret: null, webhook_include_source: false }),
    title: Array.from(`Copy of ${job.title}`).slice(0, JOB_LIMITS.text).join(''),
    public_id: null,
    // Made from "Copy of …" now, and again from the title the copy has when it is first saved.
    public_id_draft: true,
    status: 'INACTIVE',
    // A closing date already past would be refused on create; the copy takes none until set.
    closes_at: job.closes_at && Date.parse(job.closes_at) > Date.now() ? job.closes_at : null,
    questions: job.questions.map(({ id: _id, ...question }) => question),
  };
}

function ManageJobs({ canChangeWebhook }: { canChangeWebhook: boolean }) {
  const [target, setTarget] = useState<Target | null>(null);
  const [copying, setCopying] = useState<string | null>(null);
  const [copyProblem, setCopyProblem] = useState<string[] | null>(null);

  useEffect(() => {
    const duplicate = async (b: HTMLButtonElement) => {
      const id = b.dataset.duplicateJob!;
      setCopying(b.dataset.jobTitle ?? '');
      setCopyProblem(null);
      b.disabled = true;
      menuButtonOf(b)?.focus();
      try {
        const job = await hrJson<HrJob>(`/api/hr/jobs/${id}/`);
        await hrJson<HrJob>('/api/hr/jobs/', { method: 'POST', body: copyOf(job, canChangeWebhook) });
        flashNext(canChangeWebhook || !(job.webhook_enabled || job.webhook_url) ? DONE.duplicated : DONE.duplicatedWithoutWebhook);
        // The whole list, newest first: the copy is its first row, whatever the filter was.
        location.assign('/hr/jobs');
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) return; // on the way to the login page
        b.disabled = false;
        setCopying(null);
        setCopyProblem(errorLines(err instanceof ApiError ? err.body : null));
      }
    };
    // Focus comes back to the row's menu button once the dialog closes (the item is in a closed menu).
    const triggerOf = (b: HTMLButtonElement) => menuButtonOf(b) ?? b;
    const unwire = [
      wireMenuButtons(),
      wireButtons('button[data-remove-job]', (b) =>
        setTarget({ action: 'remove', id: b.dataset.removeJob!, title: b.dataset.jobTitle ?? '', trigger: triggerOf(b) }),
      ),
      wireButtons('button[data-restore-job]', (b) =>
        setTarget({ action: 'restore', id: b.dataset.restoreJob!, title: b.dataset.jobTitle ?? '', trigger: triggerOf(b) }),
      ),
      wireButtons('button[data-duplicate-job]', (b) => void duplicate(b)),
    ];
    return () => {
      for (const off of unwire) off();
    };
  }, [canChangeWebhook]);

  return (
    <>
      <p className="visually-hidden" role="status">
        {copying ? `Duplicating ${copying}…` : ''}
      </p>
      {copyProblem && (
        <div className="alert alert-error" role="alert">
          <p className="alert-title">The job could not be duplicated.</p>
          {copyProblem.map((line, i) => (
            <div key={i}>{line}</div>
          ))}
        </div>
      )}
      {target && (
        <ConfirmDialog
          target={target}
          onClose={() => {
            setTarget(null);
            target.trigger.focus();
          }}
        />
      )}
    </>
  );
}

const DIALOG = {
  remove: {
    title: 'Remove job',
    text: REMOVE_CONFIRM,
    button: 'Remove',
    busy: 'Removing…',
    failed: 'The job could not be removed.',
    status: 'REMOVED',
    done: 'removed',
    tone: 'btn-danger',
  },
  restore: {
    title: 'Restore job',
    text: RESTORE_CONFIRM,
    button: 'Restore',
    busy: 'Restoring…',
    failed: 'The job could not be restored.',
    status: 'INACTIVE',
    done: 'restored',
    tone: 'btn-primary',
  },
} as const;

function ConfirmDialog({ target, onClose }: { target: Target; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const textId = useId();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string[] | null>(null);
  const words = DIALOG[target.action];

  useEffect(() => {
    const d = dialog.current!;
    if (!d.open) d.showModal();
    return () => {
      if (d.open) d.close();
    };
  }, []);

  // Closed before the trigger gets focus back (nothing outside a modal dialog can take focus).
  const cancel = () => {
    dialog.current?.close();
    onClose();
  };

  const confirm = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const job = await hrJson<HrJob>(`/api/hr/jobs/${target.id}/`);
      await hrJson<HrJob>(`/api/hr/jobs/${target.id}/`, { method: 'PUT', body: { ...job, status: words.status } });
      flashNext(DONE[words.done]);
      location.reload();
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return; // on the way to the login page
      setBusy(false);
      setProblem(errorLines(err instanceof ApiError ? err.body : null));
    }
  };

  return (
    <dialog
      ref={dialog}
      className="modal confirm-dialog"
      aria-labelledby={titleId}
      aria-describedby={textId}
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) cancel();
      }}
    >
      <h2 id={titleId}>{words.title}</h2>
      <p id={textId}>{words.text}</p>
      <p className="confirm-subject">{target.title}</p>
      {problem && (
        <div className="alert alert-error" role="alert">
          <p className="alert-title">{words.failed}</p>
          {problem.map((line, i) => (
            <div key={i}>{line}</div>
          ))}
        </div>
      )}
      <div className="modal-actions">
        <button type="button" className={`btn ${words.tone}`} disabled={busy} onClick={() => void confirm()}>
          {busy ? words.busy : words.button}
        </button>
        {/* biome-ignore lint/a11y/noAutofocus: a confirmation dialog focuses its least destructive action */}
        <button type="button" className="btn btn-secondary" disabled={busy} onClick={cancel} autoFocus>
          Cancel
        </button>
      </div>
    </dialog>
  );
}

mountIsland('manage-jobs', ManageJobs);
