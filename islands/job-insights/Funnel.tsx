/**
 * The job's apply funnel (GET /api/hr/jobs/{id}/funnel/): views, Apply clicks, each wizard step
 * reached and completed, submitted, with the drop from the line before, for all devices or one
 * device class, over a period. A real table carries every figure as text; each line's bar (its
 * share of the views) is decoration.
 */
import { useEffect, useState } from 'react';
import { hrFetch } from '../components/session.js';
import type { Device, FunnelFigures, JobFunnel } from '../../src/funnel/types.js';

const FUNNEL_TEXTS = {
  heading: 'Apply Funnel',
  loading: 'Loading the funnel…',
  failed: 'The funnel could not be loaded. Please reload the page.',
  empty: 'Nothing counted in this period yet.',
  direct: (n: string) => `Applications without the wizard (the API, other sites' forms), not in the funnel: ${n}`,
  note: 'Counted without cookies or personal data; visitors whose browser sends Do Not Track or Global Privacy Control are left out.',
} as const;

const PERIODS = [7, 30, 90, 365] as const;
type View = 'all' | Device;
const VIEWS: { value: View; label: string }[] = [
  { value: 'all', label: 'All devices' },
  { value: 'phone', label: 'Phone' },
  { value: 'desktop', label: 'Desktop' },
];

const grouped = new Intl.NumberFormat();
const percentFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

function FunnelTable({ figures, caption }: { figures: FunnelFigures; caption: string }) {
  const top = Math.max(1, ...figures.lines.map((l) => l.count));
  return (
    <div className="table-wrap">
      <table className="data funnel-table">
        <caption className="funnel-caption">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Stage</th>
            <th scope="col" className="num">
              Count
            </th>
            <th scope="col" className="num">
              Drop
            </th>
            <th scope="col" className="num">
              Drop %
            </th>
            <th scope="col" className="funnel-bar-col">
              <span className="visually-hidden">Share of the largest count</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {figures.lines.map((line) => (
            <tr key={line.key} data-key={line.key}>
              <th scope="row" data-label="Stage">
                {line.label}
              </th>
              <td className="num" data-label="Count">
                {grouped.format(line.count)}
              </td>
              <td className="num" data-label="Drop">
                {line.drop === null ? '–' : grouped.format(line.drop)}
              </td>
              <td className="num" data-label="Drop %">
                {line.drop_percent === null ? '–' : `${percentFormat.format(line.drop_percent)}%`}
              </td>
              <td className="funnel-bar-col" aria-hidden="true">
                <span className="funnel-bar">
                  <span className="funnel-bar-fill" style={{ width: `${Math.min(100, Math.max(0, (line.count / top) * 100))}%` }} />
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function Funnel({ jobId }: { jobId: number }) {
  const [days, setDays] = useState<number>(30);
  const [view, setView] = useState<View>('all');
  const [funnel, setFunnel] = useState<JobFunnel | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let current = true;
    setFailed(false);
    hrFetch(`/api/hr/jobs/${jobId}/funnel/?days=${days}`)
      .then(async (res) => {
        if (!res.ok) throw new Error(`funnel answered ${res.status}`);
        const body = (await res.json()) as JobFunnel;
        if (current) setFunnel(body);
      })
      .catch(() => current && setFailed(true));
    return () => {
      current = false;
    };
  }, [jobId, days]);

  const figures = funnel ? (view === 'all' ? funnel.overall : funnel.devices[view]) : null;
  const viewLabel = VIEWS.find((v) => v.value === view)!.label;
  return (
    <section className="card funnel" aria-labelledby="funnel-heading">
      <h2 id="funnel-heading">{FUNNEL_TEXTS.heading}</h2>
      <p className="funnel-note">{FUNNEL_TEXTS.note}</p>
      <div className="funnel-controls">
        <label className="funnel-period">
          Period{' '}
          <select value={days} onChange={(e) => setDays(Number(e.target.value))}>
            {PERIODS.map((d) => (
              <option key={d} value={d}>
                Last {d} days
              </option>
            ))}
          </select>
        </label>
        <fieldset className="funnel-devices">
          <legend>Device</legend>
          {VIEWS.map((v) => (
            <label key={v.value}>
              <input type="radio" name="funnel-device" value={v.value} checked={view === v.value} onChange={() => setView(v.value)} />{' '}
              {v.label}
            </label>
          ))}
        </fieldset>
      </div>
      {failed ? (
        <div className="alert alert-error" role="alert">
          {FUNNEL_TEXTS.failed}
        </div>
      ) : !figures || !funnel ? (
        <p aria-live="polite">{FUNNEL_TEXTS.loading}</p>
      ) : (
        <>
          {figures.views === 0 && figures.lines.every((l) => l.count === 0) && <p className="qa-empty">{FUNNEL_TEXTS.empty}</p>}
          <FunnelTable figures={figures} caption={`${viewLabel}, ${funnel.from} to ${funnel.to} (UTC)`} />
          <p className="funnel-direct" data-testid="funnel-direct">
            {FUNNEL_TEXTS.direct(grouped.format(figures.submitted_direct))}
          </p>
        </>
      )}
    </section>
  );
}
