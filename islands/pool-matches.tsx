/**
 * The board's "From your talent pools" (issue 35; admins and recruiters): people kept in a pool,
 * with their consent, whose past applications share this job's department or title words, with
 * why (furthest stage, scorecard average, the pool's reason, when) and "Invite to apply".
 */
import { useCallback, useEffect, useId, useState } from 'react';
import { mountIsland } from './components/mount.js';
import { Notice, type NoticeState } from './components/notice.js';
import { ApiError, hrJson } from './components/hr-api.js';
import { LocalTime } from './components/local-time.js';
import { errorLines } from '../src/shared/api-errors.js';
import type { PoolMatch } from '../src/pools/types.js';
import './pools.css';

type Props = { jobId: number };

function PoolMatches({ jobId }: Props) {
  const [matches, setMatches] = useState<PoolMatch[] | null>(null);
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const ids = useId();

  const load = useCallback(async () => {
    try {
      setMatches((await hrJson<{ results: PoolMatch[] }>(`/api/hr/jobs/${jobId}/pool-matches/`)).results);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) setNotice({ kind: 'error', text: 'Talent pool matches could not be loaded.' });
    }
  }, [jobId]);
  useEffect(() => {
    void load();
  }, [load]);

  const invite = async (m: PoolMatch) => {
    try {
      await hrJson(`/api/hr/jobs/${jobId}/pool-matches/${m.person_id}/invite/`, { method: 'POST' });
      setNotice({ kind: 'success', text: `${m.name} is invited to apply: the email is on its way.` });
      await load();
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401))
        setNotice({ kind: 'error', text: err instanceof ApiError ? errorLines(err.body).join(' ') : 'The invitation could not be sent.' });
    }
  };

  if (matches !== null && matches.length === 0 && !notice) return null;
  return (
    <section className="card pool-matches" aria-labelledby={`${ids}-heading`}>
      <h2 id={`${ids}-heading`}>From your talent pools</h2>
      <Notice notice={notice} />
      {matches === null ? (
        <p className="muted">Loading…</p>
      ) : (
        <ul>
          {matches.map((m) => (
            <li key={m.person_id}>
              <p>
                <a href={`/hr/applicants/${m.application_id}`}>{m.name}</a> <span className="muted">· {m.why}</span>
              </p>
              <p className="muted">
                {m.furthest_stage ? `Got to ${m.furthest_stage}` : 'No stage reached'} ·{' '}
                {m.scorecard_average === null ? 'no scorecards' : `scorecards ${m.scorecard_average} of 4`} · {m.pool}: {m.reason},{' '}
                <LocalTime iso={m.added_at} kind="date" />
              </p>
              {m.invited_at ? (
                <p className="muted">
                  Invited <LocalTime iso={m.invited_at} kind="date" />
                </p>
              ) : (
                <button type="button" className="btn btn-secondary btn-sm" onClick={() => void invite(m)}>
                  Invite to apply<span className="visually-hidden">: {m.name}</span>
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

mountIsland('pool-matches', PoolMatches);
