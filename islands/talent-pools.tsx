/**
 * The talent pools page (/hr/pools; issue 35): the pools with their counts, "New pool", and a
 * pool's members (consent given, waiting or expired) with "Remove". Changes are announced; what
 * the API refuses is shown beside the name field or above the list.
 */
import { type FormEvent, useCallback, useEffect, useId, useState } from 'react';
import { mountIsland } from './components/mount.js';
import { Notice, type NoticeState } from './components/notice.js';
import { ApiError, hrJson } from './components/hr-api.js';
import { LocalTime } from './components/local-time.js';
import { errorLines, fieldErrors } from '../src/shared/api-errors.js';
import type { ConsentState, PoolMember, TalentPool } from '../src/pools/types.js';
import { POOL_LIMITS } from '../src/pools/schema.js';
import './pools.css';

const CONSENT_TEXTS: Record<ConsentState, string> = { given: 'Consent given', waiting: 'Waiting for consent', expired: 'Consent expired' };
const problemOf = (err: unknown) =>
  err instanceof ApiError ? errorLines(err.body).join(' ') || err.message : 'Something went wrong. Please try again.';

function TalentPools() {
  const [pools, setPools] = useState<TalentPool[] | null>(null);
  const [open, setOpen] = useState<TalentPool | null>(null);
  const [members, setMembers] = useState<PoolMember[] | null>(null);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const ids = useId();

  const load = useCallback(async () => {
    try {
      setPools((await hrJson<{ results: TalentPool[] }>('/api/hr/pools/')).results);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) setNotice({ kind: 'error', text: 'Talent pools could not be loaded.' });
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const show = async (pool: TalentPool) => {
    setOpen(pool);
    setMembers(null);
    try {
      setMembers((await hrJson<{ results: PoolMember[] }>(`/api/hr/pools/${pool.id}/members/`)).results);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) setNotice({ kind: 'error', text: problemOf(err) });
    }
  };

  const create = async (e: FormEvent) => {
    e.preventDefault();
    setNameError(null);
    try {
      const pool = await hrJson<TalentPool>('/api/hr/pools/', { method: 'POST', body: { name } });
      setName('');
      setNotice({ kind: 'success', text: `Pool “${pool.name}” created.` });
      await load();
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return;
      setNameError((err instanceof ApiError && fieldErrors(err.body).name) || problemOf(err));
    }
  };

  const remove = async (m: PoolMember) => {
    if (!open) return;
    try {
      await hrJson<null>(`/api/hr/pools/${open.id}/members/${m.person_id}/`, { method: 'DELETE' });
      setNotice({ kind: 'success', text: `${m.name} left the pool “${open.name}”.` });
      await Promise.all([show(open), load()]);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) setNotice({ kind: 'error', text: problemOf(err) });
    }
  };

  return (
    <div className="talent-pools">
      <Notice notice={notice} />
      <form className="card pool-form" onSubmit={create} noValidate>
        <label htmlFor={`${ids}-name`}>New pool</label>
        <div className="pool-form-row">
          <input
            id={`${ids}-name`}
            value={name}
            maxLength={POOL_LIMITS.name}
            onChange={(e) => setName(e.target.value)}
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? `${ids}-name-error` : undefined}
          />
          <button type="submit" className="btn btn-primary">
            Create pool
          </button>
        </div>
        {nameError && (
          <p id={`${ids}-name-error`} className="field-error">
            {nameError}
          </p>
        )}
      </form>
      <h2>Pools</h2>
      {pools === null && <p className="muted">Loading talent pools…</p>}
      {pools?.length === 0 && <p className="muted">No talent pools yet.</p>}
      {pools && pools.length > 0 && (
        <ul className="pool-list">
          {pools.map((p) => (
            <li key={p.id}>
              <button type="button" className="btn btn-link" aria-pressed={open?.id === p.id} onClick={() => void show(p)}>
                {p.name}
              </button>{' '}
              <span className="muted">
                · {p.members === 1 ? '1 person' : `${p.members} people`}, {p.consented} with consent
              </span>
            </li>
          ))}
        </ul>
      )}
      {open && (
        <section aria-labelledby={`${ids}-members`}>
          <h2 id={`${ids}-members`}>{open.name}</h2>
          {members === null && <p className="muted">Loading…</p>}
          {members?.length === 0 && <p className="muted">No one in this pool.</p>}
          {members && members.length > 0 && (
            <ul className="pool-members">
              {members.map((m) => (
                <li key={m.person_id} className="card">
                  <p>
                    <a href={`/hr/applicants/${m.application_id}`}>{m.name}</a> <span className="muted">· {m.email}</span>
                  </p>
                  <p className="muted">
                    {m.reason} · added <LocalTime iso={m.added_at} kind="date" /> ·{' '}
                    <strong className={`consent-${m.consent}`}>{CONSENT_TEXTS[m.consent]}</strong>
                    {m.consent === 'given' && m.consent_until && (
                      <>
                        {' '}
                        until <LocalTime iso={m.consent_until} kind="date" />
                      </>
                    )}
                  </p>
                  <button type="button" className="btn btn-secondary btn-sm" onClick={() => void remove(m)}>
                    Remove<span className="visually-hidden"> {m.name} from the pool</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </div>
  );
}

mountIsland('talent-pools', TalentPools);
