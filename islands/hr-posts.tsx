/**
 * API Post Requests (/hr/posts): the table is rendered on the server; this island wires Export
 * (the xlsx of the current tab, 'Export failed. Please try again.' on failure), Retry on a failed
 * row (then the page reloads) and Attempts, which opens a dialog listing the row's attempts.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { mountIsland } from './components/mount.js';
import { LocalTime } from './components/local-time.js';
import { wireButtons } from './components/wire-buttons.js';
import { ApiError, hrJson } from './components/hr-api.js';
import { flashNext } from './components/flash.js';
import { hrFetch } from './components/session.js';
import { exportUrl, saveResponse } from './job-insights/download.js';
import { errorLines } from '../src/shared/api-errors.js';
import { POST_MESSAGES } from '../src/posts/schema.js';
import type { PostAttemptRecord, PostStatus } from '../src/posts/types.js';
import './hr-posts.css';

interface Props {
  status: PostStatus;
}

function HrPosts({ status }: Props) {
  const [attemptsOf, setAttemptsOf] = useState<{ id: string; trigger: HTMLButtonElement } | null>(null);
  const exporting = useRef(false);

  useEffect(() => {
    const problem = document.getElementById('posts-export-problem')!;
    const offExport = wireButtons('button[data-export-posts]', async (b) => {
      if (exporting.current) return;
      exporting.current = true;
      b.setAttribute('aria-busy', 'true');
      problem.hidden = true;
      try {
        const res = await hrFetch(exportUrl(`/api/hr/application-posts/export/?status=${encodeURIComponent(status)}`));
        if (!res.ok) throw new Error(`export answered ${res.status}`);
        await saveResponse(res, `application_posts_${status}.xlsx`);
      } catch {
        problem.textContent = POST_MESSAGES.exportFailed;
        problem.hidden = false;
      } finally {
        exporting.current = false;
        b.removeAttribute('aria-busy');
      }
    });
    const offRetry = wireButtons('button[data-post-retry]', async (b) => {
      b.disabled = true;
      b.textContent = 'Retrying…';
      try {
        await hrJson(`/api/hr/application-posts/${b.dataset.postRetry}/retry/`, { method: 'POST' });
        flashNext(`Post ${b.dataset.postRetry} queued to be sent again.`);
        location.reload();
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) return; // on the way to the login page
        b.disabled = false;
        b.textContent = 'Retry';
        problem.textContent = errorLines(err instanceof ApiError ? err.body : null).join(' ') || 'The post could not be retried.';
        problem.hidden = false;
      }
    });
    const offAttempts = wireButtons('button[data-post-attempts]', (b) => setAttemptsOf({ id: b.dataset.postAttempts!, trigger: b }));
    return () => {
      offExport();
      offRetry();
      offAttempts();
    };
  }, [status]);

  if (!attemptsOf) return null;
  return (
    <AttemptsDialog
      postId={attemptsOf.id}
      onClose={() => {
        setAttemptsOf(null);
        attemptsOf.trigger.focus();
      }}
    />
  );
}

function AttemptsDialog({ postId, onClose }: { postId: string; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [attempts, setAttempts] = useState<PostAttemptRecord[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    const d = dialog.current!;
    if (!d.open) d.showModal();
    hrJson<{ results: PostAttemptRecord[] }>(`/api/hr/application-posts/${postId}/attempts/`).then(
      (r) => setAttempts(r.results),
      (err) => setProblem(errorLines(err instanceof ApiError ? err.body : null).join(' ') || 'The attempts could not be loaded.'),
    );
    return () => {
      if (d.open) d.close();
    };
  }, [postId]);

  const close = () => {
    dialog.current?.close();
    onClose();
  };

  return (
    <dialog
      ref={dialog}
      className="modal attempts-dialog"
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
    >
      <h2 id={titleId}>Attempts of post {postId}</h2>
      {problem && (
        <div className="alert alert-error" role="alert">
          {problem}
        </div>
      )}
      {!attempts && !problem && <p aria-live="polite">Loading…</p>}
      {attempts && attempts.length === 0 && <p>No attempts yet.</p>}
      {attempts && attempts.length > 0 && (
        <div className="table-wrap">
          <table className="data">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Status</th>
                <th scope="col">Code</th>
                <th scope="col">Duration</th>
                <th scope="col">Error or answer</th>
              </tr>
            </thead>
            <tbody>
              {attempts.map((a) => (
                <tr key={a.id}>
                  <td>
                    <LocalTime iso={a.created_at} kind="seconds" />
                  </td>
                  <td>
                    <span className={`status status-post-${a.status.toLowerCase()}`}>{a.status}</span>
                  </td>
                  <td>{a.status_code ?? '—'}</td>
                  <td>{a.duration_ms} ms</td>
                  <td className="attempt-error">{a.error ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="modal-actions">
        {/* biome-ignore lint/a11y/noAutofocus: a dialog moves focus into itself when it opens (WAI-ARIA dialog pattern) */}
        <button type="button" className="btn btn-secondary" onClick={close} autoFocus>
          Close
        </button>
      </div>
    </dialog>
  );
}

mountIsland('hr-posts', HrPosts);
