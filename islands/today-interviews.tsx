/**
 * The dashboard's "Today's interviews" (issue 32): the scheduled interviews of today in the
 * viewer's zone (every one for admins and recruiters, one's own for other roles), each with its
 * time, candidate (a link to the applicant), job and type.
 */
import { useEffect, useState } from 'react';
import { mountIsland } from './components/mount.js';
import { ApiError, hrJson } from './components/hr-api.js';
import { viewerTimeZone } from '../src/shared/time-format.js';
import type { TodayInterviews as Today } from '../src/applicants/types.js';
import './today-interviews.css';

const TYPE_LABELS: Record<string, string> = { phone: 'Phone', video: 'Video', onsite: 'On-site', other: 'Other' };

const clock = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

function TodayInterviews() {
  const [today, setToday] = useState<Today | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const tz = viewerTimeZone();
    hrJson<Today>(`/api/hr/dashboard/interviews/${tz ? `?tz=${encodeURIComponent(tz)}` : ''}`).then(setToday, (err) => {
      if (!(err instanceof ApiError && err.status === 401)) setFailed(true);
    });
  }, []);
  return (
    <section className="today-interviews" aria-labelledby="today-interviews-heading">
      <h2 id="today-interviews-heading">Today's interviews</h2>
      {today && today.items.length > 0 && <p className="help-text">Times in {today.time_zone}.</p>}
      {failed ? (
        <p className="alert alert-error">Today's interviews could not be loaded.</p>
      ) : !today ? (
        <p className="muted">Loading…</p>
      ) : today.items.length === 0 ? (
        <p className="empty-state">No interviews today.</p>
      ) : (
        <ul className="today-list">
          {today.items.map((i) => (
            <li key={i.id} className="card today-item">
              <time className="today-time" dateTime={i.starts_at}>
                {clock.format(new Date(i.starts_at))}–{clock.format(new Date(i.ends_at))}
              </time>
              <span className="today-who">
                <a href={`/hr/applicants/${i.application_id}`}>{i.applicant}</a>
                <span className="muted">
                  {' '}
                  · {i.job_title} · {i.stage_name} · {TYPE_LABELS[i.type] ?? i.type}
                </span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

mountIsland('today-interviews', TodayInterviews);
