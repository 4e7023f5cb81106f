/**
 * Job insights (/hr/jobs/{id}/insights): the job's figures, its apply funnel (read from the funnel
 * API), one chart per current question and the applicants export. The server renders the job and its analytics into the props (the same
 * services as GET /api/hr/jobs/{id}/analytics/). Charts are plain HTML/CSS bars: every bar carries
 * its count and percent as text, the bar itself is decoration, and no bar is wider than 100%.
 */
import './job-insights/job-insights.css';
import { useRef, useState } from 'react';
import { mountIsland } from './components/mount.js';
import { LocalTime } from './components/local-time.js';
import { hrFetch } from './components/session.js';
import { exportUrl, saveResponse } from './job-insights/download.js';
import { Funnel } from './job-insights/Funnel.js';
import { enumLabel } from '../src/shared/enums.js';
import { questionPlainText } from '../src/shared/question-text.js';
import type { DistributionStats, JobAnalytics, QuestionAnalytics, TextStats } from '../src/applicants/types.js';

interface Props {
  job: { id: number; title: string; status: string; views: number; applicants: number; created_at: string };
  analytics: JobAnalytics;
}

export const TEXTS = {
  exportIdle: 'Export Applicants (.xls)',
  exportBusy: 'Preparing…',
  exportFailed: 'Export failed. Please try again.',
  noQuestions: 'No additional questions configured for this job.',
} as const;

const grouped = new Intl.NumberFormat();
const percentFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
const num = (n: number) => grouped.format(n);
const pct = (p: number) => `${percentFormat.format(p)}%`;

function TopAnswers({ stats, headingId }: { stats: TextStats; headingId: string }) {
  if (!stats.top_answers.length) return <p className="qa-empty">No answers yet.</p>;
  return (
    <div className="table-wrap">
      <table className="data qa-top" aria-labelledby={headingId}>
        <thead>
          <tr>
            <th scope="col">Top answers</th>
            <th scope="col" className="num">
              Count
            </th>
          </tr>
        </thead>
        <tbody>
          {stats.top_answers.map((a, i) => (
            <tr key={i}>
              <td className="qa-answer">{a.value}</td>
              <td className="num">{num(a.count)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Bars({ stats, headingId }: { stats: DistributionStats; headingId: string }) {
  if (!stats.distribution.length) return <p className="qa-empty">No answers yet.</p>;
  return (
    <>
      {stats.numbers && (
        <p className="qa-numbers">
          Min <strong>{num(stats.numbers.min)}</strong> · Median <strong>{num(stats.numbers.median)}</strong> · Max{' '}
          <strong>{num(stats.numbers.max)}</strong>
        </p>
      )}
      <BarList stats={stats} headingId={headingId} />
    </>
  );
}

function BarList({ stats, headingId }: { stats: DistributionStats; headingId: string }) {
  return (
    <ul className="qa-bars" aria-labelledby={headingId}>
      {stats.distribution.map((d) => {
        const width = Math.min(100, Math.max(0, d.percent));
        return (
          <li key={d.option} className="qa-bar">
            <span className="qa-bar-label">{d.option}</span>
            <span className="qa-bar-track" aria-hidden="true">
              <span className="qa-bar-fill" style={{ width: `${width}%` }} />
            </span>
            <span className="qa-bar-value">
              {num(d.count)} <span className="qa-bar-pct">({pct(d.percent)})</span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}

function QuestionCard({ q, total }: { q: QuestionAnalytics; total: number }) {
  const headingId = `qa-${q.id}`;
  return (
    <article className="card qa-card" aria-labelledby={headingId}>
      <h3 id={headingId} className="qa-question">
        {questionPlainText(q.text) || `Question ${q.id}`}
      </h3>
      <p className="qa-meta">
        {enumLabel(q.answer_type)} · {num(q.stats.answered)} of {num(total)} answered
        {q.answer_type === 'checkbox' ? ' · several options may be ticked' : ''}
      </p>
      {q.stats.type === 'text' ? <TopAnswers stats={q.stats} headingId={headingId} /> : <Bars stats={q.stats} headingId={headingId} />}
    </article>
  );
}

function JobInsights({ job, analytics }: Props) {
  const [exporting, setExporting] = useState(false);
  const [failed, setFailed] = useState(false);
  // A ref, not the state, decides: two clicks in the same frame must not start two downloads.
  const busy = useRef(false);

  async function exportApplicants() {
    if (busy.current) return;
    busy.current = true;
    setExporting(true);
    setFailed(false);
    try {
      const res = await hrFetch(exportUrl(`/api/hr/jobs/${job.id}/export-basic/`));
      if (!res.ok) throw new Error(`export answered ${res.status}`);
      await saveResponse(res, `applicants_job_${job.id}.xlsx`);
    } catch {
      setFailed(true);
    } finally {
      busy.current = false;
      setExporting(false);
    }
  }

  return (
    <div className="insights">
      <div className="insights-head">
        <h1 className="insights-title">{job.title}</h1>
        <div className="insights-actions">
          <button type="button" className="btn btn-primary" onClick={exportApplicants} aria-disabled={exporting} aria-busy={exporting}>
            {exporting ? TEXTS.exportBusy : TEXTS.exportIdle}
          </button>
          <a className="btn btn-secondary" href={`/hr/applicants?job_id=${job.id}`}>
            View Applicants
          </a>
          <a className="btn btn-secondary" href="/hr/jobs/list">
            Back to Jobs
          </a>
        </div>
      </div>
      {failed && (
        <div className="alert alert-error" role="alert">
          {TEXTS.exportFailed}
        </div>
      )}
      <dl className="insights-tiles">
        <div className="tile">
          <dt>Status</dt>
          <dd>{enumLabel(job.status)}</dd>
        </div>
        <div className="tile">
          <dt>Applicants</dt>
          <dd>{num(job.applicants)}</dd>
        </div>
        <div className="tile">
          <dt>Views</dt>
          <dd>{num(job.views)}</dd>
        </div>
        <div className="tile">
          <dt>Created</dt>
          <dd>
            <LocalTime iso={job.created_at} kind="date" />
          </dd>
        </div>
      </dl>
      <Funnel jobId={job.id} />
      <section className="qa-section" aria-labelledby="qa-heading">
        <h2 id="qa-heading">Question Analytics</h2>
        {analytics.questions.length === 0 ? (
          <p className="empty-state">{TEXTS.noQuestions}</p>
        ) : (
          analytics.questions.map((q) => <QuestionCard key={q.id} q={q} total={analytics.total_applicants} />)
        )}
      </section>
    </div>
  );
}

mountIsland('job-insights', JobInsights);
