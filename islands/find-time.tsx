/**
 * Find a time (/hr/interviews/find-time, issue 32): pick interviewers and a duration, see the next
 * slots when all are free (GET /api/hr/interviewers/find-time/) in the viewer's zone and, when one
 * is chosen, the candidate's. Calendars that could not be read are named: their owners count as free.
 */
import { useState, type FormEvent } from 'react';
import { mountIsland } from './components/mount.js';
import { ApiError, hrJson } from './components/hr-api.js';
import { errorLines } from '../src/shared/api-errors.js';
import { formatTime, viewerTimeZone } from '../src/shared/time-format.js';
import type { FindTimeAnswer, InterviewerChoice } from '../src/interviews/availability.types.js';
import './calendar-settings.css';

interface Props {
  interviewers: InterviewerChoice[];
  me: number;
  applicationId: number | null;
}

const DURATIONS = [15, 30, 45, 60, 90, 120];

function zones(): string[] {
  try {
    return ['UTC', ...(Intl as unknown as { supportedValuesOf(k: string): string[] }).supportedValuesOf('timeZone')];
  } catch {
    return ['UTC'];
  }
}

function FindTime({ interviewers, me }: Props) {
  const viewerZone = viewerTimeZone() ?? 'UTC';
  const [chosen, setChosen] = useState<number[]>(interviewers.some((i) => i.id === me) ? [me] : []);
  const [duration, setDuration] = useState(45);
  const [days, setDays] = useState(14);
  const [candidateZone, setCandidateZone] = useState('');
  const [answer, setAnswer] = useState<FindTimeAnswer | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function find(e: FormEvent) {
    e.preventDefault();
    if (!chosen.length) {
      setProblem('Choose at least one interviewer.');
      return;
    }
    setPending(true);
    try {
      const q = new URLSearchParams({ interviewers: chosen.join(','), duration: String(duration), days: String(days), tz: viewerZone });
      setAnswer(await hrJson<FindTimeAnswer>(`/api/hr/interviewers/find-time/?${q}`));
      setProblem(null);
    } catch (err) {
      setProblem(err instanceof ApiError ? errorLines(err.body).join(' ') : 'Could not reach the server. Please try again.');
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="find-time">
      <form onSubmit={(e) => void find(e)} noValidate>
        <fieldset className="interviewers">
          <legend>Interviewers</legend>
          {interviewers.map((i) => (
            <label key={i.id}>
              <input
                type="checkbox"
                checked={chosen.includes(i.id)}
                onChange={(e) => setChosen(e.target.checked ? [...chosen, i.id] : chosen.filter((x) => x !== i.id))}
              />
              {i.name}
            </label>
          ))}
        </fieldset>
        <div className="grid-3">
          <div className="field">
            <label htmlFor="ft-duration">Duration</label>
            <select id="ft-duration" value={duration} onChange={(e) => setDuration(Number(e.target.value))}>
              {DURATIONS.map((d) => (
                <option key={d} value={d}>
                  {d} minutes
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="ft-days">Within</label>
            <select id="ft-days" value={days} onChange={(e) => setDays(Number(e.target.value))}>
              {[7, 14, 30, 60].map((d) => (
                <option key={d} value={d}>
                  the next {d} days
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="ft-candidate-zone">Candidate's time zone</label>
            <select id="ft-candidate-zone" value={candidateZone} onChange={(e) => setCandidateZone(e.target.value)}>
              <option value="">Not known</option>
              {zones().map((z) => (
                <option key={z} value={z}>
                  {z}
                </option>
              ))}
            </select>
          </div>
        </div>
        <button type="submit" className="btn btn-primary" disabled={pending}>
          Find times
        </button>
      </form>
      {problem && (
        <p className="alert alert-error" role="alert">
          {problem}
        </p>
      )}
      <div role="status" aria-live="polite">
        {answer && (
          <section aria-labelledby="slots-heading">
            <h2 id="slots-heading">{answer.slots.length ? `Next ${answer.slots.length} free times` : 'No free time found'}</h2>
            {answer.warnings.map((w) => (
              <p className="alert alert-warning" key={`${w.user_id}-${w.detail}`}>
                {w.interviewer}: {w.detail}
              </p>
            ))}
            {answer.slots.length === 0 && <p className="empty-state">Try more days, a shorter duration or fewer interviewers.</p>}
            <ul className="slots">
              {answer.slots.map((s) => (
                <li key={s.starts_at}>
                  <time dateTime={s.starts_at}>
                    {formatTime(s.starts_at, 'time', viewerZone)} – {formatTime(s.ends_at, 'time', viewerZone).replace(/^.*?\d{4}, /, '')}
                  </time>
                  {candidateZone && candidateZone !== viewerZone && (
                    <span className="slot-other">
                      Candidate: {formatTime(s.starts_at, 'time', candidateZone)} ({candidateZone})
                    </span>
                  )}
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
    </div>
  );
}

mountIsland('find-time', FindTime);
