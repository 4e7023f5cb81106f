/**
 * Reports (/hr/reports, issue 31): a job (or all jobs) and a period of UTC days, the report from
 * GET /api/hr/reports/ and its workbook from /api/hr/reports/export/. The choice is kept in the
 * page's address, so a reload or a shared link shows the same report.
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { mountIsland } from './components/mount.js';
import { ApiError, hrJson } from './components/hr-api.js';
import { hrFetch } from './components/session.js';
import { exportUrl, saveResponse } from './job-insights/download.js';
import { errorLines, fieldErrors } from '../src/shared/api-errors.js';
import { fieldErrorsOf } from '../src/shared/field-errors.js';
import { reportQuerySchema } from '../src/reports/schema.js';
import type { DurationStats, Report } from '../src/reports/types.js';
import './hr-reports.css';

interface Props {
  jobs: { id: number; title: string; removed: boolean }[];
  from: string;
  to: string;
}

interface Choice {
  job_id: string;
  from: string;
  to: string;
}

const number = new Intl.NumberFormat();

/** Seconds as days (one decimal) or hours below a day; a dash for none. */
function duration(s: number | null): string {
  if (s === null) return '–';
  if (s < 86_400) return `${Math.round((s / 3600) * 10) / 10} h`;
  return `${Math.round((s / 86_400) * 10) / 10} d`;
}

/** Seconds as hours, one decimal; a dash for none. */
const hours = (s: number | null): string => (s === null ? '–' : `${Math.round((s / 3600) * 10) / 10} h`);

function say(message: string): void {
  const region = document.getElementById('reports-message');
  if (!region) return;
  region.textContent = '';
  setTimeout(() => (region.textContent = message), 50);
}

const queryOf = (c: Choice) => `?job_id=${encodeURIComponent(c.job_id)}&from=${encodeURIComponent(c.from)}&to=${encodeURIComponent(c.to)}`;

function initialChoice(props: Props): Choice {
  const q = new URLSearchParams(location.search);
  return { job_id: q.get('job_id') ?? '', from: q.get('from') ?? props.from, to: q.get('to') ?? props.to };
}

function Durations({
  label,
  d,
  countLabel = 'Count',
  format = duration,
}: {
  label: string;
  d: DurationStats;
  countLabel?: string;
  format?: (seconds: number | null) => string;
}) {
  return (
    <tr>
      <th scope="row">{label}</th>
      <td className="num" data-label={countLabel}>
        {number.format(d.count)}
      </td>
      <td className="num" data-label="Median">
        {format(d.median_seconds)}
      </td>
      <td className="num" data-label="p90">
        {format(d.p90_seconds)}
      </td>
    </tr>
  );
}

function Table({
  id,
  title,
  caption,
  head,
  children,
  empty,
}: {
  id: string;
  title: string;
  caption?: string;
  head: string[];
  children: React.ReactNode;
  empty: boolean;
}) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {caption && <p className="help-text">{caption}</p>}
      {empty ? (
        <p className="empty-state">None in this period.</p>
      ) : (
        <div className="table-wrap">
          <table className="data">
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                {head.map((h, i) => (
                  <th key={h} scope="col" className={i ? 'num' : undefined}>
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>{children}</tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function HrReports(props: Props) {
  const [draft, setDraft] = useState<Choice>(() => initialChoice(props));
  const [shown, setShown] = useState<Choice>(draft);
  const [report, setReport] = useState<Report | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async (c: Choice) => {
    setBusy(true);
    try {
      const r = await hrJson<Report>(`/api/hr/reports/${queryOf(c)}`);
      setReport(r);
      setErrors({});
      setProblem(null);
      history.replaceState(null, '', `${location.pathname}${queryOf({ ...c, from: r.from, to: r.to })}`);
      say(`Report for ${r.job ? r.job.title : 'all jobs'}, ${r.from} to ${r.to}: ${r.applications} applications.`);
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) {
        setErrors(fieldErrors(err.body));
        setProblem(null);
      } else
        setProblem(
          err instanceof ApiError
            ? errorLines(err.body).join(' ') || 'Could not load the report.'
            : 'Could not reach the server. Please try again.',
        );
    } finally {
      setBusy(false);
    }
  }, []);

  useEffect(() => {
    void load(shown);
  }, [load, shown]);

  function submit(e: FormEvent) {
    e.preventDefault();
    // The API's own rules, checked here first: a bad period is said beside its field without a request.
    const checked = reportQuerySchema(new Date().toISOString().slice(0, 10)).safeParse(draft);
    if (!checked.success) {
      setErrors(fieldErrors(fieldErrorsOf(checked.error.issues)));
      say('The report was not changed: check the period.');
      return;
    }
    setShown({ ...draft });
  }

  async function download() {
    try {
      const res = await hrFetch(exportUrl(`/api/hr/reports/export/${queryOf(shown)}`));
      if (!res.ok) throw new Error(`export answered ${res.status}`);
      const name = await saveResponse(res, 'report.xlsx');
      say(`Downloaded ${name}.`);
    } catch {
      setProblem('The workbook could not be made. Please try again.');
    }
  }

  const field = (name: keyof Choice, label: string, input: React.ReactNode) => (
    <div className="field">
      <label htmlFor={`report-${name}`}>{label}</label>
      {input}
      {errors[name] && (
        <p className="field-error" id={`report-${name}-error`}>
          {errors[name]}
        </p>
      )}
    </div>
  );
  const described = (name: keyof Choice) => (errors[name] ? { 'aria-invalid': true, 'aria-describedby': `report-${name}-error` } : {});
  const dayField = (name: 'from' | 'to', label: string) =>
    field(
      name,
      label,
      <input
        id={`report-${name}`}
        className="input"
        type="date"
        value={draft[name]}
        onChange={(e) => setDraft({ ...draft, [name]: e.target.value })}
        {...described(name)}
      />,
    );
  const r = report;

  return (
    <div className="reports" aria-busy={busy}>
      <form className="reports-filters" onSubmit={submit} noValidate>
        {field(
          'job_id',
          'Job',
          <select
            id="report-job_id"
            className="input"
            value={draft.job_id}
            onChange={(e) => setDraft({ ...draft, job_id: e.target.value })}
            {...described('job_id')}
          >
            <option value="">All jobs</option>
            {props.jobs.map((j) => (
              <option key={j.id} value={String(j.id)}>
                {j.removed ? `${j.title} (removed)` : j.title}
              </option>
            ))}
          </select>,
        )}
        {dayField('from', 'From (UTC day)')}
        {dayField('to', 'To (UTC day)')}
        <div className="actions">
          <button type="submit" className="btn btn-primary">
            Show report
          </button>
          <button type="button" className="btn btn-secondary" onClick={() => void download()} disabled={!r}>
            Export to Excel
          </button>
        </div>
      </form>
      {problem && (
        <p className="alert alert-error" role="alert">
          {problem}
        </p>
      )}
      {!r ? (
        <p className="help-text">Loading…</p>
      ) : (
        <div className="reports-body">
          <section aria-labelledby="summary">
            <h2 id="summary">
              {r.job ? r.job.title : 'All jobs'}, {r.from} to {r.to}
            </h2>
            <dl className="reports-figures">
              <div>
                <dt>Applications</dt>
                <dd>{number.format(r.applications)}</dd>
              </div>
              <div>
                <dt>Rejected</dt>
                <dd>{number.format(r.rejected)}</dd>
              </div>
              <div>
                <dt>Hired</dt>
                <dd>{number.format(r.time_to_hire.count)}</dd>
              </div>
              <div>
                <dt>Time to hire (median)</dt>
                <dd>{duration(r.time_to_hire.median_seconds)}</dd>
              </div>
              <div>
                <dt>Offers made / accepted</dt>
                <dd>
                  {number.format(r.offers.made)} / {number.format(r.offers.accepted)}
                </dd>
              </div>
            </dl>
            <p className="help-text">
              The applications counted are those made on these days; their stages, times and outcomes are followed to today.
            </p>
          </section>
          <div className="reports-grid">
            <Table id="by-source" title="Applications by source" head={['Source', 'Applications']} empty={!r.by_source.length}>
              {r.by_source.map((s) => (
                <tr key={s.source ?? ''}>
                  <th scope="row">{s.source ?? 'Direct'}</th>
                  <td className="num" data-label="Applications">
                    {number.format(s.applications)}
                  </td>
                </tr>
              ))}
            </Table>
            <Table id="by-stage" title="Where they are now" head={['Stage', 'Applications']} empty={!r.applications}>
              {r.by_stage.map((s) => (
                <tr key={s.name}>
                  <th scope="row">{s.name}</th>
                  <td className="num" data-label="Applications">
                    {number.format(s.applications)}
                  </td>
                </tr>
              ))}
              <tr>
                <th scope="row">Rejected</th>
                <td className="num" data-label="Applications">
                  {number.format(r.rejected)}
                </td>
              </tr>
            </Table>
          </div>
          <div className="reports-grid">
            <Table
              id="time-in-stage"
              title="Time in each stage"
              caption="Per stay that ended (moved on, rejected); stays still going are not counted."
              head={['Stage', 'Stays', 'Median', 'p90']}
              empty={!r.time_in_stage.length}
            >
              {r.time_in_stage.map((s) => (
                <Durations key={s.name} label={s.name} d={s} />
              ))}
              <Durations label="Time to hire" d={r.time_to_hire} />
            </Table>
            <Table
              id="time-to-schedule"
              title="Time to schedule"
              caption="From entering a stage to its first interview being booked (median hours), per stage."
              head={['Stage', 'Booked', 'Median', 'p90']}
              empty={!r.time_to_schedule.some((s) => s.count > 0)}
            >
              {r.time_to_schedule.map((s) => (
                <Durations key={s.name} label={s.name} d={s} countLabel="Booked" format={hours} />
              ))}
            </Table>
            <Table
              id="pass-through"
              title="Pass-through per stage"
              caption="Of the applications that reached a stage, how many reached a later one."
              head={['Stage', 'Reached', 'Passed', 'Rate']}
              empty={!r.applications}
            >
              {r.pass_through.map((s) => (
                <tr key={s.name}>
                  <th scope="row">{s.name}</th>
                  <td className="num" data-label="Reached">
                    {number.format(s.reached)}
                  </td>
                  <td className="num" data-label="Passed">
                    {number.format(s.passed)}
                  </td>
                  <td className="num" data-label="Rate">
                    {s.rate === null ? '–' : `${s.rate}%`}
                  </td>
                </tr>
              ))}
            </Table>
          </div>
          <div className="reports-grid">
            <Table id="reasons" title="Rejection reasons" head={['Reason', 'Applications']} empty={!r.rejection_reasons.length}>
              {r.rejection_reasons.map((x) => (
                <tr key={x.reason}>
                  <th scope="row">{x.reason}</th>
                  <td className="num" data-label="Applications">
                    {number.format(x.applications)}
                  </td>
                </tr>
              ))}
            </Table>
            <Table id="funnel" title="From job page to Hired" caption={r.funnel.anchor} head={['Step', 'Count']} empty={false}>
              {r.funnel.lines.map((l) => (
                <tr key={l.key} className={l.key === 'applications' ? 'funnel-anchor' : undefined}>
                  <th scope="row">{l.label}</th>
                  <td className="num" data-label="Count">
                    {number.format(l.count)}
                  </td>
                </tr>
              ))}
            </Table>
          </div>
          <div className="reports-grid">
            <Table
              id="scorecards-on-time"
              title="Scorecards submitted on time"
              caption="A scorecard is due 24 hours after its interview (or after it was asked for, when no time was given)."
              head={['Scorecards', 'Count']}
              empty={!r.scorecards.requested}
            >
              {(
                [
                  ['Asked for', r.scorecards.requested],
                  ['Submitted on time', r.scorecards.on_time],
                  ['Submitted late', r.scorecards.late],
                  ['Overdue', r.scorecards.overdue],
                  ['Not yet due', r.scorecards.waiting],
                ] as const
              ).map(([label, n]) => (
                <tr key={label}>
                  <th scope="row">{label}</th>
                  <td className="num" data-label="Count">
                    {number.format(n)}
                  </td>
                </tr>
              ))}
              <tr>
                <th scope="row">On time, of those due</th>
                <td className="num" data-label="Count">
                  {r.scorecards.on_time_rate === null ? '–' : `${r.scorecards.on_time_rate}%`}
                </td>
              </tr>
            </Table>
          </div>
          <section aria-labelledby="predictors">
            <h2 id="predictors">Which kit attributes go with the outcome</h2>
            <p className="help-text">
              Per job with at least {r.predictors.min_decisions} decided candidates (hired or rejected) with submitted scorecards: each
              attribute's average rating (1–4) for hired and for rejected candidates, and how often two interviewers rating the same
              candidate were within one point. Never shown per candidate.
            </p>
            {r.predictors.jobs.map((j) => (
              <div className="table-wrap" key={j.job_id}>
                <table className="data">
                  <caption>
                    {j.title}: {j.hired} hired, {j.rejected} rejected
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">Attribute</th>
                      <th scope="col" className="num">
                        Hired avg.
                      </th>
                      <th scope="col" className="num">
                        Rejected avg.
                      </th>
                      <th scope="col" className="num">
                        Difference
                      </th>
                      <th scope="col" className="num">
                        Agreement
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {j.attributes.map((a) => (
                      <tr key={a.name}>
                        <th scope="row">{a.name}</th>
                        <td className="num" data-label="Hired avg.">
                          {a.hired_average ?? '–'}
                        </td>
                        <td className="num" data-label="Rejected avg.">
                          {a.rejected_average ?? '–'}
                        </td>
                        <td className="num" data-label="Difference">
                          {a.difference === null ? '–' : a.difference > 0 ? `+${a.difference}` : a.difference}
                        </td>
                        <td className="num" data-label="Agreement">
                          {a.agreement === null ? '–' : `${a.agreement}% of ${a.pairs} pairs`}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ))}
            {r.predictors.below_minimum.length > 0 && (
              <p className="help-text">
                Not enough decisions yet:{' '}
                {r.predictors.below_minimum.map((j) => `${j.title} (${j.decisions} of ${r.predictors.min_decisions})`).join(', ')}.
              </p>
            )}
            {!r.predictors.jobs.length && !r.predictors.below_minimum.length && (
              <p className="empty-state">No submitted scorecards on decided candidates in this period.</p>
            )}
          </section>
          <p className="help-text">
            All-time job page views (the job counter, not limited to the period): {number.format(r.funnel.all_time_views)}.
          </p>
        </div>
      )}
    </div>
  );
}

mountIsland('hr-reports', HrReports);
