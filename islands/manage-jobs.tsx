/**
 * Manage Jobs (/hr/jobs): the table is rendered on the server; this island wires its Remove
 * buttons. Remove asks 'Remove this job? This sets status to REMOVED.' in a modal dialog, then
 * loads the job and PUTs it back in full with status REMOVED (spec 02 section 4), then reloads.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { mountIsland } from './components/mount.js';
import { ApiError, hrJson } from './components/hr-api.js';
import { errorLines } from '../src/shared/api-errors.js';
import type { HrJob } from '../src/jobs/types.js';
import './manage-jobs.css';

export const REMOVE_CONFIRM = 'Remove this job? This sets status to REMOVED.';

interface Target {
  id: string;
  title: string;
  trigger: HTMLButtonElement;
}

function ManageJobs() {
  const [target, setTarget] = useState<Target | null>(null);

  useEffect(() => {
    const buttons = [...document.querySelectorAll<HTMLButtonElement>('button[data-remove-job]')];
    const onClick = (e: Event) => {
      const b = e.currentTarget as HTMLButtonElement;
      setTarget({ id: b.dataset.removeJob!, title: b.dataset.jobTitle ?? '', trigger: b });
    };
    for (const b of buttons) {
      b.hidden = false; // shown only once the island can handle it
      b.addEventListener('click', onClick);
    }
    return () => {
      for (const b of buttons) b.removeEventListener('click', onClick);
    };
  }, []);

  if (!target) return null;
  return (
    <RemoveDialog
      target={target}
      onClose={() => {
        setTarget(null);
        target.trigger.focus();
      }}
    />
  );
}

function RemoveDialog({ target, onClose }: { target: Target; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const textId = useId();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string[] | null>(null);

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

  const remove = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const job = await hrJson<HrJob>(`/api/hr/jobs/${target.id}/`);
      await hrJson<HrJob>(`/api/hr/jobs/${target.id}/`, { method: 'PUT', body: { ...job, status: 'REMOVED' } });
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
      <h2 id={titleId}>Remove job</h2>
      <p id={textId}>{REMOVE_CONFIRM}</p>
      <p className="confirm-subject">{target.title}</p>
      {problem && (
        <div className="alert alert-error" role="alert">
          <p className="alert-title">The job could not be removed.</p>
          {problem.map((line, i) => (
            <div key={i}>{line}</div>
          ))}
        </div>
      )}
      <div className="modal-actions">
        <button type="button" className="btn btn-danger" disabled={busy} onClick={() => void remove()}>
          {busy ? 'Removing…' : 'Remove'}
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
