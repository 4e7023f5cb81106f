/**
 * Sources (/hr/sources, issue 21): applications by source over a period, each job's views,
 * applications, conversion and sources, and the tracking links (create, copy, remove) from
 * GET /api/hr/sources/ and /api/hr/sources/links/. What changed is said in the page's status region.
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { mountIsland } from './components/mount.js';
import { ApiError, hrJson } from './components/hr-api.js';
import { errorLines, fieldErrors } from '../src/shared/api-errors.js';
import { CAMPAIGN_MAX_LENGTH } from '../src/shared/campaign.js';
import { LINK_NAME_MAX_LENGTH } from '../src/sources/schema.js';
import type { SourceCount, SourcesReport, TrackingLink } from '../src/sources/types.js';
import './hr-sources.css';

interface Props {
  jobs: { id: number; title: string }[];
  publicBaseUrl: string;
}

const PERIODS = [
  { value: '', label: 'All time' },
  { value: '30', label: 'Last 30 days' },
  { value: '90', label: 'Last 90 days' },
  { value: '365', label: 'Last 12 months' },
];

const number = new Intl.NumberFormat();
const sourceName = (s: string | null) => s ?? 'Direct';
const share = (n: number, total: number) => (total > 0 ? `${Math.round((n / total) * 1000) / 10}%` : '–');

function say(message: string): void {
  const region = document.getElementById('sources-message');
  if (!region) return;
  region.textContent = '';
  setTimeout(() => (region.textContent = message), 50);
}

const EMPTY_LINK = { name: '', source: '', medium: '', campaign: '', job_id: '', slug: '' };

function HrSources({ jobs, publicBaseUrl }: Props) {
  const [days, setDays] = useState('');
  const [report, setReport] = useState<SourcesReport | null>(null);
  const [links, setLinks] = useState<TrackingLink[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [draft, setDraft] = useState(EMPTY_LINK);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);

  const load = useCallback(async () => {
    try {
      const [r, l] = await Promise.all([
        hrJson<SourcesReport>(`/api/hr/sources/${days ? `?days=${days}` : ''}`),
        hrJson<{ results: TrackingLink[] }>('/api/hr/sources/links/'),
      ]);
      setReport(r);
      setLinks(l.results);
      setProblem(null);
    } catch (err) {
      setProblem(
        err instanceof ApiError
          ? errorLines(err.body).join(' ') || 'Could not load the sources.'
          : 'Could not reach the server. Please try again.',
      );
    }
  }, [days]);

  useEffect(() => {
    void load();
  }, [load]);

  async function create(e: FormEvent) {
    e.preventDefault();
    setPending(true);
    try {
      const link = await hrJson<TrackingLink>('/api/hr/sources/links/', {
        method: 'POST',
        body: { ...draft, job_id: draft.job_id || null },
      });
      setDraft(EMPTY_LINK);
      setErrors({});
      say(`Tracking link created: ${link.url}`);
      await load();
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) {
        const f = fieldErrors(err.body);
        setErrors(Object.fromEntries(Object.entries(f).map(([k, v]) => [k, v[0]])));
        say('The link was not created. Please fix the highlighted fields.');
      } else say(err instanceof ApiError ? errorLines(err.body).join(' ') : 'Could not reach the server. Please try again.');
    } finally {
      setPending(false);
    }
  }

  async function remove(link: TrackingLink) {
    if (!window.confirm(`Remove the tracking link "${link.name}"? Applications keep the source they came with.`)) return;
    try {
      await hrJson(`/api/hr/sources/links/${link.id}/`, { method: 'DELETE' });
      say(`Tracking link removed: ${link.name}`);
      await load();
    } catch (err) {
      say(err instanceof ApiError ? errorLines(err.body).join(' ') : 'Could not reach the server. Please try again.');
    }
  }

  async function copy(link: TrackingLink) {
    try {
      await navigator.clipboard.writeText(link.url);
      say(`Copied ${link.url}`);
    } catch {
      say(`Copy this link: ${link.url}`);
    }
  }

  const field = (name: keyof typeof EMPTY_LINK, label: string, opts: { required?: boolean; maxLength?: number; hint?: string } = {}) => (
    <div className="field">
      <label htmlFor={`link-${name}`}>
        {label}
        {opts.required && <span aria-hidden="true"> *</span>}
      </label>
      <input
        type="text"
        id={`link-${name}`}
        value={draft[name]}
        maxLength={opts.maxLength}
        required={opts.required}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={
          [errors[name] ? `link-${name}-error` : '', opts.hint ? `link-${name}-hint` : ''].filter(Boolean).join(' ') || undefined
        }
        onChange={(e) => setDraft({ ...draft, [name]: e.target.value })}
      />
      {opts.hint && (
        <p className="help-text" id={`link-${name}-hint`}>
          {opts.hint}
        </p>
      )}
      {errors[name] && (
        <p className="field-error" id={`link-${name}-error`}>
          {errors[name]}
        </p>
      )}
    </div>
  );

  const total = report ? report.totals.reduce((sum, t) => sum + t.applications, 0) : 0;
  const sourcesLine = (list: SourceCount[]) =>
    list.map((s) => `${sourceName(s.source)} ${number.format(s.applications)}`).join(' · ') || '–';

  // Until the first answer, only the server's own "Loading…" line: the page is then written in one
  // go, so nothing already shown moves (the island's box keeps the footer below the fold meanwhile).
  if (!report && !links && !problem) return <p className="help-text">Loading…</p>;

  return (
    <div className="sources">
      {problem && (
        <p className="alert alert-error" role="alert">
          {problem}
        </p>
      )}
      <div className="field sources-period">
        <label htmlFor="sources-days">Period</label>
        <select id="sources-days" value={days} onChange={(e) => setDays(e.target.value)}>
          {PERIODS.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </select>
      </div>

      <section aria-labelledby="by-source">
        <h2 id="by-source">Applications by source</h2>
        {report && report.totals.length === 0 && <p className="empty-state">No applications in this period.</p>}
        {report && report.totals.length > 0 && (
          <div className="table-wrap">
            <table className="data">
              <caption className="visually-hidden">Applications by source</caption>
              <thead>
                <tr>
                  <th scope="col">Source</th>
                  <th scope="col" className="num">
                    Applications
                  </th>
                  <th scope="col" className="num">
                    Share
                  </th>
                </tr>
              </thead>
              <tbody>
                {report.totals.map((t) => (
                  <tr key={t.source ?? ''}>
                    <th scope="row">{sourceName(t.source)}</th>
                    <td className="num" data-label="Applications">
                      {number.format(t.applications)}
                    </td>
                    <td className="num" data-label="Share">
                      {share(t.applications, total)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section aria-labelledby="by-job">
        <h2 id="by-job">By job</h2>
        <p className="help-text">
          Views: since each job was posted. Conversion: of the job page visits counted in the period, the share that sent an application
          from the form (visitors who refuse tracking are in neither).
        </p>
        {report && report.jobs.length === 0 && <p className="empty-state">No views or applications yet.</p>}
        {report && report.jobs.length > 0 && (
          <div className="table-wrap">
            <table className="data">
              <caption className="visually-hidden">Views, applications and sources by job</caption>
              <thead>
                <tr>
                  <th scope="col">Job</th>
                  <th scope="col" className="num">
                    Views
                  </th>
                  <th scope="col" className="num">
                    Applications
                  </th>
                  <th scope="col" className="num">
                    Conversion
                  </th>
                  <th scope="col">Sources</th>
                </tr>
              </thead>
              <tbody>
                {report.jobs.map((j) => (
                  <tr key={j.job_id}>
                    <th scope="row">
                      <a href={`/hr/jobs/${j.job_id}/edit`}>{j.title}</a>
                      {/* Two jobs with one title are told apart by their public ids. */}
                      {report.jobs.some((o) => o.job_id !== j.job_id && o.title === j.title) && (
                        <small className="job-public-id"> ({j.public_id})</small>
                      )}
                    </th>
                    <td className="num" data-label="Views">
                      {number.format(j.views)}
                    </td>
                    <td className="num" data-label="Applications">
                      {number.format(j.applications)}
                    </td>
                    <td className="num" data-label="Conversion">
                      {j.conversion === null ? '–' : `${j.conversion}%`}
                    </td>
                    <td data-label="Sources">{sourcesLine(j.sources)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section aria-labelledby="links-heading">
        <h2 id="links-heading">Tracking links</h2>
        <p className="help-text">
          A link per channel or per referring employee. Share it; whoever follows it and applies within 30 days is counted for it.
        </p>
        <form className="link-form" onSubmit={create} noValidate>
          <div className="grid-3">
            {field('name', 'Name', { required: true, maxLength: LINK_NAME_MAX_LENGTH, hint: 'For you, e.g. "Referral: Priya Sharma".' })}
            {field('source', 'Source', { required: true, maxLength: CAMPAIGN_MAX_LENGTH, hint: 'e.g. linkedin or referral.' })}
            {field('medium', 'Medium', { maxLength: CAMPAIGN_MAX_LENGTH })}
            {field('campaign', 'Campaign', { maxLength: CAMPAIGN_MAX_LENGTH })}
            <div className="field">
              <label htmlFor="link-job_id">Leads to</label>
              <select
                id="link-job_id"
                value={draft.job_id}
                aria-invalid={errors.job_id ? true : undefined}
                aria-describedby={errors.job_id ? 'link-job_id-error' : undefined}
                onChange={(e) => setDraft({ ...draft, job_id: e.target.value })}
              >
                <option value="">The job list</option>
                {jobs.map((j) => (
                  <option key={j.id} value={String(j.id)}>
                    {j.title}
                  </option>
                ))}
              </select>
              {errors.job_id && (
                <p className="field-error" id="link-job_id-error">
                  {errors.job_id}
                </p>
              )}
            </div>
            {field('slug', 'Link name (optional)', { maxLength: 64, hint: `${publicBaseUrl}/go/… (made from the name when empty)` })}
          </div>
          <button type="submit" className="btn btn-primary" disabled={pending}>
            Create link
          </button>
        </form>
        {links && links.length === 0 && <p className="empty-state">No tracking links yet.</p>}
        {links && links.length > 0 && (
          <div className="table-wrap">
            <table className="data links-table">
              <caption className="visually-hidden">Tracking links</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Link</th>
                  <th scope="col">Source</th>
                  <th scope="col">Leads to</th>
                  <th scope="col" className="num">
                    Clicks
                  </th>
                  <th scope="col" className="num">
                    Applications
                  </th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {links.map((l) => (
                  <tr key={l.id}>
                    <th scope="row">{l.name}</th>
                    <td data-label="Link">
                      <code>{l.url}</code>
                    </td>
                    <td data-label="Source">{[l.source, l.medium, l.campaign].filter(Boolean).join(' / ')}</td>
                    <td data-label="Leads to">{l.job ? l.job.title : 'The job list'}</td>
                    <td className="num" data-label="Clicks">
                      {number.format(l.clicks)}
                    </td>
                    <td className="num" data-label="Applications">
                      {number.format(l.applications)}
                    </td>
                    <td data-label="Actions">
                      <div className="row-actions">
                        <button type="button" className="btn btn-secondary btn-sm" onClick={() => void copy(l)}>
                          Copy<span className="visually-hidden"> link {l.name}</span>
                        </button>
                        <button type="button" className="btn btn-danger btn-sm" onClick={() => void remove(l)}>
                          Remove<span className="visually-hidden"> link {l.name}</span>
                        </button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}

mountIsland('hr-sources', HrSources);
