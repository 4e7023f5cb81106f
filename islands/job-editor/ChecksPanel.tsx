/**
 * "Before publishing" (issue 34): the job's checklist as saved (GET /api/hr/jobs/{id}/checks/),
 * each check with Pass, Warning or Blocks and its reason in plain words, an admin's override with
 * its note, and with JOB_APPROVAL=on the job's approval: its state and, for its hiring manager or
 * an admin, Approve and Reject with a comment. Read again after every save (`version`).
 */
import { useEffect, useId, useState } from 'react';
import { ApiError, hrJson } from '../components/hr-api.js';
import { LocalTime } from '../components/local-time.js';
import { errorLines } from '../../src/shared/api-errors.js';
import { PUBLISHING_LIMITS, PUBLISHING_MESSAGES } from '../../src/publishing/schema.js';
import type { JobCheck, JobChecks } from '../../src/publishing/types.js';

const STATUS_TEXT: Record<JobCheck['status'], string> = { pass: 'Pass', warn: 'Warning', block: 'Blocks' };

const STATE_TEXT = { PENDING: 'Waiting for approval', APPROVED: 'Approved', REJECTED: 'Rejected' } as const;

function Approval({ data, onDecided }: { data: JobChecks; onDecided: (next: JobChecks) => void }) {
  const id = useId();
  const [comment, setComment] = useState('');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string[] | null>(null);
  const a = data.approval;
  if (!a) return <p className="help-text">Approval is on: a recruiter's new or changed job waits for its hiring manager or an admin.</p>;

  const decide = async (approve: boolean) => {
    if (busy) return;
    setBusy(true);
    setProblem(null);
    try {
      const body = { comment, ...(note.trim() ? { override_checks: { note } } : {}) };
      const next = await hrJson<JobChecks>(`/api/hr/jobs/${data.job_id}/${approve ? 'approve' : 'reject'}/`, { method: 'POST', body });
      setComment('');
      setNote('');
      onDecided(next);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return;
      setProblem(err instanceof ApiError ? errorLines(err.body) : ['The server could not be reached. Please try again.']);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="approval">
      <h3 className="approval-title">
        Approval: <span className={`status status-approval-${a.state.toLowerCase()}`}>{STATE_TEXT[a.state]}</span>
      </h3>
      <p className="approval-line">
        Asked by {a.requested_by ?? 'a former user'} on <LocalTime iso={a.requested_at} />
        {a.requested_status === 'ACTIVE' ? ', to publish the job.' : '.'}
        {a.state === 'PENDING' && a.requested_status === 'ACTIVE' ? ' It stays inactive until approved.' : ''}
      </p>
      {a.decided_at && (
        <p className="approval-line">
          {a.state === 'APPROVED' ? 'Approved' : 'Rejected'} by {a.decided_by ?? 'a former user'} on <LocalTime iso={a.decided_at} />
          {a.comment ? ':' : '.'}
        </p>
      )}
      {a.comment && <blockquote className="approval-comment">{a.comment}</blockquote>}
      {data.can_decide && (
        <fieldset className="approval-decide">
          <legend className="approval-legend">Your decision</legend>
          {problem && (
            <div className="alert alert-error" role="alert">
              <p className="alert-title">Not done.</p>
              <ul className="error-lines">
                {problem.map((l) => (
                  <li key={l}>{l}</li>
                ))}
              </ul>
            </div>
          )}
          <div className="field">
            <label htmlFor={`${id}-comment`}>Comment (required to reject)</label>
            <textarea
              id={`${id}-comment`}
              rows={3}
              maxLength={PUBLISHING_LIMITS.comment}
              value={comment}
              onChange={(e) => setComment(e.target.value)}
            />
          </div>
          {data.can_override && data.blocked && (
            <div className="field">
              <label htmlFor={`${id}-note`}>Override note (admins: to approve despite the blocks)</label>
              <textarea
                id={`${id}-note`}
                rows={2}
                maxLength={PUBLISHING_LIMITS.overrideNote}
                value={note}
                onChange={(e) => setNote(e.target.value)}
              />
            </div>
          )}
          <div className="approval-actions">
            <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void decide(true)}>
              Approve
            </button>
            <button type="button" className="btn btn-secondary" disabled={busy} onClick={() => void decide(false)}>
              Reject
            </button>
          </div>
        </fieldset>
      )}
    </div>
  );
}

export function ChecksPanel({ jobId, version, onDecided }: { jobId: number | null; version: number; onDecided: () => void }) {
  const [data, setData] = useState<JobChecks | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` changes after each save, when the checklist is read again
  useEffect(() => {
    if (jobId === null) return;
    let live = true;
    hrJson<JobChecks>(`/api/hr/jobs/${jobId}/checks/`)
      .then((d) => {
        if (!live) return;
        setData(d);
        setProblem(null);
      })
      .catch((err) => {
        if (live && !(err instanceof ApiError && err.status === 401))
          setProblem('The checklist could not be loaded. Reload the page to try again.');
      });
    return () => {
      live = false;
    };
  }, [jobId, version]);

  return (
    <section className="card checks-panel" aria-labelledby="checks-title">
      <h2 id="checks-title">Before publishing</h2>
      {jobId === null ? (
        <p className="help-text">
          Saving checks the job against the pay rule of its location and its questions; once saved, its whole checklist is shown here.
        </p>
      ) : problem ? (
        <p className="field-error">{problem}</p>
      ) : !data ? (
        <p className="help-text" role="status">
          Checking…
        </p>
      ) : (
        <>
          <p className={`checks-summary ${data.blocked ? 'is-blocked' : ''}`} role="status">
            {data.blocked
              ? `This job cannot be active yet: fix what is marked “Blocks”${data.can_override ? ', or save it as Active with an override note' : ', or ask an admin to override it'}.`
              : data.checks.some((c) => c.status === 'block')
                ? 'Blocks overridden by an admin: this job may be active.'
                : 'Nothing blocks this job from being active.'}
          </p>
          <ul className="check-list">
            {data.checks.map((c) => (
              <li key={c.key} data-check={c.key} className={`check-item check-${c.status}${c.overridden ? ' is-overridden' : ''}`}>
                <span className="check-badge">{c.overridden ? 'Overridden' : STATUS_TEXT[c.status]}</span>
                <div className="check-text">
                  <strong className="check-label">{c.label}</strong>
                  <p className="check-reason">{c.reason}</p>
                </div>
              </li>
            ))}
          </ul>
          {data.override && (
            <div className="check-override">
              <p className="approval-line">
                Last override by {data.override.by ?? 'the command line'} on <LocalTime iso={data.override.at} />:
              </p>
              <blockquote className="approval-comment">{data.override.note}</blockquote>
            </div>
          )}
          {data.approval_on && (
            <Approval
              data={data}
              onDecided={(next) => {
                setData(next);
                onDecided();
              }}
            />
          )}
        </>
      )}
    </section>
  );
}

/** Whether a failed save's body is the refusal of blocking checks (so an admin may retry with an override). */
export function refusedByChecks(body: unknown): boolean {
  const status = (body as { status?: unknown } | null)?.status;
  return Array.isArray(status) && status.includes(PUBLISHING_MESSAGES.activationRefused);
}
