/**
 * The review list of possible duplicates (/hr/applicants/duplicates; issue 35): each suggested pair
 * side by side with their applications, "Merge" (the newer person into the older one, asked first),
 * "Not the same person", and the recent merges with "Undo" while they may be undone. Every change
 * is announced; what the API refuses is shown above the list.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { mountIsland } from './components/mount.js';
import { Notice, type NoticeState } from './components/notice.js';
import { ApiError, hrJson } from './components/hr-api.js';
import { LocalTime } from './components/local-time.js';
import { errorLines } from '../src/shared/api-errors.js';
import {
  DUPLICATES_PAGE,
  SUGGESTION_REASON_TEXTS,
  type DuplicateList,
  type DuplicateSuggestion,
  type PersonMerge,
  type PersonSummary,
} from '../src/people/types.js';
import './duplicates.css';

type Props = { undoDays: number };

const problemOf = (err: unknown) =>
  err instanceof ApiError ? errorLines(err.body).join(' ') || err.message : 'Something went wrong. Please try again.';

function outcomeText(a: PersonSummary['applications'][number]): string {
  if (a.outcome) return `${a.outcome === 'WITHDREW' ? 'Withdrew' : 'Rejected'}${a.outcome_reason ? ` (${a.outcome_reason})` : ''}`;
  return a.stage ?? a.status;
}

function Person({ person, label }: { person: PersonSummary; label: string }) {
  return (
    <div className="duplicate-person">
      <h3>
        <span className="visually-hidden">{label}: </span>
        {person.name}
      </h3>
      <p className="muted duplicate-contact">
        {person.email} · {person.phone}
      </p>
      <ul>
        {person.applications.map((a) => (
          <li key={a.id}>
            <a href={`/hr/applicants/${a.id}`}>{a.job_title}</a> <span className="muted">· {outcomeText(a)} · </span>
            <LocalTime iso={a.created_at} kind="date" />
          </li>
        ))}
      </ul>
    </div>
  );
}

function Duplicates({ undoDays }: Props) {
  const [list, setList] = useState<DuplicateList | null>(null);
  const [merges, setMerges] = useState<PersonMerge[]>([]);
  const [page, setPage] = useState(1);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const [confirming, setConfirming] = useState<DuplicateSuggestion | null>(null);
  const [loadError, setLoadError] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const focusHeading = useRef(false);

  const load = useCallback(async (n: number) => {
    try {
      const [found, recent] = await Promise.all([
        hrJson<DuplicateList>(`/api/hr/people/duplicates/?page=${n}`),
        hrJson<{ results: PersonMerge[] }>('/api/hr/people/merges/'),
      ]);
      setList(found);
      setMerges(recent.results);
      setLoadError(false);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) setLoadError(true);
    }
  }, []);

  useEffect(() => {
    void load(page);
  }, [load, page]);
  // Focus moves before the paint (see applicant-notes.tsx): into the question, or back to the list's heading.
  useLayoutEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);
  useLayoutEffect(() => {
    if (!focusHeading.current) return;
    focusHeading.current = false;
    headingRef.current?.focus();
  });

  const act = async (work: () => Promise<string>) => {
    if (busy) return;
    setBusy(true);
    try {
      const text = await work();
      setNotice({ kind: 'success', text });
      await load(page);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) setNotice({ kind: 'error', text: problemOf(err) });
      await load(page);
    }
    setConfirming(null);
    focusHeading.current = true;
    setBusy(false);
  };

  const merge = (s: DuplicateSuggestion) =>
    act(async () => {
      const m = await hrJson<PersonMerge>('/api/hr/people/merges/', {
        method: 'POST',
        body: { person_id: s.person.id, into_person_id: s.other.id },
      });
      return `Merged: ${m.from_label} and ${m.into_label} are one person now.`;
    });
  const dismiss = (s: DuplicateSuggestion) =>
    act(async () => {
      await hrJson<null>('/api/hr/people/duplicates/dismiss/', {
        method: 'POST',
        body: { person_id: s.person.id, other_person_id: s.other.id },
      });
      return `${s.person.name} and ${s.other.name} are kept as two people.`;
    });
  const undo = (m: PersonMerge) =>
    act(async () => {
      await hrJson<PersonMerge>(`/api/hr/people/merges/${m.id}/undo/`, { method: 'POST' });
      return `Merge undone: ${m.from_label} and ${m.into_label} are two people again.`;
    });

  const pages = list ? Math.max(1, Math.ceil(list.count / DUPLICATES_PAGE)) : 1;
  return (
    <div className="duplicates">
      <Notice notice={notice} className="duplicates-status" />
      {loadError && (
        <div className="alert alert-error" role="alert">
          Possible duplicates could not be loaded.{' '}
          <button type="button" className="btn btn-link" onClick={() => void load(page)}>
            Try again
          </button>
        </div>
      )}
      <section aria-labelledby="duplicates-heading">
        <h2 id="duplicates-heading" ref={headingRef} tabIndex={-1}>
          To review{list ? ` (${list.count})` : ''}
        </h2>
        {list === null && !loadError && <p className="muted">Loading possible duplicates…</p>}
        {list !== null && list.results.length === 0 && <p className="muted">No possible duplicates to review.</p>}
        {list !== null && list.results.length > 0 && (
          <ul className="duplicate-list">
            {list.results.map((s) => (
              <li key={`${s.person.id}-${s.other.id}`} className="card duplicate">
                <p className="duplicate-reason">
                  <strong>{SUGGESTION_REASON_TEXTS[s.reason]}</strong> <span className="muted">· suggested </span>
                  <LocalTime iso={s.created_at} kind="date" />
                </p>
                <div className="duplicate-pair">
                  <Person person={s.person} label="Newer" />
                  <Person person={s.other} label="Older" />
                </div>
                {confirming === s ? (
                  <div className="duplicate-confirm">
                    <p>
                      Merge {s.person.name} ({s.person.email}) into {s.other.name} ({s.other.email})? Their{' '}
                      {s.person.applications.length === 1 ? 'application moves' : `${s.person.applications.length} applications move`} to{' '}
                      {s.other.name}. You can undo this for {undoDays} days.
                    </p>
                    <button
                      ref={confirmRef}
                      type="button"
                      className="btn btn-primary btn-sm"
                      onClick={() => void merge(s)}
                      aria-busy={busy || undefined}
                    >
                      Merge these people
                    </button>{' '}
                    <button type="button" className="btn btn-secondary btn-sm" onClick={() => setConfirming(null)}>
                      Cancel
                    </button>
                  </div>
                ) : (
                  <div className="duplicate-actions">
                    <button type="button" className="btn btn-primary btn-sm" onClick={() => setConfirming(s)}>
                      Merge…
                      <span className="visually-hidden">
                        {' '}
                        {s.person.name} into {s.other.name}
                      </span>
                    </button>{' '}
                    <button type="button" className="btn btn-secondary btn-sm" onClick={() => void dismiss(s)}>
                      Not the same person
                      <span className="visually-hidden">
                        : {s.person.name} and {s.other.name}
                      </span>
                    </button>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
        {pages > 1 && (
          <nav className="pager" aria-label="Pages of possible duplicates">
            <button type="button" className="btn btn-secondary btn-sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              Previous
            </button>{' '}
            <span>
              Page {page} of {pages}
            </span>{' '}
            <button type="button" className="btn btn-secondary btn-sm" disabled={page >= pages} onClick={() => setPage(page + 1)}>
              Next
            </button>
          </nav>
        )}
      </section>
      <section aria-labelledby="merges-heading">
        <h2 id="merges-heading">Recent merges</h2>
        {merges.length === 0 ? (
          <p className="muted">No merges in the last {undoDays} days.</p>
        ) : (
          <ul className="merge-list">
            {merges.map((m) => (
              <li key={m.id} className="card merge">
                <p>
                  {m.from_label} → {m.into_label}{' '}
                  <span className="muted">
                    · {m.applications_moved === 1 ? '1 application' : `${m.applications_moved} applications`} · merged
                    {m.merged_by ? ` by ${m.merged_by}` : ''}{' '}
                  </span>
                  <LocalTime iso={m.created_at} />
                </p>
                {m.undone_at ? (
                  <p className="muted">
                    Undone <LocalTime iso={m.undone_at} />
                  </p>
                ) : m.undo_until ? (
                  <button type="button" className="btn btn-secondary btn-sm" onClick={() => void undo(m)}>
                    Undo merge<span className="visually-hidden"> of {m.from_label}</span>
                  </button>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

mountIsland('duplicates', Duplicates);
