/**
 * A job's board (/hr/jobs/{id}/board, issue 20): one column per stage and one for Rejected, with
 * counts and the newest cards. A card moves by drag and drop, or from the keyboard: focus it and
 * press ArrowRight / ArrowLeft (next / previous stage) or R (reject), or use its buttons. Every
 * move is announced in a live region and the focus follows the card. Rejecting asks for a reason
 * from the list HR keeps. Filters (search, status) and "Show more" read the board API; the
 * stages and the rejection reasons are edited below the board (PUT replaces each list). For admins
 * and recruiters each card also has "Add to pool" (issue 35), which opens the pool picker.
 */
import { useEffect, useMemo, useRef, useState, type DragEvent, type FormEvent, type KeyboardEvent } from 'react';
import { mountIsland } from './components/mount.js';
import { LocalTime } from './components/local-time.js';
import { ApiError, hrJson } from './components/hr-api.js';
import { errorLines } from '../src/shared/api-errors.js';
import { CAMPAIGN_MAX_LENGTH } from '../src/shared/campaign.js';
import { formatCount } from '../src/shared/format.js';
import { formatShortTime, formatTime } from '../src/shared/time-format.js';
import { PoolPicker } from './components/pool-picker.js';
import {
  RejectEmailOptions,
  emailOptionsProblem,
  emailResultText,
  initialEmailOptions,
  rejectWithEmail,
  sendAtOf,
  useEmailChoices,
  type EmailOptionsState,
} from './components/reject-email.js';
import {
  APPLICANT_LIMITS,
  type ApplicantDetail,
  type BoardCard,
  type BoardColumn,
  type RejectionReason,
  type Stage,
  type StageList,
} from '../src/applicants/types.js';
import type { Board, BoardProps } from '../src/pipeline/types.js';
import './job-board.css';

const STATUSES = ['NEW', 'REVIEWED', 'ARCHIVED'] as const;

const problem = (err: unknown): string[] => errorLines(err instanceof ApiError ? err.body : null);
const plural = (n: number) => `${formatCount(n)} ${n === 1 ? 'applicant' : 'applicants'}`;

type Reject = { card: BoardCard; from: string } | null;
type Notice = { kind: 'error' | 'success'; lines: string[] } | null;

/** The filters the server applies (the stage filter only picks the columns shown). */
const SERVER_FILTERS = ['q', 'status', 'date_from', 'date_to', 'source'] as const;

function boardUrl(jobId: number, filters: BoardProps['filters'], extra: Record<string, string> = {}): string {
  const p = new URLSearchParams();
  for (const k of SERVER_FILTERS) if (filters[k]) p.set(k, filters[k]);
  for (const [k, v] of Object.entries(extra)) p.set(k, v);
  const s = p.toString();
  return `/api/hr/jobs/${jobId}/board/${s ? `?${s}` : ''}`;
}

/** The board after `card` moved to the column `toKey` as `app` now is (counts, order, the status filter). */
function placed(
  columns: BoardColumn[],
  card: BoardCard,
  fromKey: string,
  toKey: string,
  app: ApplicantDetail,
  statusFilter: string,
): BoardColumn[] {
  const moved: BoardCard = { ...card, status: app.status, stage_id: app.stage_id, outcome_reason: app.outcome_reason };
  const stays = !statusFilter || statusFilter === app.status;
  return columns.map((c) => {
    if (c.key === fromKey && c.key === toKey) return { ...c, cards: c.cards.map((x) => (x.id === card.id ? moved : x)) };
    if (c.key === fromKey) return { ...c, count: c.count - 1, cards: c.cards.filter((x) => x.id !== card.id) };
    if (c.key === toKey && stays) {
      const last = c.cards[c.cards.length - 1];
      // Older than every loaded card of a column with more: it is counted, and shown by "Show more".
      const newer = (x: BoardCard) => x.created_at > moved.created_at || (x.created_at === moved.created_at && x.id > moved.id);
      const fits = !c.has_more || !last || !newer(last) || c.cards.length === 0;
      const cards = fits ? [...c.cards.filter(newer), moved, ...c.cards.filter((x) => !newer(x))] : c.cards;
      return { ...c, count: c.count + 1, cards };
    }
    return c;
  });
}

function JobBoard(props: BoardProps) {
  const [board, setBoard] = useState<Board>(props.board);
  const [stages, setStages] = useState<Stage[]>(props.stages);
  const [filters, setFilters] = useState(props.filters);
  const [draft, setDraft] = useState(props.filters);
  const [said, setSaid] = useState('');
  const [notice, setNotice] = useState<Notice>(null);
  const [reject, setReject] = useState<Reject>(null);
  const [reason, setReason] = useState('');
  // Issue 30: the Reject dialog can send the rejection email (now or later), as the list's bulk reject does.
  const { choices: emailChoices } = useEmailChoices();
  const [emailState, setEmailState] = useState<EmailOptionsState>(() => initialEmailOptions(null));
  // The email choices may arrive after the Reject dialog opened (R pressed at once): then they set
  // its defaults (the email on, the rejection template), as if they had been there.
  useEffect(() => {
    if (emailChoices && reject) setEmailState((st) => (st.templateId === null ? initialEmailOptions(emailChoices) : st));
  }, [emailChoices, reject]);
  const [dragOver, setDragOver] = useState<string | null>(null);
  // Issue 35: the card whose "Add to pool" is open (the picker is mounted only then).
  const [poolFor, setPoolFor] = useState<BoardCard | null>(null);
  const focusAfter = useRef<number | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const jobId = board.job.id;
  const removed = board.job.status === 'REMOVED';

  const columnOf = (card: BoardCard) => board.columns.find((c) => c.cards.some((x) => x.id === card.id))!;
  const stageColumns = board.columns.filter((c) => c.stage_id !== null);

  // After a move, the focus follows the card into its new column (keyboard users keep going).
  useEffect(() => {
    if (focusAfter.current === null) return;
    const el = document.querySelector<HTMLElement>(`[data-card="${focusAfter.current}"]`);
    focusAfter.current = null;
    el?.focus();
  });

  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (reject && !d.open) d.showModal();
    if (!reject && d.open) d.close();
  }, [reject]);

  // Only the latest read is shown: an earlier one answered late (filters changed meanwhile) is dropped.
  const latestRead = useRef(0);
  const reload = async (next = filters) => {
    const read = ++latestRead.current;
    try {
      const fresh = await hrJson<Board>(boardUrl(jobId, next));
      if (read !== latestRead.current) return;
      setBoard(fresh);
      setNotice(null);
    } catch (err) {
      if (read !== latestRead.current || (err instanceof ApiError && err.status === 401)) return;
      setNotice({ kind: 'error', lines: ['The board could not be loaded.', ...problem(err)] });
    }
  };

  const move = async (card: BoardCard, to: BoardColumn, rejectReason?: string) => {
    const from = columnOf(card);
    if (from.key === to.key) return;
    if (to.stage_id === null && rejectReason === undefined) {
      setReason(board.reasons[0] ?? '');
      setEmailState(initialEmailOptions(emailChoices));
      setReject({ card, from: from.key });
      return;
    }
    const body = to.stage_id === null ? { outcome: 'REJECTED', reason: rejectReason } : { stage: to.stage_id };
    try {
      const app = await hrJson<ApplicantDetail>(`/api/hr/applications/${card.id}/`, { method: 'PATCH', body });
      const columns = placed(board.columns, card, from.key, to.key, app, filters.status);
      setBoard({ ...board, columns });
      const target = columns.find((c) => c.key === to.key)!;
      const shown = target.cards.some((x) => x.id === card.id);
      focusAfter.current = shown ? card.id : null;
      setSaid(
        `${card.name} moved to ${to.name}${rejectReason ? ` (${rejectReason})` : ''}. ${to.name} has ${plural(target.count)}; ${from.name} has ${plural(from.count - 1)}.${shown ? '' : ' The card is outside the current filters or page.'}`,
      );
      setNotice(null);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return;
      setNotice({ kind: 'error', lines: [`${card.name} could not be moved.`, ...problem(err)] });
    }
  };

  /** The column a key or a button moves the card to: the next or previous stage; a rejected card goes back to its stage. */
  const neighbour = (card: BoardCard, step: 1 | -1): BoardColumn | null => {
    const from = columnOf(card);
    if (from.stage_id === null) return stageColumns.find((c) => c.stage_id === card.stage_id) ?? null;
    const i = stageColumns.findIndex((c) => c.key === from.key);
    return stageColumns[i + step] ?? null;
  };

  const onCardKey = (e: KeyboardEvent<HTMLElement>, card: BoardCard) => {
    if (e.target !== e.currentTarget || removed) return; // keys on the card itself, never inside its links or buttons
    const key = e.key;
    if (key === 'ArrowRight' || key === 'ArrowLeft') {
      const to = neighbour(card, key === 'ArrowRight' ? 1 : -1);
      if (to) {
        e.preventDefault();
        void move(card, to);
      }
    } else if (key === 'r' || key === 'R') {
      e.preventDefault();
      const rejected = board.columns.find((c) => c.stage_id === null)!;
      void move(card, rejected);
    }
  };

  const onDrop = (e: DragEvent<HTMLElement>, to: BoardColumn) => {
    e.preventDefault();
    setDragOver(null);
    const id = Number(e.dataTransfer.getData('text/plain'));
    const card = board.columns.flatMap((c) => c.cards).find((x) => x.id === id);
    if (card) void move(card, to);
  };

  const showMore = async (col: BoardColumn) => {
    try {
      const more = await hrJson<Board>(
        boardUrl(jobId, filters, { column: col.stage_id === null ? 'rejected' : String(col.stage_id), offset: String(col.cards.length) }),
      );
      const extra = more.columns[0];
      setBoard({
        ...board,
        columns: board.columns.map((c) =>
          c.key === col.key
            ? { ...c, cards: [...c.cards, ...extra.cards.filter((x) => !c.cards.some((y) => y.id === x.id))], has_more: extra.has_more }
            : c,
        ),
      });
      setSaid(`${extra.cards.length} more in ${col.name}.`);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return;
      setNotice({ kind: 'error', lines: ['More cards could not be loaded.', ...problem(err)] });
    }
  };

  const onFilter = (e: FormEvent) => {
    e.preventDefault();
    setFilters(draft);
    void reload(draft);
  };

  const confirmReject = async (e: FormEvent) => {
    e.preventDefault();
    if (!reject) return;
    const { card } = reject;
    if (emailState.send && emailOptionsProblem(emailState)) return;
    setReject(null);
    let emailed = '';
    if (emailState.send) {
      // The rejection and its email in one request; the move below then finds it done and places the card.
      try {
        emailed = emailResultText(await rejectWithEmail([card.id], reason, emailState));
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) return;
        setNotice({ kind: 'error', lines: [`${card.name} was not rejected and no email was sent.`, ...problem(err)] });
        return;
      }
    }
    await move(card, board.columns.find((c) => c.stage_id === null)!, reason);
    if (emailed) {
      setSaid((s) => `${s} ${emailed}`);
      // Seen as well as heard: a scheduled email is cancelled from the applicant's page.
      setNotice({ kind: 'success', lines: [`${card.name}: ${emailed}`] });
    }
  };

  const cancelReject = () => {
    if (reject) focusAfter.current = reject.card.id;
    setReject(null);
  };

  return (
    <>
      <div className="page-title">
        <h1>Board: {board.job.title}</h1>
        <nav className="page-actions" aria-label="Job links">
          <a className="btn btn-secondary" href={`/hr/applicants?job_id=${jobId}`}>
            Applicants list
          </a>
          <a className="btn btn-secondary" href={`/hr/jobs/${jobId}/insights`}>
            Insights
          </a>
        </nav>
      </div>
      {removed && <p className="alert alert-error">This job was removed: its applications cannot move.</p>}
      <form className="filter-bar board-filters" aria-label="Filter the board" onSubmit={onFilter}>
        <div className="field">
          <label htmlFor="b-q">Search</label>
          <input
            id="b-q"
            type="search"
            value={draft.q}
            maxLength={APPLICANT_LIMITS.search}
            placeholder="Name, email or phone"
            onChange={(e) => setDraft({ ...draft, q: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor="b-status">Status</label>
          <select id="b-status" value={draft.status} onChange={(e) => setDraft({ ...draft, status: e.target.value })}>
            <option value="">All statuses</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="b-stage">Stage</label>
          <select id="b-stage" value={draft.stage} onChange={(e) => setDraft({ ...draft, stage: e.target.value })}>
            <option value="">All stages</option>
            {board.columns.map((c) => (
              <option key={c.key} value={c.name}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="b-source">Source</label>
          <input
            id="b-source"
            type="search"
            list="b-source-options"
            autoComplete="off"
            maxLength={CAMPAIGN_MAX_LENGTH}
            value={draft.source}
            placeholder="e.g. linkedin or (direct)"
            onChange={(e) => setDraft({ ...draft, source: e.target.value })}
          />
          <datalist id="b-source-options">
            {(props.sources ?? []).map((src) => (
              <option key={src} value={src} />
            ))}
          </datalist>
        </div>
        <div className="field">
          <label htmlFor="b-date_from">Applied from</label>
          <input id="b-date_from" type="date" value={draft.date_from} onChange={(e) => setDraft({ ...draft, date_from: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor="b-date_to">Applied to</label>
          <input id="b-date_to" type="date" value={draft.date_to} onChange={(e) => setDraft({ ...draft, date_to: e.target.value })} />
        </div>
        <div className="filter-actions">
          <button className="btn btn-primary" type="submit">
            Filter
          </button>
        </div>
      </form>
      <p className="board-help" id="board-help">
        Drag a card to another column, or focus a card and press the right or left arrow key to move it to the next or previous stage, or R
        to reject.
      </p>
      <output className="board-live visually-hidden" aria-live="polite">
        {said}
      </output>
      {notice && (
        <div className={`alert ${notice.kind === 'error' ? 'alert-error' : 'alert-success'}`} role="alert">
          {notice.lines.map((l, i) => (
            <div key={i}>{l}</div>
          ))}
        </div>
      )}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways on a phone must be reachable by keyboard even when no card in view is (axe: scrollable-region-focusable) */}
      <section className="board" tabIndex={0} aria-label="Board columns">
        {board.columns
          .filter((col) => !filters.stage || col.name.toLocaleLowerCase('en') === filters.stage.toLocaleLowerCase('en'))
          .map((col) => (
            <section
              key={col.key}
              className={`board-column${col.stage_id === null ? ' is-rejected' : ''}${dragOver === col.key ? ' is-over' : ''}`}
              aria-labelledby={`col-${col.key}`}
              data-column={col.name}
              onDragOver={(e) => {
                e.preventDefault();
                setDragOver(col.key);
              }}
              onDragLeave={() => setDragOver((k) => (k === col.key ? null : k))}
              onDrop={(e) => onDrop(e, col)}
            >
              <h2 id={`col-${col.key}`} className="board-column-title">
                <span>{col.name}</span>{' '}
                <span className="board-count" data-count>
                  {formatCount(col.count)}
                </span>
                <span className="visually-hidden"> {col.count === 1 ? 'applicant' : 'applicants'}</span>
              </h2>
              <ul className="board-cards">
                {col.cards.map((card) => {
                  const next = neighbour(card, 1);
                  const prev = col.stage_id === null ? null : neighbour(card, -1);
                  return (
                    <li key={card.id}>
                      <article
                        className="board-card"
                        // biome-ignore lint/a11y/noNoninteractiveTabindex: the card itself takes the focus so its keys (arrows, R) move it; its help text is tied by aria-describedby
                        tabIndex={0}
                        draggable={!removed}
                        data-card={card.id}
                        aria-label={`${card.name}, ${col.name}`}
                        aria-describedby="board-help"
                        onDragStart={(e) => {
                          e.dataTransfer.setData('text/plain', String(card.id));
                          e.dataTransfer.effectAllowed = 'move';
                        }}
                        onKeyDown={(e) => onCardKey(e, card)}
                      >
                        <a className="board-card-name" href={`/hr/applicants/${card.id}?job_id=${jobId}`}>
                          {card.name}
                        </a>
                        <span className="board-card-meta">
                          Applied <LocalTime iso={card.created_at} kind="date" /> ·{' '}
                          <span className={`status status-${card.status.toLowerCase()}`}>{card.status}</span>
                        </span>
                        {card.next_interview_at && col.stage_id !== null && (
                          <span className="board-card-meta board-card-interview" data-next-interview>
                            Interview{' '}
                            <time dateTime={card.next_interview_at} title={formatTime(card.next_interview_at)}>
                              {formatShortTime(card.next_interview_at)}
                            </time>
                          </span>
                        )}
                        {card.outcome_reason && col.stage_id === null && (
                          <span className="board-card-meta">Reason: {card.outcome_reason}</span>
                        )}
                        {(!removed || props.pools) && (
                          <span className="board-card-actions">
                            {prev && !removed && (
                              // The name starts with the visible text (WCAG 2.5.3): "← Applied: move Asha Rao to Applied".
                              <button
                                type="button"
                                className="btn btn-secondary btn-sm"
                                onClick={() => void move(card, prev)}
                                aria-label={`← ${prev.name}: move ${card.name} to ${prev.name}`}
                              >
                                ← {prev.name}
                              </button>
                            )}
                            {next && !removed && (
                              <button
                                type="button"
                                className="btn btn-secondary btn-sm"
                                onClick={() => void move(card, next)}
                                aria-label={
                                  col.stage_id === null
                                    ? `Restore to ${next.name}: move ${card.name} back to ${next.name}`
                                    : `${next.name} →: move ${card.name} to ${next.name}`
                                }
                              >
                                {col.stage_id === null ? `Restore to ${next.name}` : `${next.name} →`}
                              </button>
                            )}
                            {col.stage_id !== null && !removed && (
                              <button
                                type="button"
                                className="btn btn-danger btn-sm"
                                onClick={() => void move(card, board.columns.find((c) => c.stage_id === null)!)}
                                aria-label={`Reject ${card.name}`}
                              >
                                Reject
                              </button>
                            )}
                            {props.pools && (
                              <button
                                type="button"
                                className="btn btn-secondary btn-sm"
                                data-add-to-pool
                                aria-haspopup="dialog"
                                onClick={() => setPoolFor(card)}
                                aria-label={`Add to pool: ${card.name}`}
                              >
                                Add to pool
                              </button>
                            )}
                          </span>
                        )}
                      </article>
                    </li>
                  );
                })}
              </ul>
              {col.cards.length === 0 && <p className="board-empty">No applicants</p>}
              {col.has_more && (
                <button type="button" className="btn btn-secondary btn-sm board-more" onClick={() => void showMore(col)}>
                  Show more<span className="visually-hidden"> in {col.name}</span>
                </button>
              )}
            </section>
          ))}
      </section>
      <dialog ref={dialog} className="board-dialog" aria-labelledby="reject-title" onCancel={cancelReject}>
        {reject && (
          <form onSubmit={(e) => void confirmReject(e)}>
            <h2 id="reject-title">Reject {reject.card.name}</h2>
            <div className="field">
              <label htmlFor="reject-reason">Reason</label>
              <select id="reject-reason" value={reason} onChange={(e) => setReason(e.target.value)}>
                {board.reasons.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
            </div>
            {emailChoices && (
              <RejectEmailOptions ids={[reject.card.id]} choices={emailChoices} state={emailState} onChange={setEmailState} />
            )}
            <div className="dialog-actions">
              <button type="submit" className="btn btn-danger" aria-disabled={emailState.send && !!emailOptionsProblem(emailState)}>
                {emailState.send ? (sendAtOf(emailState.when).sendAt ? 'Reject and schedule email' : 'Reject and send email') : 'Reject'}
              </button>
              <button type="button" className="btn btn-secondary" onClick={cancelReject}>
                Cancel
              </button>
            </div>
          </form>
        )}
      </dialog>
      {poolFor && (
        <PoolPicker
          ids={[poolFor.id]}
          who={poolFor.name}
          onDone={(text) => setNotice({ kind: 'success', lines: [text] })}
          onClose={() => {
            const id = poolFor.id;
            setPoolFor(null);
            document.querySelector<HTMLElement>(`[data-card="${id}"] [data-add-to-pool]`)?.focus();
          }}
        />
      )}
      {!removed && (
        <StageEditor
          jobId={jobId}
          stages={stages}
          onSaved={(list) => {
            setStages(list.stages);
            void reload();
          }}
        />
      )}
      <ReasonEditor onSaved={(reasons) => setBoard((b) => ({ ...b, reasons: reasons.map((r) => r.name) }))} />
    </>
  );
}

interface Row {
  key: string;
  id?: number;
  name: string;
  note?: string;
}

/** An ordered list of names to rename, add, move and remove, saved as a whole. */
function ListEditor(props: {
  title: string;
  noun: string;
  maxLength: number;
  rows: Row[];
  onSave: (rows: Row[]) => Promise<string[] | null>;
}) {
  const [rows, setRows] = useState<Row[]>(props.rows);
  const [lines, setLines] = useState<{ kind: 'error' | 'success'; lines: string[] } | null>(null);
  const [busy, setBusy] = useState(false);
  const seq = useRef(0);
  useEffect(() => setRows(props.rows), [props.rows]);
  const swap = (i: number, j: number) => {
    const next = [...rows];
    [next[i], next[j]] = [next[j], next[i]];
    setRows(next);
  };
  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    const errors = await props.onSave(rows);
    setLines(errors ? { kind: 'error', lines: errors } : { kind: 'success', lines: [`${props.title} saved.`] });
    setBusy(false);
  };
  return (
    <details className="list-editor">
      <summary>{props.title}</summary>
      <form onSubmit={save}>
        <ol>
          {rows.map((r, i) => (
            <li key={r.key}>
              <label className="visually-hidden" htmlFor={`${props.noun}-${r.key}`}>
                {props.noun} {i + 1}
              </label>
              <input
                id={`${props.noun}-${r.key}`}
                value={r.name}
                maxLength={props.maxLength}
                onChange={(e) => setRows(rows.map((x) => (x.key === r.key ? { ...x, name: e.target.value } : x)))}
              />
              {r.note && <span className="list-note">{r.note}</span>}
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                onClick={() => swap(i, i - 1)}
                disabled={i === 0}
                aria-label={`Move ${r.name || props.noun} up`}
              >
                Up
              </button>
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                onClick={() => swap(i, i + 1)}
                disabled={i === rows.length - 1}
                aria-label={`Move ${r.name || props.noun} down`}
              >
                Down
              </button>
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                onClick={() => setRows(rows.filter((x) => x.key !== r.key))}
                aria-label={`Remove ${r.name || props.noun}`}
              >
                Remove
              </button>
            </li>
          ))}
        </ol>
        <div className="dialog-actions">
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => {
              seq.current += 1;
              setRows([...rows, { key: `new-${seq.current}`, name: '' }]);
            }}
          >
            Add {props.noun.toLowerCase()}
          </button>
          <button type="submit" className="btn btn-primary" aria-busy={busy}>
            Save {props.title.toLowerCase()}
          </button>
        </div>
        <div role="status" aria-live="polite">
          {lines && (
            <div className={`alert ${lines.kind === 'error' ? 'alert-error' : 'alert-success'}`}>
              {lines.lines.map((l, i) => (
                <div key={i}>{l}</div>
              ))}
            </div>
          )}
        </div>
      </form>
    </details>
  );
}

const failure = (err: unknown) => (err instanceof ApiError && err.status === 401 ? [] : ['Not saved.', ...problem(err)]);

function StageEditor(props: { jobId: number; stages: Stage[]; onSaved: (list: StageList) => void }) {
  const rows = useMemo(
    () => props.stages.map((s) => ({ key: `s-${s.id}`, id: s.id, name: s.name, note: plural(s.applicants) })),
    [props.stages],
  );
  return (
    <ListEditor
      title="Stages"
      noun="Stage"
      maxLength={APPLICANT_LIMITS.stageName}
      rows={rows}
      onSave={async (list) => {
        try {
          props.onSaved(
            await hrJson<StageList>(`/api/hr/jobs/${props.jobId}/stages/`, {
              method: 'PUT',
              body: { stages: list.map((r) => ({ id: r.id, name: r.name })) },
            }),
          );
          return null;
        } catch (err) {
          return failure(err);
        }
      }}
    />
  );
}

function ReasonEditor(props: { onSaved: (reasons: RejectionReason[]) => void }) {
  const [rows, setRows] = useState<Row[] | null>(null);
  useEffect(() => {
    hrJson<{ reasons: RejectionReason[] }>('/api/hr/rejection-reasons/')
      .then((r) => setRows(r.reasons.map((x) => ({ key: `r-${x.id}`, id: x.id, name: x.name }))))
      .catch(() => setRows([]));
  }, []);
  if (!rows) return null;
  return (
    <ListEditor
      title="Rejection reasons"
      noun="Reason"
      maxLength={APPLICANT_LIMITS.reasonName}
      rows={rows}
      onSave={async (list) => {
        try {
          const saved = await hrJson<{ reasons: RejectionReason[] }>('/api/hr/rejection-reasons/', {
            method: 'PUT',
            body: { reasons: list.map((r) => ({ id: r.id, name: r.name })) },
          });
          setRows(saved.reasons.map((x) => ({ key: `r-${x.id}`, id: x.id, name: x.name })));
          props.onSaved(saved.reasons);
          return null;
        } catch (err) {
          return failure(err);
        }
      }}
    />
  );
}

mountIsland('job-board', JobBoard, { yielding: true });
