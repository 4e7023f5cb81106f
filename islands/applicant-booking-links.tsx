/**
 * Booking links on the applicant page (/hr/applicants/{id}, issue 32): the links sent to the
 * candidate (what they offer, their state, when they expire; Withdraw) and "Send a booking link": a
 * dialog (type, length, the HR interviewers, any free time of theirs in the next days or times
 * picked by hand in a zone, until when the candidate may change it, place, video link, notes) that
 * POSTs and shows the link made (emailed to the candidate; it can be copied to send another way).
 * Checked first with the API's own schema (booking.schema.ts). Its styles are the Interviews
 * island's (applicant-interviews.css), on the same page.
 */
import { type FormEvent, useCallback, useEffect, useId, useState } from 'react';
import { mountIsland } from './components/mount.js';
import { Modal } from './components/modal.js';
import { InterviewerOptions } from './components/interviewer-options.js';
import { ApiError, hrJson } from './components/hr-api.js';
import { errorLines, fieldErrorMessages } from '../src/shared/api-errors.js';
import { fieldErrorsOf } from '../src/shared/field-errors.js';
import { formatTime, viewerTimeZone } from '../src/shared/time-format.js';
import { isKnownTimeZone, wallClock, zonedInstant } from '../src/shared/zoned-time.js';
import { bookingLinkSchema } from '../src/interviews/booking.schema.js';
import type { BookingLink, BookingLinkStatus } from '../src/interviews/booking.types.js';
import { INTERVIEW_TYPES, INTERVIEW_TYPE_LABELS, type InterviewType } from '../src/interviews/interviews.types.js';
import type { ScorecardChoices } from '../src/scorecards/scorecards.types.js';

const ZONE = viewerTimeZone() ?? 'UTC';

const STATUS_LABELS: Record<BookingLinkStatus, string> = {
  open: 'Waiting for the candidate',
  booked: 'Booked',
  used: 'Used (its interview was cancelled)',
  expired: 'Expired',
  revoked: 'Withdrawn',
};

interface Draft {
  type: InterviewType;
  duration: string;
  users: number[];
  mode: 'window' | 'slots';
  days: string;
  slots: { key: number; date: string; time: string }[];
  zone: string;
  cutoff: string;
  location: string;
  video_url: string;
  notes: string;
}

let slotKey = 0;

function firstDraft(): Draft {
  const tomorrow = wallClock(Date.now() + 86_400_000, ZONE).date;
  return {
    type: 'video',
    duration: '45',
    users: [],
    mode: 'window',
    days: '7',
    slots: [{ key: ++slotKey, date: tomorrow, time: '10:00' }],
    zone: ZONE,
    cutoff: '24',
    location: '',
    video_url: '',
    notes: '',
  };
}

/** The request body of a draft, or the problems (keyed as the API keys them) that keep it from being sent. */
function bodyOf(d: Draft): { body: Record<string, unknown> | null; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const zone = d.zone.trim();
  if (!isKnownTimeZone(zone)) errors.time_zone = 'Choose a time zone from the list, such as Europe/Berlin.';
  const starts = d.slots.map((s) => (isKnownTimeZone(zone) ? zonedInstant(s.date, s.time, zone) : null));
  if (d.mode === 'slots' && starts.some((s) => s === null)) errors.slots = 'Enter a day and a time for each slot.';
  const body: Record<string, unknown> = {
    type: d.type,
    time_zone: zone,
    interviewers: d.users.map((id) => ({ user_id: id })),
    duration_minutes: Number(d.duration),
    cutoff_hours: Number(d.cutoff),
    location: d.location,
    video_url: d.video_url.trim(),
    candidate_notes: d.notes,
    ...(d.mode === 'window'
      ? { window_days: Number(d.days) }
      : { slots: starts.map((s) => (s === null ? '' : new Date(s).toISOString())) }),
  };
  if (!Object.keys(errors).length) {
    const parsed = bookingLinkSchema(new Date()).safeParse(body);
    if (!parsed.success) for (const [k, v] of Object.entries(fieldErrorsOf(parsed.error.issues))) errors[k.split('.')[0]] ??= v.join(' ');
  }
  return { body: Object.keys(errors).length ? null : body, errors };
}

function SendDialog({
  appId,
  choices,
  onDone,
  onClose,
}: {
  appId: number;
  choices: ScorecardChoices | null;
  onDone: (link: BookingLink) => void;
  onClose: () => void;
}) {
  const id = useId();
  const [draft, setDraft] = useState<Draft>(firstDraft);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const users = choices?.interviewers ?? [];
  const error = (key: string) =>
    errors[key] ? (
      <p id={`${id}-${key}-err`} className="field-error">
        {errors[key]}
      </p>
    ) : null;
  const describedBy = (key: string) => (errors[key] ? `${id}-${key}-err` : undefined);

  const submit = async (e: FormEvent, close: () => void) => {
    e.preventDefault();
    if (busy) return;
    const { body, errors: found } = bodyOf(draft);
    setErrors(found);
    setProblem(null);
    if (!body) return;
    setBusy(true);
    try {
      const link = await hrJson<BookingLink>(`/api/hr/applications/${appId}/booking-links/`, { method: 'POST', body });
      setBusy(false);
      close();
      onDone(link);
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.status === 401) return;
      if (err instanceof ApiError && err.status === 400) {
        const fields = Object.fromEntries(Object.entries(fieldErrorMessages(err.body as never)).map(([k, v]) => [k.split('.')[0], v]));
        setErrors(fields);
        if (!Object.keys(fields).length) setProblem(errorLines(err.body as never));
      } else setProblem(err instanceof ApiError ? errorLines(err.body as never) : ['The server could not be reached. Please try again.']);
    }
  };

  return (
    <Modal title="Send a booking link" busy={busy} onClose={onClose} className="interview-dialog">
      {(close) => (
        <form noValidate onSubmit={(e) => void submit(e, close)}>
          {problem && (
            <div className="alert alert-error" role="alert">
              {problem.map((l) => (
                <div key={l}>{l}</div>
              ))}
            </div>
          )}
          <p className="help-text">The candidate gets an email with a link to choose one of the times offered.</p>
          <div className="interview-grid">
            <div className="field">
              <label htmlFor={`${id}-type`}>Type</label>
              <select id={`${id}-type`} value={draft.type} onChange={(e) => set('type', e.target.value as InterviewType)} data-autofocus>
                {INTERVIEW_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {INTERVIEW_TYPE_LABELS[t]}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor={`${id}-duration`}>Length (minutes)</label>
              <input
                id={`${id}-duration`}
                type="number"
                min={15}
                max={480}
                step={15}
                value={draft.duration}
                onChange={(e) => set('duration', e.target.value)}
                aria-invalid={!!errors.duration_minutes}
                aria-describedby={describedBy('duration_minutes')}
              />
              {error('duration_minutes')}
            </div>
            <div className="field">
              <label htmlFor={`${id}-cutoff`}>Changes allowed until (hours before)</label>
              <input
                id={`${id}-cutoff`}
                type="number"
                min={0}
                max={168}
                value={draft.cutoff}
                onChange={(e) => set('cutoff', e.target.value)}
                aria-invalid={!!errors.cutoff_hours}
                aria-describedby={describedBy('cutoff_hours')}
              />
              {error('cutoff_hours')}
            </div>
          </div>
          <fieldset className="interviewers-field" aria-describedby={describedBy('interviewers')}>
            <legend>Interviewers</legend>
            <InterviewerOptions users={users} loaded={!!choices} chosen={draft.users} onChange={(list) => set('users', list)} />
            {error('interviewers')}
          </fieldset>
          <fieldset className="interviewers-field" aria-describedby={describedBy(draft.mode === 'window' ? 'window_days' : 'slots')}>
            <legend>Times offered</legend>
            <label className="choice">
              <input type="radio" name={`${id}-mode`} checked={draft.mode === 'window'} onChange={() => set('mode', 'window')} /> Any free
              time of the interviewers (their working hours and calendars)
            </label>
            {draft.mode === 'window' && (
              <div className="field">
                <label htmlFor={`${id}-days`}>In the next (days)</label>
                <input
                  id={`${id}-days`}
                  type="number"
                  min={1}
                  max={60}
                  value={draft.days}
                  onChange={(e) => set('days', e.target.value)}
                  aria-invalid={!!errors.window_days}
                />
                {error('window_days')}
              </div>
            )}
            <label className="choice">
              <input type="radio" name={`${id}-mode`} checked={draft.mode === 'slots'} onChange={() => set('mode', 'slots')} /> These times
            </label>
            {draft.mode === 'slots' && (
              <>
                {draft.slots.map((s, n) => (
                  <div className="outside-row" key={s.key}>
                    <div className="field">
                      <label htmlFor={`${id}-s${s.key}-date`}>Day of time {n + 1}</label>
                      <input
                        id={`${id}-s${s.key}-date`}
                        type="date"
                        value={s.date}
                        onChange={(e) =>
                          set(
                            'slots',
                            draft.slots.map((x) => (x.key === s.key ? { ...x, date: e.target.value } : x)),
                          )
                        }
                      />
                    </div>
                    <div className="field">
                      <label htmlFor={`${id}-s${s.key}-time`}>Start of time {n + 1}</label>
                      <input
                        id={`${id}-s${s.key}-time`}
                        type="time"
                        value={s.time}
                        onChange={(e) =>
                          set(
                            'slots',
                            draft.slots.map((x) => (x.key === s.key ? { ...x, time: e.target.value } : x)),
                          )
                        }
                      />
                    </div>
                    {draft.slots.length > 1 && (
                      <button
                        type="button"
                        className="btn btn-secondary btn-sm"
                        onClick={() =>
                          set(
                            'slots',
                            draft.slots.filter((x) => x.key !== s.key),
                          )
                        }
                      >
                        Remove<span className="visually-hidden"> time {n + 1}</span>
                      </button>
                    )}
                  </div>
                ))}
                <button
                  type="button"
                  className="btn btn-secondary btn-sm"
                  onClick={() => set('slots', [...draft.slots, { ...draft.slots[draft.slots.length - 1], key: ++slotKey }])}
                >
                  Add a time
                </button>
                {error('slots')}
              </>
            )}
            <div className="field">
              <label htmlFor={`${id}-zone`}>Time zone</label>
              <input
                id={`${id}-zone`}
                type="text"
                autoComplete="off"
                spellCheck={false}
                value={draft.zone}
                onChange={(e) => set('zone', e.target.value)}
                aria-invalid={!!errors.time_zone}
                aria-describedby={describedBy('time_zone')}
              />
              {error('time_zone')}
            </div>
          </fieldset>
          <div className="field">
            <label htmlFor={`${id}-location`}>Place</label>
            <input id={`${id}-location`} type="text" value={draft.location} onChange={(e) => set('location', e.target.value)} />
            {error('location')}
          </div>
          <div className="field">
            <label htmlFor={`${id}-video`}>Video link</label>
            <input
              id={`${id}-video`}
              type="url"
              inputMode="url"
              placeholder="https://"
              value={draft.video_url}
              onChange={(e) => set('video_url', e.target.value)}
              aria-invalid={!!errors.video_url}
              aria-describedby={describedBy('video_url')}
            />
            {error('video_url')}
          </div>
          <div className="field">
            <label htmlFor={`${id}-notes`}>Notes for the candidate</label>
            <textarea id={`${id}-notes`} rows={3} value={draft.notes} onChange={(e) => set('notes', e.target.value)} />
            {error('candidate_notes')}
          </div>
          <div className="modal-actions">
            <button type="submit" className="btn btn-primary" disabled={busy} aria-busy={busy}>
              {busy ? 'Sending…' : 'Send the link'}
            </button>
            <button type="button" className="btn btn-secondary" disabled={busy} onClick={close}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}

function ApplicantBookingLinks({ id }: { id: number }) {
  const uid = useId();
  const [items, setItems] = useState<BookingLink[] | null>(null);
  const [choices, setChoices] = useState<ScorecardChoices | null>(null);
  const [open, setOpen] = useState(false);
  const [made, setMade] = useState<BookingLink | null>(null);
  const [message, setMessage] = useState('');

  const load = useCallback(async () => {
    try {
      setItems((await hrJson<{ items: BookingLink[] }>(`/api/hr/applications/${id}/booking-links/`)).items);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) setMessage('The booking links could not be loaded.');
    }
  }, [id]);
  useEffect(() => {
    void load();
    // A booking, a move or a cancel elsewhere on the page changes a link's state.
    const again = () => void load();
    document.addEventListener('applicant:changed', again);
    return () => document.removeEventListener('applicant:changed', again);
  }, [load]);

  const openDialog = () => {
    setOpen(true);
    if (!choices)
      hrJson<ScorecardChoices>(`/api/hr/applications/${id}/scorecards/choices/`).then(setChoices, () =>
        setChoices({ stages: [], interviewers: [], reasons: [] }),
      );
  };
  const withdraw = async (link: BookingLink) => {
    try {
      await hrJson(`/api/hr/applications/${id}/booking-links/${link.id}/`, { method: 'DELETE' });
      setMade(null);
      setMessage('Booking link withdrawn.');
    } catch (err) {
      if (err instanceof ApiError && err.status !== 401) setMessage(errorLines(err.body as never).join(' '));
    }
    void load();
  };

  return (
    <section className="card interviews-section" aria-labelledby={`${uid}-title`}>
      <div className="interview-head">
        <h2 id={`${uid}-title`}>Booking links</h2>
        <button type="button" id={`${uid}-send`} className="btn btn-secondary btn-sm" aria-haspopup="dialog" onClick={openDialog}>
          Send a booking link
        </button>
      </div>
      <div className="interviews-message" role="status" aria-live="polite">
        {message}
      </div>
      {made?.url && (
        <div className="field">
          <label htmlFor={`${uid}-url`}>Link sent{made.email_queued ? ' by email' : ''}: copy it to send it another way</label>
          <input id={`${uid}-url`} type="text" readOnly value={made.url} onFocus={(e) => e.currentTarget.select()} />
        </div>
      )}
      {items && items.length === 0 && <p className="empty-state">No booking links yet: let the candidate choose a time.</p>}
      {items && items.length > 0 && (
        <ul className="interview-list">
          {items.map((l) => (
            <li key={l.id} className="card interview-item">
              <p>
                <strong>{STATUS_LABELS[l.status]}</strong> · {l.duration_minutes} minutes ·{' '}
                {l.slots
                  ? `${l.slots.length} ${l.slots.length === 1 ? 'time' : 'times'} offered`
                  : `any free time in ${l.window_days} days`}
              </p>
              <p className="help-text">
                Sent {formatTime(l.created_at)} · expires {formatTime(l.expires_at)} · changes until {l.cutoff_hours} h before
              </p>
              {(l.status === 'open' || l.status === 'booked') && (
                <div>
                  <button type="button" className="btn btn-secondary btn-sm" onClick={() => void withdraw(l)}>
                    Withdraw<span className="visually-hidden"> the booking link sent {formatTime(l.created_at)}</span>
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {open && (
        <SendDialog
          appId={id}
          choices={choices}
          onDone={(link) => {
            setMade(link);
            setMessage(link.email_queued ? 'Booking link sent to the candidate.' : 'Booking link made (email is off: send it yourself).');
            void load();
          }}
          onClose={() => {
            setOpen(false);
            requestAnimationFrame(() => document.getElementById(`${uid}-send`)?.focus());
          }}
        />
      )}
    </section>
  );
}

mountIsland('applicant-booking-links', ApplicantBookingLinks);
