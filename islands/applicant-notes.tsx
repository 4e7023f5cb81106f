/**
 * Notes and history of one application (/hr/applicants/{id}, views/partials/applicant-notes.ejs):
 * - Notes: add one; edit or delete one's own (the API answers 403 for anyone else's, and the
 *   buttons show only on one's own). Notes are plain text: React writes them as text, never HTML.
 * - History: the application's timeline, newest first: its newest 50 entries, then 50 more with
 *   each "Show older" (the API's `next` link; focus goes to the first entry loaded, and a status
 *   line says how many came). Its first page is read again after every note change and whenever
 *   another part of the page says the application changed (the `applicant:changed` event, e.g. a
 *   status saved); the older entries already shown stay below it.
 * Times are shown in the viewer's time zone, with the zone named.
 */
import { type FormEvent, type KeyboardEvent, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { mountIsland } from './components/mount.js';
import { useDraft } from './components/drafts.js';
import { DraftNote } from './components/draft-note.js';
import { LocalTime } from './components/local-time.js';
import { viewerTimeZone } from '../src/shared/time-format.js';
import { ApiError, hrJson } from './components/hr-api.js';
import { errorLines, fieldErrors } from '../src/shared/api-errors.js';
import { NOTE_TEXT_MAX, noteTextError, shapeNoteText } from '../src/shared/note-rules.js';
import type { ApplicationNote } from '../src/notes/types.js';
import type { ApplicationTimeline, TimelineEmail, TimelineEntry } from '../src/timeline/types.js';
import './applicant-notes.css';

type Props = { id: number };
type Notice = { kind: 'error' | 'success'; text: string } | null;
/** The history shown: its entries so far, newest first, and the link to the older ones (null: all shown). */
type History = { entries: TimelineEntry[]; next: string | null };

/** Notes read per page; older ones come with 'Show older notes'. */
const NOTES_PAGE = 50;
/** The event other islands of the page dispatch on `document` after changing the application. */
const CHANGED_EVENT = 'applicant:changed';

const zoneName = viewerTimeZone() ?? 'your local time';

/** The text's problem, as the server would say it (the same rules), or null. */
const textProblem = (text: string) => noteTextError(shapeNoteText(text));

function problemOf(err: unknown): string {
  if (err instanceof ApiError) {
    const fields = fieldErrors(err.body);
    return fields.text ?? errorLines(err.body)[0] ?? `The server answered ${err.status}.`;
  }
  return 'The server could not be reached. Please try again.';
}

/** The path and query of an API link (its origin is the site's public address, which may not be this page's). */
function pathOf(link: string): string {
  const url = new URL(link, window.location.href);
  return url.pathname + url.search;
}

/**
 * The history after its first page was read again: the new first page, then the older entries
 * already shown after its last one (so "Show older" keeps its place). When the new page does not
 * reach back to an entry shown (more than a page came since), the history starts again from it.
 */
function withFirstPage(old: History | null, page: ApplicationTimeline): History {
  const last = page.results.at(-1);
  const at = old && last && page.next ? old.entries.findIndex((e) => e.id === last.id) : -1;
  if (!old || at < 0) return { entries: page.results, next: page.next };
  const ids = new Set(page.results.map((e) => e.id));
  return { entries: [...page.results, ...old.entries.slice(at + 1).filter((e) => !ids.has(e.id))], next: old.next };
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** An email's delivery as it is now: delivered (when), failed, or waiting to be sent. */
function EmailDelivery({ email }: { email: TimelineEmail }) {
  return (
    <span className="timeline-email-status">
      {email.status === 'SUCCESS' ? (
        <span className="status status-delivered">
          Delivered
          {email.delivered_at && (
            <>
              {' '}
              <LocalTime iso={email.delivered_at} />
            </>
          )}
        </span>
      ) : email.status === 'FAILED' ? (
        <span className="status status-failed">
          Not delivered ({email.attempts} {email.attempts === 1 ? 'attempt' : 'attempts'})
        </span>
      ) : email.status === 'SCHEDULED' && email.send_after ? (
        <span className="status status-waiting">
          Scheduled for <LocalTime iso={email.send_after} />
        </span>
      ) : email.status === 'CANCELLED' ? (
        <span className="status status-failed">Cancelled</span>
      ) : (
        <span className="status status-waiting">Waiting to be sent</span>
      )}
      {email.status !== 'SUCCESS' && email.error && <span className="timeline-email-error"> {email.error}</span>}
    </span>
  );
}

const TYPE_LABEL: Record<TimelineEntry['type'], string> = {
  applied: 'Applied',
  change: 'Change',
  note: 'Note',
  email: 'Email',
  webhook: 'Webhook',
};

function ApplicantNotes({ id }: Props) {
  const base = `/api/hr/applications/${id}`;
  const [notes, setNotes] = useState<ApplicationNote[] | null>(null);
  const [more, setMore] = useState<string | null>(null);
  const [history, setHistory] = useState<History | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  /** What the last "Show older" loaded, for screen readers (a status line). */
  const [olderNote, setOlderNote] = useState('');
  const [loadError, setLoadError] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);
  const [draft, setDraft] = useState('');
  const [draftError, setDraftError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState<{ id: number; text: string; error: string | null } | null>(null);
  const [confirming, setConfirming] = useState<number | null>(null);
  /** HR's own notifications about the application are left out of the history unless asked for. */
  const [showHr, setShowHr] = useState(false);
  const newRef = useRef<HTMLTextAreaElement>(null);
  const editRef = useRef<HTMLTextAreaElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  // The note being typed is kept on this device until it is added (issue 30).
  const kept = useDraft(
    'note',
    id,
    draft,
    draft.trim() !== '',
    (raw) => (typeof raw === 'string' && raw.trim() ? raw.slice(0, NOTE_TEXT_MAX) : null),
    setDraft,
  );
  /** Where focus goes after the list is drawn again: an Edit button's note id, or 'new'. */
  const focusNext = useRef<number | 'new' | null>(null);
  /** The DOM id of the history entry (or control) focus goes to once older entries are drawn. */
  const focusHistory = useRef<string | null>(null);

  const loadTimeline = useCallback(async () => {
    const page = await hrJson<ApplicationTimeline>(`${base}/timeline/`);
    setHistory((old) => withFirstPage(old, page));
  }, [base]);

  const load = useCallback(async () => {
    setLoadError(false);
    try {
      const [page] = await Promise.all([
        hrJson<{ results: ApplicationNote[]; next: string | null }>(`${base}/notes/?page_size=${NOTES_PAGE}`),
        loadTimeline(),
      ]);
      setNotes(page.results);
      setMore(page.next);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return; // on the way to the login page
      setLoadError(true);
    }
  }, [base, loadTimeline]);

  useEffect(() => {
    void load();
    const onChanged = () => void loadTimeline().catch(() => undefined);
    document.addEventListener(CHANGED_EVENT, onChanged);
    return () => document.removeEventListener(CHANGED_EVENT, onChanged);
  }, [load, loadTimeline]);

  // Focus moves in layout effects, before the browser paints: a passive effect runs after the
  // paint, so a notice could show while focus has fallen from a removed button to the body.
  // Focus moves into the editor when one opens (not on every keystroke in it).
  const editingId = editing?.id ?? null;
  useLayoutEffect(() => {
    if (editingId !== null) editRef.current?.focus();
  }, [editingId]);
  useLayoutEffect(() => {
    if (confirming !== null) confirmRef.current?.focus();
  }, [confirming]);
  useLayoutEffect(() => {
    const target = focusNext.current;
    if (target === null) return;
    focusNext.current = null;
    if (target === 'new') newRef.current?.focus();
    else document.getElementById(`note-edit-${target}`)?.focus();
  });
  useLayoutEffect(() => {
    const target = focusHistory.current;
    if (target === null) return;
    focusHistory.current = null;
    document.getElementById(target)?.focus();
  });

  const refreshTimeline = () => loadTimeline().catch(() => undefined);

  const add = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const problem = textProblem(draft);
    setDraftError(problem);
    if (problem) return newRef.current?.focus();
    setBusy(true);
    try {
      const note = await hrJson<ApplicationNote>(`${base}/notes/`, { method: 'POST', body: { text: draft } });
      setNotes((list) => [note, ...(list ?? [])]);
      setDraft('');
      kept.clear();
      setNotice({ kind: 'success', text: 'Note added.' });
      void refreshTimeline();
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) setDraftError(problemOf(err));
    }
    setBusy(false);
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!editing || busy) return;
    const problem = textProblem(editing.text);
    if (problem) {
      setEditing({ ...editing, error: problem });
      return editRef.current?.focus();
    }
    setBusy(true);
    try {
      const note = await hrJson<ApplicationNote>(`${base}/notes/${editing.id}/`, { method: 'PATCH', body: { text: editing.text } });
      setNotes((list) => (list ?? []).map((n) => (n.id === note.id ? note : n)));
      focusNext.current = note.id;
      setEditing(null);
      setNotice({ kind: 'success', text: 'Note saved.' });
      void refreshTimeline();
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) setEditing({ ...editing, error: problemOf(err) });
    }
    setBusy(false);
  };

  const remove = async (noteId: number) => {
    if (busy) return;
    setBusy(true);
    try {
      await hrJson<null>(`${base}/notes/${noteId}/`, { method: 'DELETE' });
      setNotes((list) => (list ?? []).filter((n) => n.id !== noteId));
      setConfirming(null);
      focusNext.current = 'new';
      setNotice({ kind: 'success', text: 'Note deleted.' });
      void refreshTimeline();
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401))
        setNotice({ kind: 'error', text: `The note could not be deleted. ${problemOf(err)}` });
    }
    setBusy(false);
  };

  const showOlder = async () => {
    if (!more || busy) return;
    setBusy(true);
    try {
      const url = new URL(more);
      const page = await hrJson<{ results: ApplicationNote[]; next: string | null }>(url.pathname + url.search);
      setNotes((list) => [...(list ?? []), ...page.results.filter((n) => !(list ?? []).some((m) => m.id === n.id))]);
      setMore(page.next);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401))
        setNotice({ kind: 'error', text: `Older notes could not be loaded. ${problemOf(err)}` });
    }
    setBusy(false);
  };

  /** The next 50 entries of the history, below those shown; focus moves to the first of them shown. */
  const showOlderHistory = async () => {
    if (!history?.next || loadingOlder) return;
    setLoadingOlder(true);
    setOlderNote('');
    try {
      const link = history.next;
      const page = await hrJson<ApplicationTimeline>(pathOf(link));
      const shownIds = new Set(history.entries.map((e) => e.id));
      const added = page.results.filter((e) => !shownIds.has(e.id));
      setHistory((h) => {
        // Started again from a new first page meanwhile (more than a page came): this page no longer follows it.
        if (!h || h.next !== link) return h;
        const have = new Set(h.entries.map((e) => e.id));
        return { entries: [...h.entries, ...page.results.filter((e) => !have.has(e.id))], next: page.next };
      });
      const visible = added.filter((e) => showHr || !e.email?.to_hr);
      const hidden = added.length - visible.length;
      setOlderNote(
        `Loaded ${plural(visible.length, 'older entry', 'older entries')}${
          hidden ? ` and ${plural(hidden, 'HR notification', 'HR notifications')}, hidden` : ''
        }.${page.next ? '' : ' This is the start of the history.'}`,
      );
      // The first entry loaded, where reading goes on; else the button again, or the heading once it is gone.
      focusHistory.current = visible.length ? `history-${visible[0].id}` : page.next ? 'history-older' : 'history-heading';
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401))
        setNotice({ kind: 'error', text: `Older history could not be loaded. ${problemOf(err)}` });
    }
    setLoadingOlder(false);
  };

  const cancelEdit = (noteId: number) => {
    focusNext.current = noteId;
    setEditing(null);
  };
  const onEditKey = (e: KeyboardEvent, noteId: number) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      cancelEdit(noteId);
    }
  };

  const hrCount = history?.entries.filter((e) => e.email?.to_hr).length ?? 0;
  const shown = (history?.entries ?? []).filter((e) => showHr || !e.email?.to_hr);

  return (
    <div className="applicant-notes">
      <div className="notes-notice" role="status" aria-live="polite">
        {notice?.kind === 'success' ? notice.text : ''}
      </div>
      {notice?.kind === 'error' && (
        <div className="alert alert-error" role="alert">
          {notice.text}
        </div>
      )}
      <section className="notes-section" aria-labelledby="notes-heading">
        <h2 id="notes-heading">Notes</h2>
        <form className="note-form" onSubmit={add} noValidate>
          <label htmlFor="note-new">Add a note</label>
          {kept.restored && (
            <DraftNote
              id="note-new-draft"
              onDiscard={() => {
                setDraft('');
                kept.clear();
                newRef.current?.focus();
              }}
            />
          )}
          <textarea
            id="note-new"
            ref={newRef}
            value={draft}
            rows={3}
            aria-invalid={draftError ? true : undefined}
            aria-describedby={`note-new-help${draftError ? ' note-new-error' : ''}`}
            onChange={(e) => {
              setDraft(e.target.value);
              if (draftError) setDraftError(null);
            }}
          />
          <p id="note-new-help" className="help-text">
            Plain text, up to {NOTE_TEXT_MAX.toLocaleString()} characters. Other HR users can read it; only you can change it.
          </p>
          {draftError && (
            <p id="note-new-error" className="field-error">
              {draftError}
            </p>
          )}
          <div>
            <button type="submit" className="btn btn-primary btn-sm" aria-busy={busy || undefined}>
              Add note
            </button>
          </div>
        </form>
        {loadError && (
          <div className="alert alert-error" role="alert">
            Notes and history could not be loaded.{' '}
            <button type="button" className="btn btn-link" onClick={() => void load()}>
              Try again
            </button>
          </div>
        )}
        {notes === null && !loadError && <p className="muted">Loading notes…</p>}
        {notes !== null && notes.length === 0 && <p className="muted">No notes yet.</p>}
        {notes !== null && notes.length > 0 && (
          <ul className="notes-list">
            {notes.map((n) => (
              <li key={n.id} className="note card" id={`note-${n.id}`}>
                <p className="note-meta" id={`note-meta-${n.id}`}>
                  <strong>{n.author ? n.author.username : 'Former user'}</strong> <LocalTime iso={n.created_at} />
                  {n.edited && (
                    <span className="muted">
                      {' '}
                      (edited <LocalTime iso={n.updated_at} />)
                    </span>
                  )}
                </p>
                {editing?.id === n.id ? (
                  <form className="note-form" onSubmit={save} noValidate>
                    <label htmlFor={`note-text-${n.id}`}>Edit note</label>
                    <textarea
                      id={`note-text-${n.id}`}
                      ref={editRef}
                      value={editing.text}
                      rows={4}
                      aria-invalid={editing.error ? true : undefined}
                      aria-describedby={editing.error ? `note-text-${n.id}-error` : undefined}
                      onKeyDown={(e) => onEditKey(e, n.id)}
                      onChange={(e) => setEditing({ ...editing, text: e.target.value, error: null })}
                    />
                    {editing.error && (
                      <p id={`note-text-${n.id}-error`} className="field-error">
                        {editing.error}
                      </p>
                    )}
                    <div className="note-actions">
                      <button type="submit" className="btn btn-primary btn-sm" aria-busy={busy || undefined}>
                        Save note
                      </button>
                      <button type="button" className="btn btn-secondary btn-sm" onClick={() => cancelEdit(n.id)}>
                        Cancel
                      </button>
                    </div>
                  </form>
                ) : (
                  <>
                    <p className="note-text">{n.text}</p>
                    {n.mine && confirming !== n.id && (
                      <div className="note-actions">
                        <button
                          type="button"
                          id={`note-edit-${n.id}`}
                          className="btn btn-secondary btn-sm"
                          aria-describedby={`note-meta-${n.id}`}
                          onClick={() => {
                            setConfirming(null);
                            setEditing({ id: n.id, text: n.text, error: null });
                          }}
                        >
                          Edit
                        </button>
                        <button
                          type="button"
                          className="btn btn-secondary btn-sm"
                          aria-describedby={`note-meta-${n.id}`}
                          onClick={() => setConfirming(n.id)}
                        >
                          Delete
                        </button>
                      </div>
                    )}
                    {n.mine && confirming === n.id && (
                      <div className="note-actions">
                        <span id={`note-confirm-${n.id}`}>Delete this note?</span>
                        <button
                          type="button"
                          ref={confirmRef}
                          className="btn btn-danger btn-sm"
                          aria-describedby={`note-confirm-${n.id}`}
                          aria-busy={busy || undefined}
                          onClick={() => void remove(n.id)}
                        >
                          Delete note
                        </button>
                        <button
                          type="button"
                          className="btn btn-secondary btn-sm"
                          onClick={() => {
                            focusNext.current = n.id;
                            setConfirming(null);
                          }}
                        >
                          Keep
                        </button>
                      </div>
                    )}
                  </>
                )}
              </li>
            ))}
          </ul>
        )}
        {more && (
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => void showOlder()}>
            Show older notes
          </button>
        )}
      </section>

      <section className="history-section" aria-labelledby="history-heading">
        <h2 id="history-heading" tabIndex={-1}>
          History
        </h2>
        <div className="history-tools">
          <p className="muted history-zone">Newest first. Times in {zoneName}.</p>
          {hrCount > 0 && (
            <label className="history-toggle">
              <input type="checkbox" checked={showHr} onChange={(e) => setShowHr(e.target.checked)} />
              Show HR notifications ({hrCount})
            </label>
          )}
        </div>
        {history === null && !loadError && <p className="muted">Loading history…</p>}
        {history && (
          <ol className="timeline">
            {shown.map((e) => (
              <li key={e.id} id={`history-${e.id}`} tabIndex={-1} className={`timeline-entry timeline-${e.type}`}>
                <span className="timeline-type">{TYPE_LABEL[e.type]}</span>
                <span className="timeline-body">
                  <span className="timeline-text">{e.text}</span>
                  <span className="timeline-meta muted">
                    <LocalTime iso={e.at} />
                    {e.actor && <> · {e.actor.username}</>}
                  </span>
                  {e.email && <EmailDelivery email={e.email} />}
                </span>
              </li>
            ))}
          </ol>
        )}
        <p className="visually-hidden" role="status">
          {olderNote}
        </p>
        {history?.next && (
          <button
            type="button"
            id="history-older"
            className="btn btn-secondary btn-sm history-older"
            aria-busy={loadingOlder || undefined}
            onClick={() => void showOlderHistory()}
          >
            Show older<span className="visually-hidden"> history</span>
          </button>
        )}
      </section>
    </div>
  );
}

mountIsland('applicant-notes', ApplicantNotes);
