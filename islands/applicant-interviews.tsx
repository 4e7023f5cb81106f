/**
 * Interviews on the applicant page (/hr/applicants/{id}, issue 32): the application's interviews
 * (type, stage, time in the viewer's zone and in the interview's own, interviewers with their
 * calendars' answers, place or link, status), "Schedule interview" (a modal dialog: type, stage,
 * day, start and end in a time zone (the browser's first), HR users of the team and outside people
 * by email, place, video link, notes for the candidate) that POSTs and shows the warnings the API
 * answers, and per interview "Reschedule" (the same dialog, PATCH) and "Cancel interview"
 * (confirmed, DELETE). Checked first with the API's own schema (interviews.schema.ts). An
 * interviewer (`limited`) only reads.
 */
import { type FormEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import { mountIsland } from './components/mount.js';
import { Modal } from './components/modal.js';
import { InterviewerOptions } from './components/interviewer-options.js';
import { ApiError, hrJson } from './components/hr-api.js';
import { errorLines, fieldErrorMessages } from '../src/shared/api-errors.js';
import { fieldErrorsOf } from '../src/shared/field-errors.js';
import { formatTime, viewerTimeZone } from '../src/shared/time-format.js';
import { isKnownTimeZone, wallClock, zonedInstant } from '../src/shared/zoned-time.js';
import { interviewSchema } from '../src/interviews/interviews.schema.js';
import {
  INTERVIEW_TYPES,
  INTERVIEW_TYPE_LABELS,
  type Interview,
  type InterviewAnswer,
  type InterviewResponse,
  type InterviewType,
  type InterviewWarning,
} from '../src/interviews/interviews.types.js';
import type { ScorecardChoices } from '../src/scorecards/scorecards.types.js';
import './applicant-interviews.css';

type Props = { id: number; limited?: boolean };

const RESPONSE_LABELS: Record<InterviewResponse, string> = {
  'needs-action': 'no answer yet',
  accepted: 'accepted',
  declined: 'declined',
  tentative: 'maybe',
};

const VIEWER_ZONE = viewerTimeZone() ?? 'UTC';

/** The zones the runtime knows, for the time zone field's suggestions. */
const ZONES: string[] = (() => {
  try {
    return (Intl as unknown as { supportedValuesOf(k: string): string[] }).supportedValuesOf('timeZone');
  } catch {
    return [];
  }
})();

const dayFormats = new Map<string, Intl.DateTimeFormat>();
function dayFormat(zone: string): Intl.DateTimeFormat {
  let f = dayFormats.get(zone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' });
    } catch {
      f = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' });
    }
    dayFormats.set(zone, f);
  }
  return f;
}

/** "Tue, Dec 3, 2026, 10:00–10:45" in `zone`. */
function span(i: Pick<Interview, 'starts_at' | 'ends_at'>, zone: string): string {
  const start = Date.parse(i.starts_at);
  const end = Date.parse(i.ends_at);
  const a = wallClock(start, zone);
  const b = wallClock(end, zone);
  return `${dayFormat(zone).format(new Date(start))}, ${a.time}–${b.time}${a.date === b.date ? '' : ` (${b.date})`}`;
}

/** What the dialog edits: the form's fields as typed. */
interface Draft {
  type: InterviewType;
  stage_id: string;
  date: string;
  start: string;
  end: string;
  time_zone: string;
  users: number[];
  outside: { key: number; email: string; name: string }[];
  location: string;
  video_url: string;
  candidate_notes: string;
}

let outsideKey = 0;

/** The API's field (error key) each part of the draft feeds. */
const ERROR_KEYS: Record<keyof Draft, string> = {
  type: 'type',
  stage_id: 'stage_id',
  date: 'starts_at',
  start: 'starts_at',
  end: 'ends_at',
  time_zone: 'time_zone',
  users: 'interviewers',
  outside: 'interviewers',
  location: 'location',
  video_url: 'video_url',
  candidate_notes: 'candidate_notes',
};

function draftOf(i: Interview | null): Draft {
  if (!i) {
    // Tomorrow at 10:00, 45 minutes, in the viewer's zone.
    const tomorrow = wallClock(Date.now() + 86_400_000, VIEWER_ZONE).date;
    return {
      type: 'video',
      stage_id: '',
      date: tomorrow,
      start: '10:00',
      end: '10:45',
      time_zone: VIEWER_ZONE,
      users: [],
      outside: [],
      location: '',
      video_url: '',
      candidate_notes: '',
    };
  }
  const zone = isKnownTimeZone(i.time_zone) ? i.time_zone : 'UTC';
  const s = wallClock(Date.parse(i.starts_at), zone);
  const e = wallClock(Date.parse(i.ends_at), zone);
  return {
    type: i.type,
    stage_id: i.stage_id === null ? '' : String(i.stage_id),
    date: s.date,
    start: s.time,
    end: e.time,
    time_zone: zone,
    users: i.interviewers.flatMap((p) => (p.user_id === null ? [] : [p.user_id])),
    outside: i.interviewers.filter((p) => p.user_id === null).map((p) => ({ key: ++outsideKey, email: p.email, name: p.name })),
    location: i.location ?? '',
    video_url: i.video_url ?? '',
    candidate_notes: i.candidate_notes ?? '',
  };
}

/** The request body of a draft, or the problems (keyed as the API keys them) that keep it from being sent. */
function bodyOf(d: Draft): { body: Record<string, unknown> | null; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const zone = d.time_zone.trim();
  let startsAt: string | null = null;
  let endsAt: string | null = null;
  if (!isKnownTimeZone(zone)) errors.time_zone = 'Choose a time zone from the list, such as Europe/Berlin.';
  else {
    const s = zonedInstant(d.date, d.start, zone);
    // An end before the start is the next day's (an interview across midnight).
    let e = zonedInstant(d.date, d.end, zone);
    if (s === null) errors.starts_at = 'Enter the day and the start time.';
    if (e === null) errors.ends_at = 'Enter the end time.';
    if (s !== null && e !== null) {
      if (e <= s) e = zonedInstant(wallClock(s + 86_400_000, zone).date, d.end, zone);
      startsAt = new Date(s).toISOString();
      endsAt = e === null ? null : new Date(e).toISOString();
    }
  }
  const body: Record<string, unknown> = {
    type: d.type,
    starts_at: startsAt,
    ends_at: endsAt,
    time_zone: zone,
    interviewers: [...d.users.map((id) => ({ user_id: id })), ...d.outside.map((o) => ({ email: o.email.trim(), name: o.name.trim() }))],
    location: d.location,
    video_url: d.video_url.trim(),
    candidate_notes: d.candidate_notes,
    ...(d.stage_id ? { stage_id: Number(d.stage_id) } : {}),
  };
  if (!Object.keys(errors).length) {
    const parsed = interviewSchema(new Date()).safeParse(body);
    if (!parsed.success) for (const [k, v] of Object.entries(fieldErrorsOf(parsed.error.issues))) errors[k] ??= v.join(' ');
  }
  return { body: Object.keys(errors).length ? null : body, errors };
}

function FieldError({ id, text }: { id: string; text?: string }) {
  if (!text) return null;
  return (
    <p id={id} className="field-error">
      {text}
    </p>
  );
}

/** The errors of the interviewers, whichever item they name ('interviewers', 'interviewers.1.email'). */
const interviewerErrors = (errors: Record<string, string>) =>
  Object.entries(errors)
    .filter(([k]) => k === 'interviewers' || k.startsWith('interviewers.'))
    .map(([, v]) => v);

function InterviewDialog({
  appId,
  interview,
  choices,
  onDone,
  onClose,
}: {
  appId: number;
  interview: Interview | null;
  choices: ScorecardChoices | null;
  onDone: (answer: InterviewAnswer, rescheduled: boolean) => void;
  onClose: () => void;
}) {
  const id = useId();
  const [draft, setDraft] = useState<Draft>(() => draftOf(interview));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    // An edited field's message goes: it was about the value just replaced.
    const field = ERROR_KEYS[key];
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => k !== field && !k.startsWith(`${field}.`))));
  };
  const users = choices?.interviewers ?? [];
  // A reschedule keeps interviewers who are no longer in the list of active users.
  const missingUsers = interview?.interviewers.filter((p) => p.user_id !== null && !users.some((u) => u.id === p.user_id)) ?? [];

  const submit = async (e: FormEvent, close: () => void) => {
    e.preventDefault();
    if (busy) return;
    const { body, errors: found } = bodyOf(draft);
    setErrors(found);
    setProblem(null);
    if (!body) {
      // The first field with a problem takes the focus, so its message is read out.
      requestAnimationFrame(() =>
        document
          .querySelector<HTMLElement>('.interview-dialog [aria-invalid="true"], .interview-dialog .interviewers-field input')
          ?.focus(),
      );
      return;
    }
    setBusy(true);
    try {
      const answer = interview
        ? await hrJson<InterviewAnswer>(`/api/hr/interviews/${interview.id}/`, { method: 'PATCH', body })
        : await hrJson<InterviewAnswer>(`/api/hr/applications/${appId}/interviews/`, { method: 'POST', body });
      setBusy(false);
      close();
      onDone(answer, !!interview);
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.status === 401) return;
      if (err instanceof ApiError && err.status === 400) {
        const fields = fieldErrorMessages(err.body as never);
        setErrors(fields);
        if (!Object.keys(fields).length) setProblem(errorLines(err.body as never));
      } else setProblem(err instanceof ApiError ? errorLines(err.body as never) : ['The server could not be reached. Please try again.']);
    }
  };

  const described = (key: string, help?: string) => [help, errors[key] ? `${id}-${key}-err` : null].filter(Boolean).join(' ') || undefined;
  const whoErrors = interviewerErrors(errors);

  return (
    <Modal title={interview ? 'Reschedule interview' : 'Schedule interview'} busy={busy} onClose={onClose} className="interview-dialog">
      {(close) => (
        <form noValidate onSubmit={(e) => void submit(e, close)}>
          {problem && (
            <div className="alert alert-error" role="alert">
              {problem.map((l) => (
                <div key={l}>{l}</div>
              ))}
            </div>
          )}
          <div className="interview-grid">
            <div className="field">
              <label htmlFor={`${id}-type`}>Type</label>
              <select
                id={`${id}-type`}
                value={draft.type}
                onChange={(e) => set('type', e.target.value as InterviewType)}
                data-autofocus
                aria-invalid={!!errors.type}
                aria-describedby={described('type')}
              >
                {INTERVIEW_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {INTERVIEW_TYPE_LABELS[t]}
                  </option>
                ))}
              </select>
              <FieldError id={`${id}-type-err`} text={errors.type} />
            </div>
            {!!choices?.stages.length && (
              <div className="field">
                <label htmlFor={`${id}-stage`}>Stage</label>
                <select
                  id={`${id}-stage`}
                  value={draft.stage_id}
                  onChange={(e) => set('stage_id', e.target.value)}
                  aria-invalid={!!errors.stage_id}
                  aria-describedby={described('stage_id')}
                >
                  <option value="">{interview ? 'Unchanged' : 'The current stage'}</option>
                  {choices.stages.map((s) => (
                    <option key={s.id} value={s.id}>
                      {s.name}
                      {s.current ? ' (current)' : ''}
                    </option>
                  ))}
                </select>
                <FieldError id={`${id}-stage_id-err`} text={errors.stage_id} />
              </div>
            )}
            <div className="field">
              <label htmlFor={`${id}-date`}>Day</label>
              <input
                id={`${id}-date`}
                type="date"
                required
                value={draft.date}
                onChange={(e) => set('date', e.target.value)}
                aria-invalid={!!errors.starts_at}
                aria-describedby={described('starts_at')}
              />
            </div>
            <div className="field">
              <label htmlFor={`${id}-start`}>Start</label>
              <input
                id={`${id}-start`}
                type="time"
                required
                value={draft.start}
                onChange={(e) => set('start', e.target.value)}
                aria-invalid={!!errors.starts_at}
                aria-describedby={described('starts_at')}
              />
              <FieldError id={`${id}-starts_at-err`} text={errors.starts_at} />
            </div>
            <div className="field">
              <label htmlFor={`${id}-end`}>End</label>
              <input
                id={`${id}-end`}
                type="time"
                required
                value={draft.end}
                onChange={(e) => set('end', e.target.value)}
                aria-invalid={!!errors.ends_at}
                aria-describedby={described('ends_at')}
              />
              <FieldError id={`${id}-ends_at-err`} text={errors.ends_at} />
            </div>
            <div className="field">
              <label htmlFor={`${id}-tz`}>Time zone</label>
              <input
                id={`${id}-tz`}
                type="text"
                list={`${id}-zones`}
                autoComplete="off"
                spellCheck={false}
                value={draft.time_zone}
                onChange={(e) => set('time_zone', e.target.value)}
                aria-invalid={!!errors.time_zone}
                aria-describedby={described('time_zone', `${id}-tz-help`)}
              />
              <datalist id={`${id}-zones`}>
                {ZONES.map((z) => (
                  <option key={z} value={z} />
                ))}
              </datalist>
              <p id={`${id}-tz-help`} className="help-text">
                The day and times are in this zone (yours: {VIEWER_ZONE}).
              </p>
              <FieldError id={`${id}-time_zone-err`} text={errors.time_zone} />
            </div>
          </div>

          <fieldset className="interviewers-field" aria-describedby={whoErrors.length ? `${id}-who-err` : undefined}>
            <legend>Interviewers</legend>
            <InterviewerOptions users={users} loaded={!!choices} chosen={draft.users} onChange={(list) => set('users', list)} />
            {missingUsers.length > 0 && (
              <p className="help-text">Also invited (no longer an active user): {missingUsers.map((p) => p.name).join(', ')}.</p>
            )}
            {draft.outside.map((o, n) => (
              <div className="outside-row" key={o.key}>
                <div className="field">
                  <label htmlFor={`${id}-o${o.key}-name`}>Name of outside interviewer {n + 1}</label>
                  <input
                    id={`${id}-o${o.key}-name`}
                    type="text"
                    value={o.name}
                    autoComplete="off"
                    onChange={(e) =>
                      set(
                        'outside',
                        draft.outside.map((x) => (x.key === o.key ? { ...x, name: e.target.value } : x)),
                      )
                    }
                  />
                </div>
                <div className="field">
                  <label htmlFor={`${id}-o${o.key}-email`}>Email of outside interviewer {n + 1}</label>
                  <input
                    id={`${id}-o${o.key}-email`}
                    type="email"
                    value={o.email}
                    autoComplete="off"
                    onChange={(e) =>
                      set(
                        'outside',
                        draft.outside.map((x) => (x.key === o.key ? { ...x, email: e.target.value } : x)),
                      )
                    }
                  />
                </div>
                <button
                  type="button"
                  className="btn btn-secondary btn-sm"
                  onClick={() =>
                    set(
                      'outside',
                      draft.outside.filter((x) => x.key !== o.key),
                    )
                  }
                >
                  Remove<span className="visually-hidden"> outside interviewer {n + 1}</span>
                </button>
              </div>
            ))}
            <button
              type="button"
              className="btn btn-secondary btn-sm"
              onClick={() => set('outside', [...draft.outside, { key: ++outsideKey, email: '', name: '' }])}
            >
              Add an outside interviewer
            </button>
            {whoErrors.length > 0 && (
              <p id={`${id}-who-err`} className="field-error">
                {whoErrors.join(' ')}
              </p>
            )}
          </fieldset>

          <div className="field">
            <label htmlFor={`${id}-location`}>Place</label>
            <input
              id={`${id}-location`}
              type="text"
              value={draft.location}
              onChange={(e) => set('location', e.target.value)}
              aria-invalid={!!errors.location}
              aria-describedby={described('location')}
            />
            <FieldError id={`${id}-location-err`} text={errors.location} />
          </div>
          <div className="field">
            <label htmlFor={`${id}-video`}>Video link</label>
            <input
              id={`${id}-video`}
              type="url"
              inputMode="url"
              value={draft.video_url}
              placeholder="https://"
              onChange={(e) => set('video_url', e.target.value)}
              aria-invalid={!!errors.video_url}
              aria-describedby={described('video_url')}
            />
            <FieldError id={`${id}-video_url-err`} text={errors.video_url} />
          </div>
          <div className="field">
            <label htmlFor={`${id}-notes`}>Notes for the candidate</label>
            <textarea
              id={`${id}-notes`}
              rows={3}
              value={draft.candidate_notes}
              onChange={(e) => set('candidate_notes', e.target.value)}
              aria-invalid={!!errors.candidate_notes}
              aria-describedby={described('candidate_notes', `${id}-notes-help`)}
            />
            <p id={`${id}-notes-help`} className="help-text">
              Sent with the invitation.
            </p>
            <FieldError id={`${id}-candidate_notes-err`} text={errors.candidate_notes} />
          </div>
          <div className="modal-actions">
            <button type="submit" className="btn btn-primary" disabled={busy} aria-busy={busy}>
              {busy ? (interview ? 'Saving…' : 'Scheduling…') : interview ? 'Save and send updates' : 'Schedule and invite'}
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

function CancelDialog({ interview, onDone, onClose }: { interview: Interview; onDone: (i: Interview) => void; onClose: () => void }) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string[] | null>(null);
  const confirm = async (close: () => void) => {
    setBusy(true);
    setProblem(null);
    try {
      const { interview: done } = await hrJson<{ interview: Interview }>(`/api/hr/interviews/${interview.id}/`, { method: 'DELETE' });
      setBusy(false);
      close();
      onDone(done);
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.status === 401) return;
      setProblem(err instanceof ApiError ? errorLines(err.body as never) : ['The server could not be reached. Please try again.']);
    }
  };
  return (
    <Modal title="Cancel this interview?" busy={busy} onClose={onClose} className="interview-dialog">
      {(close) => (
        <>
          <p>
            {INTERVIEW_TYPE_LABELS[interview.type]} interview on {span(interview, VIEWER_ZONE)}. The candidate and the interviewers get a
            cancellation their calendars understand.
          </p>
          {problem && (
            <div className="alert alert-error" role="alert">
              {problem.map((l) => (
                <div key={l}>{l}</div>
              ))}
            </div>
          )}
          <div className="modal-actions">
            <button type="button" className="btn btn-danger" disabled={busy} aria-busy={busy} onClick={() => void confirm(close)}>
              {busy ? 'Cancelling…' : 'Cancel interview'}
            </button>
            <button type="button" className="btn btn-secondary" disabled={busy} onClick={close} data-autofocus>
              Keep it
            </button>
          </div>
        </>
      )}
    </Modal>
  );
}

function InterviewItem({
  interview: i,
  limited,
  onReschedule,
  onCancel,
}: {
  interview: Interview;
  limited: boolean;
  onReschedule: (e: HTMLButtonElement) => void;
  onCancel: (e: HTMLButtonElement) => void;
}) {
  const cancelled = i.status === 'cancelled';
  const label = `${INTERVIEW_TYPE_LABELS[i.type]} interview`;
  return (
    <li className={`card interview-item${cancelled ? ' is-cancelled' : ''}`} data-interview={i.id}>
      <div className="interview-head">
        <h3>
          {label} <span className="muted">· {i.stage_name}</span>
        </h3>
        <span className={`status ${cancelled ? 'status-rejected' : 'status-reviewed'}`}>{cancelled ? 'Cancelled' : 'Scheduled'}</span>
      </div>
      <p className="interview-when">
        <time dateTime={i.starts_at} title={formatTime(i.starts_at)}>
          {span(i, VIEWER_ZONE)}
        </time>{' '}
        <span className="muted">({VIEWER_ZONE})</span>
        {i.time_zone !== VIEWER_ZONE && (
          <>
            <br />
            <span className="muted">
              {span(i, isKnownTimeZone(i.time_zone) ? i.time_zone : 'UTC')} in {i.time_zone}
            </span>
          </>
        )}
      </p>
      <ul className="interview-people" aria-label="Interviewers">
        {i.interviewers.map((p) => (
          <li key={p.email}>
            {p.name} <span className={`response response-${p.response}`}>({RESPONSE_LABELS[p.response] ?? p.response})</span>
          </li>
        ))}
      </ul>
      {(i.location || i.video_url) && (
        <p className="interview-where">
          {i.location && <span>{i.location}</span>}
          {i.location && i.video_url && ' · '}
          {i.video_url && (
            <a href={i.video_url} target="_blank" rel="noopener noreferrer">
              Video link<span className="visually-hidden"> (opens in a new tab)</span>
            </a>
          )}
        </p>
      )}
      {i.booked_by_candidate && <p className="help-text">Booked by the candidate.</p>}
      {!limited && !cancelled && (
        <div className="form-actions">
          <button type="button" className="btn btn-secondary btn-sm" aria-haspopup="dialog" onClick={(e) => onReschedule(e.currentTarget)}>
            Reschedule<span className="visually-hidden">: {label}</span>
          </button>
          <button type="button" className="btn btn-danger btn-sm" aria-haspopup="dialog" onClick={(e) => onCancel(e.currentTarget)}>
            Cancel interview<span className="visually-hidden">: {label}</span>
          </button>
        </div>
      )}
    </li>
  );
}

type Open = { kind: 'schedule' } | { kind: 'reschedule'; interview: Interview } | { kind: 'cancel'; interview: Interview } | null;

function ApplicantInterviews({ id, limited = false }: Props) {
  const uid = useId();
  const [items, setItems] = useState<Interview[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [choices, setChoices] = useState<ScorecardChoices | null>(null);
  const [open, setOpen] = useState<Open>(null);
  const [message, setMessage] = useState('');
  const [warnings, setWarnings] = useState<InterviewWarning[]>([]);
  const trigger = useRef<HTMLElement | null>(null);

  const load = useCallback(async () => {
    try {
      setItems((await hrJson<{ items: Interview[] }>(`/api/hr/applications/${id}/interviews/`)).items);
      setFailed(false);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) setFailed(true);
    }
  }, [id]);

  useEffect(() => {
    void load();
  }, [load]);

  const openDialog = (o: Open, from: HTMLElement) => {
    trigger.current = from;
    setOpen(o);
    if (o && o.kind !== 'cancel' && !choices)
      hrJson<ScorecardChoices>(`/api/hr/applications/${id}/scorecards/choices/`).then(setChoices, () =>
        setChoices({ stages: [], interviewers: [], reasons: [] }),
      );
  };
  const closeDialog = () => {
    setOpen(null);
    // Back to what opened the dialog (or the section's button when that item is gone).
    const back = trigger.current?.isConnected ? trigger.current : document.getElementById(`${uid}-schedule`);
    requestAnimationFrame(() => back?.focus());
  };

  const done = (answer: InterviewAnswer, rescheduled: boolean) => {
    const verb = rescheduled ? 'Rescheduled' : 'Scheduled';
    setWarnings(answer.warnings);
    setMessage(answer.warnings.length ? `${verb}. Heads-up: ${answer.warnings.map((w) => w.detail).join('; ')}.` : `${verb}.`);
    document.dispatchEvent(new CustomEvent('applicant:changed'));
    void load();
  };

  return (
    <section className="card interviews-section" aria-labelledby={`${uid}-title`}>
      <div className="interview-head">
        <h2 id={`${uid}-title`}>Interviews</h2>
        {!limited && (
          <button
            type="button"
            id={`${uid}-schedule`}
            className="btn btn-primary btn-sm"
            aria-haspopup="dialog"
            onClick={(e) => openDialog({ kind: 'schedule' }, e.currentTarget)}
          >
            Schedule interview
          </button>
        )}
        {!limited && (
          <a className="btn btn-secondary btn-sm" href={`/hr/interviews/find-time?application=${id}`}>
            Find a time
          </a>
        )}
      </div>
      <div className={warnings.length ? 'alert alert-warning interviews-message' : 'interviews-message'} role="status" aria-live="polite">
        {message}
      </div>
      {failed ? (
        <p className="alert alert-error">The interviews could not be loaded.</p>
      ) : !items ? (
        <p className="muted">Loading…</p>
      ) : items.length === 0 ? (
        <p className="empty-state">No interviews yet.</p>
      ) : (
        <ul className="interview-list">
          {items.map((i) => (
            <InterviewItem
              key={i.id}
              interview={i}
              limited={limited}
              onReschedule={(el) => openDialog({ kind: 'reschedule', interview: i }, el)}
              onCancel={(el) => openDialog({ kind: 'cancel', interview: i }, el)}
            />
          ))}
        </ul>
      )}
      {open?.kind === 'schedule' && <InterviewDialog appId={id} interview={null} choices={choices} onDone={done} onClose={closeDialog} />}
      {open?.kind === 'reschedule' && (
        <InterviewDialog appId={id} interview={open.interview} choices={choices} onDone={done} onClose={closeDialog} />
      )}
      {open?.kind === 'cancel' && (
        <CancelDialog
          interview={open.interview}
          onDone={() => {
            setWarnings([]);
            setMessage('Interview cancelled.');
            document.dispatchEvent(new CustomEvent('applicant:changed'));
            void load();
          }}
          onClose={closeDialog}
        />
      )}
    </section>
  );
}

mountIsland('applicant-interviews', ApplicantInterviews);
