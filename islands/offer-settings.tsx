/**
 * The Offers settings page (/hr/settings/offers, admins, issue 34): the offer templates (a name and
 * a letter written in the rich-text editor, with the email templates' variables and the offer's;
 * new, edit, delete, the last one kept) and the default approval chain (any N of the chosen
 * approvers or of the admins, or the chosen approvers in order; approval only when the pay is
 * outside the job's range). Checked first with the API's own schemas (src/offers/schema.ts).
 */
import { type FormEvent, useId, useState } from 'react';
import { mountIsland } from './components/mount.js';
import { ApiError, hrJson } from './components/hr-api.js';
import { RichTextEditor } from './job-editor/rich-text-editor.js';
import { errorLines, fieldErrorMessages } from '../src/shared/api-errors.js';
import { fieldErrorsOf } from '../src/shared/field-errors.js';
import { OFFER_LIMITS, chainSchema, templateSchema } from '../src/offers/schema.js';
import type { ApprovalChain, ApprovalMode, OfferTemplate } from '../src/offers/types.js';
import './applicant-offer.css';
import './emails.css';

interface Props {
  templates: OfferTemplate[];
  chain: ApprovalChain;
  approvers: { id: number; username: string; role: string }[];
  jobs: { id: number; title: string }[];
  variables: string[];
}

const ROLE_WORDS: Record<string, string> = { admin: 'admin', recruiter: 'recruiter', hiring_manager: 'hiring manager' };
const failure = (err: unknown) =>
  err instanceof ApiError ? errorLines(err.body as never) : ['The server could not be reached. Please try again.'];

function TemplateEditor({
  template,
  variables,
  onSaved,
  onCancel,
}: {
  template: OfferTemplate | null;
  variables: string[];
  onSaved: (t: OfferTemplate, created: boolean) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [name, setName] = useState(template?.name ?? '');
  const [body, setBody] = useState(template?.body ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const parsed = templateSchema(variables).safeParse({ name, body });
    if (!parsed.success) {
      setErrors(Object.fromEntries(Object.entries(fieldErrorsOf(parsed.error.issues)).map(([k, v]) => [k, v.join(' ')])));
      return;
    }
    setErrors({});
    setProblem(null);
    setBusy(true);
    try {
      const saved = await hrJson<OfferTemplate>(template ? `/api/hr/offer-templates/${template.id}/` : '/api/hr/offer-templates/', {
        method: template ? 'PUT' : 'POST',
        body: { name, body },
      });
      onSaved(saved, !template);
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.status === 401) return;
      const fields = err instanceof ApiError && err.status === 400 ? fieldErrorMessages(err.body as never) : {};
      if (Object.keys(fields).length) setErrors(fields);
      else setProblem(failure(err));
    }
  };

  return (
    <form className="card email-form" noValidate onSubmit={(e) => void submit(e)} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{template ? `Edit “${template.name}”` : 'New offer template'}</h2>
      {problem && (
        <div className="alert alert-error" role="alert">
          <div>The template was not saved.</div>
          {problem.map((l) => (
            <div key={l}>{l}</div>
          ))}
        </div>
      )}
      <div className="field">
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          id={`${id}-name`}
          type="text"
          maxLength={OFFER_LIMITS.templateName}
          value={name}
          onChange={(e) => setName(e.target.value)}
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={errors.name ? `${id}-name-err` : undefined}
        />
        {errors.name && (
          <p id={`${id}-name-err`} className="field-error">
            {errors.name}
          </p>
        )}
      </div>
      <RichTextEditor id="offer-template-body" label="Letter" value={body} onChange={setBody} required error={errors.body} />
      <p className="help-text">Variables: {variables.map((v) => `{${v}}`).join(', ')}.</p>
      <div className="email-actions">
        <button type="submit" className="btn btn-primary" aria-busy={busy} disabled={busy}>
          {busy ? 'Saving…' : 'Save template'}
        </button>
        <button type="button" className="btn btn-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function ChainForm({
  chain,
  approvers,
  title,
  onReset,
  onSaved,
}: {
  chain: ApprovalChain;
  approvers: Props['approvers'];
  title: string;
  /** A job's chain: put the job back on the default chain. */
  onReset?: () => void;
  onSaved?: () => void;
}) {
  const id = useId();
  const url = chain.job_id === null ? '/api/hr/offer-approval-chains/default/' : `/api/hr/jobs/${chain.job_id}/offer-approval-chain/`;
  const [mode, setMode] = useState<ApprovalMode>(chain.mode);
  const [anyAdmin, setAnyAdmin] = useState(chain.approver_ids === null);
  const [chosen, setChosen] = useState<number[]>(chain.approver_ids ?? []);
  const [required, setRequired] = useState(String(chain.required));
  const [onlyOut, setOnlyOut] = useState(chain.only_out_of_range);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const body = {
      mode,
      approver_ids: mode === 'ANY' && anyAdmin ? null : chosen,
      required: mode === 'ANY' ? Number(required) : chosen.length || 1,
      only_out_of_range: onlyOut,
    };
    const parsed = chainSchema().safeParse(body);
    if (!parsed.success) {
      setErrors(Object.fromEntries(Object.entries(fieldErrorsOf(parsed.error.issues)).map(([k, v]) => [k.split('.')[0], v.join(' ')])));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await hrJson<ApprovalChain>(url, { method: 'PUT', body });
      setMessage('Approval chain saved.');
      onSaved?.();
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) {
        const fields = err instanceof ApiError && err.status === 400 ? fieldErrorMessages(err.body as never) : {};
        if (Object.keys(fields).length) setErrors(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k.split('.')[0], v])));
        else setMessage(failure(err).join(' '));
      }
    }
    setBusy(false);
  };
  const toggle = (userId: number, on: boolean) =>
    setChosen((list) => (on ? [...list.filter((x) => x !== userId), userId] : list.filter((x) => x !== userId)));

  return (
    <form className="card email-form" noValidate onSubmit={(e) => void submit(e)} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {chain.inherited && <p className="help-text">This job uses the default chain; saving gives it its own.</p>}
      <div className="emails-message" role="status" aria-live="polite">
        {message}
      </div>
      <fieldset className="remind-times">
        <legend>Who approves</legend>
        <label className="offer-choice">
          <input type="radio" name={`${id}-mode`} checked={mode === 'ANY'} onChange={() => setMode('ANY')} /> Any of them, this many
          approvals
        </label>
        <label className="offer-choice">
          <input type="radio" name={`${id}-mode`} checked={mode === 'ORDER'} onChange={() => setMode('ORDER')} /> Each of them, in the order
          chosen
        </label>
      </fieldset>
      {mode === 'ANY' && (
        <>
          <div className="field">
            <label htmlFor={`${id}-required`}>Approvals needed</label>
            <input
              id={`${id}-required`}
              type="number"
              min={1}
              max={20}
              value={required}
              onChange={(e) => setRequired(e.target.value)}
              aria-invalid={errors.required ? true : undefined}
              aria-describedby={errors.required ? `${id}-required-err` : undefined}
            />
            {errors.required && (
              <p id={`${id}-required-err`} className="field-error">
                {errors.required}
              </p>
            )}
          </div>
          <label className="offer-choice">
            <input type="checkbox" checked={anyAdmin} onChange={(e) => setAnyAdmin(e.target.checked)} /> Any admin
          </label>
        </>
      )}
      {(mode === 'ORDER' || !anyAdmin) && (
        <fieldset className="remind-times" aria-describedby={errors.approver_ids ? `${id}-approvers-err` : undefined}>
          <legend>Approvers{mode === 'ORDER' ? ' (in the order ticked)' : ''}</legend>
          {approvers.map((u) => (
            <label key={u.id} className="offer-choice">
              <input type="checkbox" checked={chosen.includes(u.id)} onChange={(e) => toggle(u.id, e.target.checked)} /> {u.username} (
              {ROLE_WORDS[u.role] ?? u.role}){mode === 'ORDER' && chosen.includes(u.id) ? `: ${chosen.indexOf(u.id) + 1}` : ''}
            </label>
          ))}
          {errors.approver_ids && (
            <p id={`${id}-approvers-err`} className="field-error">
              {errors.approver_ids}
            </p>
          )}
        </fieldset>
      )}
      <label className="offer-choice">
        <input type="checkbox" checked={onlyOut} onChange={(e) => setOnlyOut(e.target.checked)} /> Approval needed only when the pay is
        outside the job's range
      </label>
      <div className="email-actions">
        <button type="submit" className="btn btn-primary" aria-busy={busy} disabled={busy}>
          {busy ? 'Saving…' : 'Save the approval chain'}
        </button>
        {onReset && !chain.inherited && (
          <button type="button" className="btn btn-secondary" disabled={busy} onClick={onReset}>
            Use the default chain
          </button>
        )}
      </div>
    </form>
  );
}

/** A job's own chain: chosen from the jobs, read, saved or put back on the default. */
function JobChain({ jobs, approvers }: { jobs: Props['jobs']; approvers: Props['approvers'] }) {
  const id = useId();
  const [jobId, setJobId] = useState('');
  const [chain, setChain] = useState<ApprovalChain | null>(null);
  const [message, setMessage] = useState('');
  const [version, setVersion] = useState(0);
  const load = async (value: string, note = '') => {
    setJobId(value);
    setChain(null);
    setMessage(note);
    if (!value) return;
    try {
      setChain(await hrJson<ApprovalChain>(`/api/hr/jobs/${value}/offer-approval-chain/`));
      setVersion((v) => v + 1);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) setMessage(failure(err).join(' '));
    }
  };
  const reset = async () => {
    try {
      await hrJson(`/api/hr/jobs/${jobId}/offer-approval-chain/`, { method: 'DELETE' });
      await load(jobId, 'The job uses the default chain again.');
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) setMessage(failure(err).join(' '));
    }
  };
  if (!jobs.length) return null;
  return (
    <div className="card email-form">
      <h2>A job's own approval chain</h2>
      <div className="field">
        <label htmlFor={`${id}-job`}>Job</label>
        <select id={`${id}-job`} value={jobId} onChange={(e) => void load(e.target.value)}>
          <option value="">Choose a job…</option>
          {jobs.map((j) => (
            <option key={j.id} value={j.id}>
              {j.title}
            </option>
          ))}
        </select>
      </div>
      <div className="emails-message" role="status" aria-live="polite">
        {message}
      </div>
      {chain && (
        <ChainForm
          key={`${jobId}-${version}`}
          chain={chain}
          approvers={approvers}
          title={`Approval chain of “${jobs.find((j) => String(j.id) === jobId)?.title ?? ''}”`}
          onReset={() => void reset()}
          onSaved={() => void load(jobId, 'Approval chain saved.')}
        />
      )}
    </div>
  );
}

function OfferSettings({ templates: initial, chain, approvers, jobs, variables }: Props) {
  const [list, setList] = useState(initial);
  const [editing, setEditing] = useState<OfferTemplate | 'new' | null>(null);
  const [message, setMessage] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const remove = async (t: OfferTemplate) => {
    setProblem(null);
    try {
      await hrJson(`/api/hr/offer-templates/${t.id}/`, { method: 'DELETE' });
      setList(list.filter((x) => x.id !== t.id));
      setMessage(`Template “${t.name}” deleted.`);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) setProblem(`The template could not be deleted. ${failure(err).join(' ')}`);
    }
  };

  return (
    <div className="offer-settings">
      <h2>Offer templates</h2>
      <div className="emails-message" role="status" aria-live="polite">
        {message}
      </div>
      {problem && (
        <p className="alert alert-error" role="alert">
          {problem}
        </p>
      )}
      <div className="email-actions">
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => {
            setMessage('');
            setEditing('new');
          }}
        >
          New offer template
        </button>
      </div>
      {editing && (
        <TemplateEditor
          key={editing === 'new' ? 'new' : editing.id}
          template={editing === 'new' ? null : editing}
          variables={variables}
          onSaved={(t, created) => {
            setList(created ? [...list, t] : list.map((x) => (x.id === t.id ? t : x)));
            setEditing(null);
            setMessage(created ? `Template “${t.name}” created.` : `Template “${t.name}” saved.`);
          }}
          onCancel={() => setEditing(null)}
        />
      )}
      <ul className="template-list">
        {list.map((t) => (
          <li key={t.id} className="card">
            <h3>
              {t.name}
              {t.is_default ? ' (default)' : ''}
            </h3>
            {/* The stored letter is sanitiser output (allow-listed tags only), as job descriptions are shown. */}
            {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised on save by src/shared/sanitize.ts */}
            <div className="email-text offer-letter-preview" dangerouslySetInnerHTML={{ __html: t.body }} />
            <div className="email-actions">
              <button type="button" className="btn btn-secondary btn-sm" onClick={() => setEditing(t)}>
                Edit<span className="visually-hidden"> {t.name}</span>
              </button>
              {list.length > 1 && (
                <button type="button" className="btn btn-secondary btn-sm" onClick={() => void remove(t)}>
                  Delete<span className="visually-hidden"> {t.name}</span>
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
      <ChainForm chain={chain} approvers={approvers} title="Default approval chain" />
      <JobChain jobs={jobs} approvers={approvers} />
    </div>
  );
}

mountIsland('offer-settings', OfferSettings);
