/**
 * The dashboard's overdue scorecards (issue 31): scorecards not submitted a day after their
 * interview (or their request), oldest first, each linking to its applicant, and whether its one
 * reminder was emailed. Nothing is shown when none is overdue.
 */
import { useEffect, useState } from 'react';
import { mountIsland } from './components/mount.js';
import { hrJson } from './components/hr-api.js';
import { LocalTime } from './components/local-time.js';
import type { OverdueScorecard } from '../src/scorecards/scorecards.types.js';

function OverdueScorecards() {
  const [rows, setRows] = useState<OverdueScorecard[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    hrJson<{ results: OverdueScorecard[] }>('/api/hr/scorecards/overdue/').then(
      (r) => setRows(r.results),
      () => setFailed(true),
    );
  }, []);
  if (failed) return <p className="alert alert-error">The overdue scorecards could not be loaded.</p>;
  if (!rows || rows.length === 0) return null;
  return (
    <section aria-labelledby="overdue-heading">
      <h2 id="overdue-heading">Overdue scorecards ({rows.length})</h2>
      <ul>
        {rows.map((r) => (
          <li key={r.id}>
            <a href={`/hr/applicants/${r.application_id}`}>{r.applicant}</a> · {r.job_title}, {r.stage_name}: {r.interviewer}, due{' '}
            <LocalTime iso={r.due_at} />
            {r.reminded ? ' (reminder sent)' : ''}
          </li>
        ))}
      </ul>
    </section>
  );
}

mountIsland('overdue-scorecards', OverdueScorecards);
