/**
 * Candidates' erasure requests (/hr/applicants/erasure-requests; issue 35): each request with the
 * person's name, address and applications, and **Erase now** (asked first); what was erased is
 * announced, what the API refuses shown above the list.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { mountIsland } from './components/mount.js';
import { Notice, type NoticeState } from './components/notice.js';
import { ApiError, hrJson } from './components/hr-api.js';
import { LocalTime } from './components/local-time.js';
import { errorLines } from '../src/shared/api-errors.js';
import type { ErasureRequest } from '../src/candidates/types.js';

const problemOf = (err: unknown) =>
  err instanceof ApiError ? errorLines(err.body).join(' ') || err.message : 'Something went wrong. Please try again.';
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function ErasureRequests() {
  const [list, setList] = useState<ErasureRequest[] | null>(null);
  const [loadError, setLoadError] = useState(false);
  const [confirming, setConfirming] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const load = useCallback(async () => {
    try {
      setList((await hrJson<{ results: ErasureRequest[] }>('/api/hr/erasure-requests/')).results);
      setLoadError(false);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) setLoadError(true);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  useLayoutEffect(() => {
    if (confirming !== null) confirmRef.current?.focus();
  }, [confirming]);

  const erase = async (r: ErasureRequest) => {
    if (busy) return;
    setBusy(true);
    try {
      const done = await hrJson<{ applications: number; entries: number; alerts: number }>(`/api/hr/erasure-requests/${r.id}/confirm/`, {
        method: 'POST',
      });
      setNotice({
        kind: 'success',
        text: `Erased ${r.name || r.email}: ${plural(done.applications, 'application')}, ${done.entries === 1 ? '1 form entry' : `${done.entries} form entries`} and ${plural(done.alerts, 'job alert')}.`,
      });
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) setNotice({ kind: 'error', text: problemOf(err) });
    }
    setConfirming(null);
    setBusy(false);
    await load();
    headingRef.current?.focus();
  };

  return (
    <div className="erasure-requests">
      <Notice notice={notice} />
      {loadError && (
        <div className="alert alert-error" role="alert">
          Erasure requests could not be loaded.{' '}
          <button type="button" className="btn btn-link" onClick={() => void load()}>
            Try again
          </button>
        </div>
      )}
      <h2 ref={headingRef} tabIndex={-1}>
        Open requests{list ? ` (${list.length})` : ''}
      </h2>
      {list === null && !loadError && <p className="muted">Loading erasure requests…</p>}
      {list?.length === 0 && <p className="muted">No erasure requests.</p>}
      {list && list.length > 0 && (
        <ul className="erasure-list">
          {list.map((r) => (
            <li key={r.id} className="card erasure-request">
              <p>
                <strong>{r.name || r.email}</strong>{' '}
                <span className="muted">
                  · {r.email} · {plural(r.applications, 'application')} · asked{' '}
                </span>
                <LocalTime iso={r.requested_at} />
              </p>
              {confirming === r.id ? (
                <div>
                  <p>Erase {r.name || r.email} now? Every application, file and form entry of theirs goes, and this cannot be undone.</p>
                  <button
                    ref={confirmRef}
                    type="button"
                    className="btn btn-danger btn-sm"
                    onClick={() => void erase(r)}
                    aria-busy={busy || undefined}
                  >
                    Erase {r.name || r.email}
                  </button>{' '}
                  <button type="button" className="btn btn-secondary btn-sm" onClick={() => setConfirming(null)}>
                    Cancel
                  </button>
                </div>
              ) : (
                <button type="button" className="btn btn-danger btn-sm" onClick={() => setConfirming(r.id)}>
                  Erase now<span className="visually-hidden">: {r.name || r.email}</span>
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

mountIsland('erasure-requests', ErasureRequests);
