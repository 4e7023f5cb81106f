/**
 * Calendar and working hours (/hr/settings/calendar, issue 32): the signed-in user's zone, working
 * days and hours, buffers and notice (PUT /api/hr/interviewers/me/settings/), and the calendars
 * read for their busy times (POST/DELETE …/me/calendars/): an address is shown again only by its
 * hint, with when it was last read and the last error. What changed is said in the page's status region.
 */
import { useState, type FormEvent } from 'react';
import { mountIsland } from './components/mount.js';
import { ApiError, hrJson } from './components/hr-api.js';
import { LocalTime } from './components/local-time.js';
import { errorLines, fieldErrors } from '../src/shared/api-errors.js';
import { AVAILABILITY_LIMITS } from '../src/interviews/availability.schema.js';
import type { CalendarSource, SettingsAnswer } from '../src/interviews/availability.types.js';
import './calendar-settings.css';

interface Props {
  settings: SettingsAnswer;
  calendars: CalendarSource[];
}

const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

function say(message: string): void {
  const region = document.getElementById('calendar-message');
  if (!region) return;
  region.textContent = '';
  setTimeout(() => (region.textContent = message), 50);
}

/** Every IANA zone the browser knows, UTC first. */
function zones(current: string): string[] {
  let list: string[] = [];
  try {
    list = (Intl as unknown as { supportedValuesOf(k: string): string[] }).supportedValuesOf('timeZone');
  } catch {
    list = [];
  }
  return [...new Set(['UTC', current, ...list])];
}

const firstErrors = (err: unknown) => fieldErrors((err as ApiError).body);

const unreachable = 'Could not reach the server. Please try again.';

function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p className="field-error" id={id}>
      {message}
    </p>
  ) : null;
}

function CalendarSettings({ settings: initial, calendars: initialCalendars }: Props) {
  const [settings, setSettings] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [calendars, setCalendars] = useState(initialCalendars);
  const [draft, setDraft] = useState({ kind: 'ical', label: '', url: '', username: '', password: '' });
  const [calErrors, setCalErrors] = useState<Record<string, string>>({});
  const [adding, setAdding] = useState(false);
  const zoneList = zones(settings.time_zone);

  async function save(e: FormEvent) {
    e.preventDefault();
    setSaving(true);
    try {
      const { user_id: _u, is_default: _d, ...body } = settings;
      setSettings(await hrJson<SettingsAnswer>('/api/hr/interviewers/me/settings/', { method: 'PUT', body }));
      setErrors({});
      say('Working hours saved.');
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) {
        setErrors(firstErrors(err));
        say('The working hours were not saved. Please fix the highlighted fields.');
      } else say(err instanceof ApiError ? errorLines(err.body).join(' ') : unreachable);
    } finally {
      setSaving(false);
    }
  }

  async function add(e: FormEvent) {
    e.preventDefault();
    setAdding(true);
    try {
      const body = draft.kind === 'caldav' ? draft : { kind: draft.kind, label: draft.label, url: draft.url };
      const added = await hrJson<CalendarSource>('/api/hr/interviewers/me/calendars/', { method: 'POST', body });
      setCalendars([...calendars, added]);
      setDraft({ kind: draft.kind, label: '', url: '', username: '', password: '' });
      setCalErrors({});
      say(`Calendar added: ${added.label}`);
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) {
        const f = firstErrors(err);
        setCalErrors(f);
        say(f.detail ?? 'The calendar was not added. Please fix the highlighted fields.');
      } else say(err instanceof ApiError ? errorLines(err.body).join(' ') : unreachable);
    } finally {
      setAdding(false);
    }
  }

  async function remove(c: CalendarSource) {
    if (!window.confirm(`Remove the calendar "${c.label}"? Its busy times will no longer be read.`)) return;
    try {
      await hrJson(`/api/hr/interviewers/me/calendars/${c.id}/`, { method: 'DELETE' });
      setCalendars(calendars.filter((x) => x.id !== c.id));
      say(`Calendar removed: ${c.label}`);
    } catch (err) {
      say(err instanceof ApiError ? errorLines(err.body).join(' ') : unreachable);
    }
  }

  const minutesField = (name: 'buffer_before_minutes' | 'buffer_after_minutes' | 'min_notice_minutes', label: string) => (
    <div className="field">
      <label htmlFor={`set-${name}`}>{label}</label>
      <input
        type="number"
        id={`set-${name}`}
        min={0}
        max={AVAILABILITY_LIMITS.minutes}
        step={5}
        value={settings[name]}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `set-${name}-error` : undefined}
        onChange={(e) => setSettings({ ...settings, [name]: e.target.value === '' ? 0 : Number(e.target.value) })}
      />
      <FieldError id={`set-${name}-error`} message={errors[name]} />
    </div>
  );

  const calField = (name: 'label' | 'url' | 'username' | 'password', label: string, hint?: string) => (
    <div className="field">
      <label htmlFor={`cal-${name}`}>
        {label}
        {(name === 'label' || name === 'url') && <span aria-hidden="true"> *</span>}
      </label>
      <input
        type={name === 'password' ? 'password' : name === 'url' ? 'url' : 'text'}
        id={`cal-${name}`}
        value={draft[name]}
        required={name === 'label' || name === 'url'}
        autoComplete={name === 'password' ? 'new-password' : 'off'}
        maxLength={AVAILABILITY_LIMITS[name]}
        aria-invalid={calErrors[name] ? true : undefined}
        aria-describedby={
          [calErrors[name] ? `cal-${name}-error` : '', hint ? `cal-${name}-hint` : ''].filter(Boolean).join(' ') || undefined
        }
        onChange={(e) => setDraft({ ...draft, [name]: e.target.value })}
      />
      {hint && (
        <p className="help-text" id={`cal-${name}-hint`}>
          {hint}
        </p>
      )}
      <FieldError id={`cal-${name}-error`} message={calErrors[name]} />
    </div>
  );

  return (
    <div className="calendar-settings">
      <section aria-labelledby="hours-heading">
        <h2 id="hours-heading">Working hours</h2>
        {settings.is_default && <p className="help-text">You have not saved working hours yet: the defaults are shown.</p>}
        <form onSubmit={(e) => void save(e)} noValidate>
          <div className="field">
            <label htmlFor="set-time_zone">Time zone</label>
            <select
              id="set-time_zone"
              value={settings.time_zone}
              aria-invalid={errors.time_zone ? true : undefined}
              aria-describedby={errors.time_zone ? 'set-time_zone-error' : undefined}
              onChange={(e) => setSettings({ ...settings, time_zone: e.target.value })}
            >
              {zoneList.map((z) => (
                <option key={z} value={z}>
                  {z}
                </option>
              ))}
            </select>
            <FieldError id="set-time_zone-error" message={errors.time_zone} />
          </div>
          <fieldset className="work-days" aria-describedby={errors.work_days ? 'set-work_days-error' : undefined}>
            <legend>Working days</legend>
            {DAYS.map((d, i) => (
              <label key={d}>
                <input
                  type="checkbox"
                  checked={settings.work_days.includes(i + 1)}
                  onChange={(e) =>
                    setSettings({
                      ...settings,
                      work_days: e.target.checked
                        ? [...settings.work_days, i + 1].sort((a, b) => a - b)
                        : settings.work_days.filter((x) => x !== i + 1),
                    })
                  }
                />
                {d}
              </label>
            ))}
            <FieldError id="set-work_days-error" message={errors.work_days} />
          </fieldset>
          <div className="grid-3">
            {(['work_start', 'work_end'] as const).map((name) => (
              <div className="field" key={name}>
                <label htmlFor={`set-${name}`}>{name === 'work_start' ? 'Day starts at' : 'Day ends at'}</label>
                <input
                  type="time"
                  id={`set-${name}`}
                  value={settings[name]}
                  aria-invalid={errors[name] ? true : undefined}
                  aria-describedby={errors[name] ? `set-${name}-error` : undefined}
                  onChange={(e) => setSettings({ ...settings, [name]: e.target.value })}
                />
                <FieldError id={`set-${name}-error`} message={errors[name]} />
              </div>
            ))}
          </div>
          <div className="grid-3">
            {minutesField('buffer_before_minutes', 'Free before an interview (minutes)')}
            {minutesField('buffer_after_minutes', 'Free after an interview (minutes)')}
            {minutesField('min_notice_minutes', 'Minimum notice (minutes)')}
          </div>
          <button type="submit" className="btn btn-primary" disabled={saving}>
            Save working hours
          </button>
        </form>
      </section>

      <section aria-labelledby="calendars-heading">
        <h2 id="calendars-heading">Calendars</h2>
        <p className="help-text">
          Busy times are read from these calendars without signing in to them: Google Calendar's "Secret address in iCal format", an Outlook
          calendar published as "Can view when I'm busy", any .ics address, or a CalDAV calendar. An address is a secret: it is stored
          encrypted and never shown again in full.
        </p>
        {calendars.length === 0 ? (
          <p className="empty-state">No calendars yet.</p>
        ) : (
          <ul className="calendar-list">
            {calendars.map((c) => (
              <li key={c.id}>
                <div>
                  <strong>{c.label}</strong> ({c.kind === 'caldav' ? 'CalDAV' : 'iCal'})
                  <br />
                  <code>{c.url_hint}</code>
                  <br />
                  <span className="help-text">Last read: {c.last_fetched_at ? <LocalTime iso={c.last_fetched_at} /> : 'not yet'}</span>
                  {c.last_error && <p className="calendar-error">Last error: {c.last_error}</p>}
                </div>
                <button type="button" className="btn btn-danger btn-sm" onClick={() => void remove(c)}>
                  Remove<span className="visually-hidden"> calendar {c.label}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        {calendars.length < AVAILABILITY_LIMITS.calendars && (
          <form onSubmit={(e) => void add(e)} noValidate aria-labelledby="add-calendar-heading">
            <h3 id="add-calendar-heading">Add a calendar</h3>
            <div className="field">
              <label htmlFor="cal-kind">Kind</label>
              <select id="cal-kind" value={draft.kind} onChange={(e) => setDraft({ ...draft, kind: e.target.value })}>
                <option value="ical">iCal address (.ics)</option>
                <option value="caldav">CalDAV calendar</option>
              </select>
            </div>
            <div className="grid-3">
              {calField('label', 'Name')}
              {calField('url', 'Address', draft.kind === 'caldav' ? 'The calendar collection URL.' : 'https:// or webcal://')}
            </div>
            {draft.kind === 'caldav' && (
              <div className="grid-3">
                {calField('username', 'User name')}
                {calField('password', 'Password')}
              </div>
            )}
            {calErrors.detail && <p className="field-error">{calErrors.detail}</p>}
            <button type="submit" className="btn btn-primary" disabled={adding}>
              Add calendar
            </button>
          </form>
        )}
      </section>
    </div>
  );
}

mountIsland('calendar-settings', CalendarSettings);
