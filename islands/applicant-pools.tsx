/**
 * The applicant page's "Talent pools" (issue 35; admins and recruiters): the pools this person is
 * in, whether they agreed to be kept (asked by email when added), and "Add to pool".
 */
import { type FormEvent, useCallback, useEffect, useId, useState } from 'react';
import { mountIsland } from './components/mount.js';
import { Notice, type NoticeState } from './components/notice.js';
import { ApiError, hrJson } from './components/hr-api.js';
import { LocalTime } from './components/local-time.js';
import { errorLines } from '../src/shared/api-errors.js';
import type { ConsentState, TalentPool } from '../src/pools/types.js';
import './pools.css';

type Props = { id: number };
type Membership = {
  pools: { id: number; name: string; reason: string; added_at: string }[];
  consent: ConsentState;
  consent_until: string | null;
};

const CONSENT: Record<ConsentState, string> = {
  given: 'They agreed to be kept for other jobs',
  waiting: 'They have not agreed to be kept for other jobs yet: they are asked by email when added to a pool',
  expired: 'Their consent to be kept has run out',
};

function ApplicantPools({ id }: Props) {
  const [state, setState] = useState<Membership | null>(null);
  const [pools, setPools] = useState<TalentPool[]>([]);
  const [choice, setChoice] = useState('');
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const ids = useId();

  const load = useCallback(async () => {
    try {
      const [mine, all] = await Promise.all([
        hrJson<Membership>(`/api/hr/applications/${id}/pools/`),
        hrJson<{ results: TalentPool[] }>('/api/hr/pools/'),
      ]);
      setState(mine);
      setPools(all.results);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) setNotice({ kind: 'error', text: 'Talent pools could not be loaded.' });
    }
  }, [id]);
  useEffect(() => {
    void load();
  }, [load]);

  const add = async (e: FormEvent) => {
    e.preventDefault();
    const pool = pools.find((p) => String(p.id) === choice);
    if (!pool) return setNotice({ kind: 'error', text: 'Choose a pool.' });
    try {
      const { added } = await hrJson<{ added: number }>(`/api/hr/pools/${pool.id}/members/`, {
        method: 'POST',
        body: { application_ids: [id] },
      });
      setNotice({ kind: 'success', text: added ? `Added to the pool “${pool.name}”.` : `Already in the pool “${pool.name}”.` });
      await load();
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401))
        setNotice({ kind: 'error', text: err instanceof ApiError ? errorLines(err.body).join(' ') : 'The person could not be added.' });
    }
  };

  const open = pools.filter((p) => !state?.pools.some((m) => m.id === p.id));
  return (
    <section className="card applicant-pools" aria-labelledby={`${ids}-heading`}>
      <h2 id={`${ids}-heading`}>Talent pools</h2>
      <Notice notice={notice} />
      {state && (
        <>
          {state.pools.length ? (
            <ul>
              {state.pools.map((p) => (
                <li key={p.id}>
                  {p.name} <span className="muted">· {p.reason} · </span>
                  <LocalTime iso={p.added_at} kind="date" />
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">Not in a talent pool.</p>
          )}
          <p className="muted">
            {CONSENT[state.consent]}
            {state.consent === 'given' && state.consent_until && (
              <>
                {' '}
                (until <LocalTime iso={state.consent_until} kind="date" />)
              </>
            )}
            .
          </p>
        </>
      )}
      {open.length > 0 ? (
        <form className="pool-add" onSubmit={add}>
          <div className="field">
            <label htmlFor={`${ids}-pool`}>Pool</label>
            <select id={`${ids}-pool`} value={choice} onChange={(e) => setChoice(e.target.value)}>
              <option value="">Choose a pool</option>
              {open.map((p) => (
                <option key={p.id} value={String(p.id)}>
                  {p.name}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="btn btn-secondary btn-sm">
            Add to pool
          </button>
        </form>
      ) : (
        state && (
          <p className="muted">
            <a href="/hr/pools">Create a pool</a> to keep this person in mind.
          </p>
        )
      )}
    </section>
  );
}

mountIsland('applicant-pools', ApplicantPools);
