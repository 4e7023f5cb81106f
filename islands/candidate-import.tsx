/**
 * The candidate import page (/hr/settings/import, admins; issue 35): a CSV file, the job every row
 * goes to (or each row's own), "Check only" (a dry run) and "Import the rows that pass"; the
 * report after: counts, then the merged and refused rows with why.
 */
import { type FormEvent, useId, useRef, useState } from 'react';
import { mountIsland } from './components/mount.js';
import { hrFetch } from './components/session.js';
import { errorLines } from '../src/shared/api-errors.js';
import type { ImportReport } from '../src/imports/types.js';
import './candidate-import.css';

type Props = { jobs: { id: number; title: string; public_id: string }[] };

function CandidateImport({ jobs }: Props) {
  const fileRef = useRef<HTMLInputElement>(null);
  const [jobId, setJobId] = useState('');
  const [dryRun, setDryRun] = useState(true);
  const [partial, setPartial] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const ids = useId();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const file = fileRef.current?.files?.[0];
    if (!file) return setProblem('Choose a CSV file (at most 20 MB).');
    setBusy(true);
    setProblem(null);
    const body = new FormData();
    body.set('job_id', jobId);
    body.set('dry_run', String(dryRun));
    body.set('partial', String(partial));
    body.set('file', file);
    try {
      const res = await hrFetch('/api/hr/imports/candidates/', { method: 'POST', body });
      const json = await res.json().catch(() => null);
      if (res.status === 401) return setBusy(false);
      if (!res.ok) {
        setReport(null);
        setProblem(errorLines(json).join(' ') || 'The import failed. Please try again.');
      } else setReport(json as ImportReport);
    } catch {
      setProblem('The server could not be reached. Please try again.');
    }
    setBusy(false);
  };

  const headline = (r: ImportReport) =>
    r.written
      ? `Imported ${r.imported.length} of ${r.rows} rows as new applications; ${r.merged.length} merged into existing ones; ${r.refused.length} refused.`
      : r.dry_run
        ? `Checked ${r.rows} rows (nothing written): ${r.imported.length} would be imported, ${r.merged.length} merged, ${r.refused.length} refused.`
        : `Nothing was imported: ${r.refused.length} of ${r.rows} rows were refused. Fix them, or import the rows that pass.`;

  return (
    <div className="candidate-import">
      <form onSubmit={submit} noValidate className="card">
        <div className="field">
          <label htmlFor={`${ids}-file`}>CSV file</label>
          <input id={`${ids}-file`} ref={fileRef} type="file" accept=".csv,text/csv" />
        </div>
        <div className="field">
          <label htmlFor={`${ids}-job`}>Job</label>
          <select id={`${ids}-job`} value={jobId} onChange={(e) => setJobId(e.target.value)}>
            <option value="">Each row's “Job” column</option>
            {jobs.map((j) => (
              <option key={j.id} value={String(j.id)}>
                {j.title} ({j.public_id})
              </option>
            ))}
          </select>
        </div>
        <div className="field checkbox-field">
          <label>
            <input type="checkbox" checked={dryRun} onChange={(e) => setDryRun(e.target.checked)} /> Check only (write nothing)
          </label>
        </div>
        <div className="field checkbox-field">
          <label>
            <input type="checkbox" checked={partial} onChange={(e) => setPartial(e.target.checked)} /> Import the rows that pass even if
            others are refused
          </label>
        </div>
        <button type="submit" className="btn btn-primary" aria-busy={busy || undefined}>
          {dryRun ? 'Check the file' : 'Import'}
        </button>
      </form>
      {problem && (
        <div className="alert alert-error" role="alert">
          {problem}
        </div>
      )}
      <div aria-live="polite">
        {report && (
          <section className="import-report" aria-labelledby={`${ids}-report`}>
            <h2 id={`${ids}-report`}>Report</h2>
            <p className={report.refused.length && !report.written ? 'alert alert-warning' : 'alert alert-success'}>{headline(report)}</p>
            {report.merged.length > 0 && (
              <>
                <h3>Merged</h3>
                <ul>
                  {report.merged.map((r) => (
                    <li key={r.line}>
                      Line {r.line} ({r.email}): into <a href={`/hr/applicants/${r.application_id}`}>application #{r.application_id}</a> for{' '}
                      {r.job}
                    </li>
                  ))}
                </ul>
              </>
            )}
            {report.refused.length > 0 && (
              <>
                <h3>Refused</h3>
                <ul>
                  {report.refused.map((r) => (
                    <li key={r.line}>
                      Line {r.line} ({r.email || 'no email'}): {r.reason}
                    </li>
                  ))}
                </ul>
              </>
            )}
            {report.imported.some((r) => r.note) && (
              <>
                <h3>Notes</h3>
                <ul>
                  {report.imported
                    .filter((r) => r.note)
                    .map((r) => (
                      <li key={r.line}>
                        Line {r.line} ({r.email}): {r.note}
                      </li>
                    ))}
                </ul>
              </>
            )}
          </section>
        )}
      </div>
    </div>
  );
}

mountIsland('candidate-import', CandidateImport);
