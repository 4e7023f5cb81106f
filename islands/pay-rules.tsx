/**
 * The Pay rules page (/hr/settings/pay-rules, admins; issue 34): every rule in a table (cards on a
 * phone), New rule, and Edit and Delete on each. The form is the API's rule (src/publishing/
 * schema.ts); what the API refuses is shown beside its field, anything else above the form. A
 * message after each change is announced.
 */
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { mountIsland } from './components/mount.js';
import { ApiError, hrJson } from './components/hr-api.js';
import { errorLines, fieldErrors } from '../src/shared/api-errors.js';
import { PUBLISHING_LIMITS, PUBLISHING_MESSAGES } from '../src/publishing/schema.js';
import type { PayRule, RulePeriod, WidthUnit } from '../src/publishing/types.js';
import './pay-rules.css';

type Props = { rules: PayRule[] };

type Draft = {
  id: number | null;
  label: string;
  country: string;
  region_code: string;
  region_name: string;
  range_required: boolean;
  max_width: string;
  width_unit: WidthUnit;
  salary_period: RulePeriod;
  note: string;
};

type Key = Exclude<keyof Draft, 'id'>;

const EMPTY: Draft = {
  id: null,
  label: '',
  country: '',
  region_code: '',
  region_name: '',
  range_required: true,
  max_width: '',
  width_unit: 'AMOUNT',
  salary_period: 'ANY',
  note: '',
};

const draftOf = (r: PayRule): Draft => ({
  id: r.id,
  label: r.label,
  country: r.country,
  region_code: r.region_code,
  region_name: r.region_name,
  range_required: r.range_required,
  max_width: r.max_width === null ? '' : String(r.max_width),
  width_unit: r.width_unit,
  salary_period: r.salary_period,
  note: r.note,
});

const PERIODS: [RulePeriod, string][] = [
  ['ANY', 'Any period (as the job states it)'],
  ['YEAR', 'Per year'],
  ['MONTH', 'Per month'],
  ['HOUR', 'Per hour'],
];
const PERIOD_WORD: Record<RulePeriod, string> = { ANY: '', YEAR: ' per year', MONTH: ' per month', HOUR: ' per hour' };

/** A rule's width as the table says it. */
function widthText(r: PayRule): string {
  if (r.max_width === null) return 'No limit';
  const n = r.max_width.toLocaleString('en-US', { maximumFractionDigits: 2 });
  return r.width_unit === 'PERCENT'
    ? `Maximum at most ${n}% above the minimum`
    : `${n} in the job's currency${PERIOD_WORD[r.salary_period]}`;
}

const placeOf = (r: PayRule) => (r.region_code ? `${r.country}-${r.region_code}` : r.country);

/** What the API would refuse for sure, checked here first. */
function problems(d: Draft): Partial<Record<Key, string>> {
  const out: Partial<Record<Key, string>> = {};
  if (!d.label.trim()) out.label = PUBLISHING_MESSAGES.required;
  if (!/^[A-Za-z]{2}$/.test(d.country.trim())) out.country = PUBLISHING_MESSAGES.country;
  if (d.region_name.trim() && !d.region_code.trim()) out.region_name = PUBLISHING_MESSAGES.regionNameWithoutCode;
  if (!d.range_required && !d.max_width.trim()) out.range_required = PUBLISHING_MESSAGES.checksNothing;
  return out;
}

function Editor({ draft, onSaved, onCancel }: { draft: Draft; onSaved: (r: PayRule, created: boolean) => void; onCancel: () => void }) {
  const id = useId();
  const [d, setD] = useState(draft);
  const [errors, setErrors] = useState<Partial<Record<Key, string>>>({});
  const [problem, setProblem] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);

  const set = <K extends Key>(key: K, value: Draft[K]) => {
    setD((x) => ({ ...x, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const found = problems(d);
    setErrors(found);
    setProblem(null);
    if (Object.keys(found).length) {
      document.getElementById(`${id}-${Object.keys(found)[0]}`)?.focus();
      return;
    }
    setBusy(true);
    const { id: ruleId, ...body } = d;
    try {
      const saved =
        ruleId === null
          ? await hrJson<PayRule>('/api/hr/pay-rules/', { method: 'POST', body })
          : await hrJson<PayRule>(`/api/hr/pay-rules/${ruleId}/`, { method: 'PUT', body });
      onSaved(saved, ruleId === null);
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.status === 401) return;
      const fields = err instanceof ApiError ? fieldErrors(err.body) : {};
      const named = Object.fromEntries(Object.entries(fields).filter(([k]) => k in EMPTY && k !== 'id')) as Partial<Record<Key, string>>;
      if (Object.keys(named).length) {
        setErrors(named);
        document.getElementById(`${id}-${Object.keys(named)[0]}`)?.focus();
      } else setProblem(err instanceof ApiError ? errorLines(err.body) : ['The server could not be reached. Please try again.']);
    }
  };

  const described = (key: Key, help?: string) => {
    const ids = [help ? `${id}-${key}-help` : '', errors[key] ? `${id}-${key}-err` : ''].filter(Boolean).join(' ');
    return { 'aria-invalid': errors[key] ? true : undefined, 'aria-describedby': ids || undefined };
  };
  const error = (key: Key) =>
    errors[key] && (
      <p id={`${id}-${key}-err`} className="field-error">
        {errors[key]}
      </p>
    );
  const text = (
    key: 'label' | 'country' | 'region_code' | 'region_name' | 'max_width' | 'note',
    label: string,
    max: number,
    help?: string,
  ) => (
    <div className={`field pay-rule-${key.replace('_', '-')}`}>
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <input
        ref={key === 'label' ? first : undefined}
        id={`${id}-${key}`}
        type="text"
        inputMode={key === 'max_width' ? 'decimal' : undefined}
        maxLength={max}
        value={d[key]}
        onChange={(e) => set(key, e.target.value)}
        {...described(key, help)}
      />
      {help && (
        <p id={`${id}-${key}-help`} className="help-text">
          {help}
        </p>
      )}
      {error(key)}
    </div>
  );

  return (
    <form className="card pay-rule-form" onSubmit={(e) => void submit(e)} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{d.id === null ? 'New pay rule' : `Edit “${draft.label}”`}</h2>
      {problem && (
        <div className="alert alert-error" role="alert">
          <div>The rule was not saved.</div>
          {problem.map((l) => (
            <div key={l}>{l}</div>
          ))}
        </div>
      )}
      <div className="pay-rule-grid">
        {text('label', 'Name', PUBLISHING_LIMITS.label, 'How reasons name the place, e.g. California.')}
        {text('country', 'Country code', 2, 'ISO 3166-1, e.g. US, DE, CA.')}
        {text(
          'region_code',
          'Region code',
          PUBLISHING_LIMITS.regionCode,
          'As locations write it, e.g. CA or ON; blank for the whole country.',
        )}
        {text('region_name', 'Region name', PUBLISHING_LIMITS.regionName, 'e.g. California; locations may write either.')}
      </div>
      <div className="field">
        <label className="check">
          <input
            id={`${id}-range_required`}
            type="checkbox"
            checked={d.range_required}
            onChange={(e) => set('range_required', e.target.checked)}
            {...described('range_required')}
          />
          A pay range is required (a minimum and a maximum)
        </label>
        {error('range_required')}
      </div>
      <div className="pay-rule-grid">
        {text('max_width', 'Largest width', 20, 'Maximum minus minimum; blank for no limit.')}
        <div className="field">
          <label htmlFor={`${id}-width_unit`}>Width is</label>
          <select
            id={`${id}-width_unit`}
            value={d.width_unit}
            onChange={(e) => set('width_unit', e.target.value as WidthUnit)}
            {...described('width_unit')}
          >
            <option value="AMOUNT">An amount in the job's currency</option>
            <option value="PERCENT">A percentage of the minimum</option>
          </select>
          {error('width_unit')}
        </div>
        <div className="field">
          <label htmlFor={`${id}-salary_period`}>Width per</label>
          <select
            id={`${id}-salary_period`}
            value={d.salary_period}
            onChange={(e) => set('salary_period', e.target.value as RulePeriod)}
            {...described('salary_period')}
          >
            {PERIODS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
          {error('salary_period')}
        </div>
      </div>
      {text('note', 'Note', PUBLISHING_LIMITS.note, 'Where the rule comes from, e.g. the law and since when.')}
      <div className="pay-rule-actions">
        <button type="submit" className="btn btn-primary" aria-busy={busy}>
          {busy ? 'Saving…' : 'Save rule'}
        </button>
        <button type="button" className="btn btn-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function PayRules({ rules: initial }: Props) {
  const [list, setList] = useState(initial);
  const [editing, setEditing] = useState<Draft | null>(null);
  const [confirming, setConfirming] = useState<PayRule | null>(null);
  const [message, setMessage] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const newRef = useRef<HTMLButtonElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);

  const byPlace = (a: PayRule, b: PayRule) => a.country.localeCompare(b.country) || a.region_code.localeCompare(b.region_code);
  const saved = (r: PayRule, created: boolean) => {
    setList((l) => (created ? [...l, r] : l.map((x) => (x.id === r.id ? r : x))).sort(byPlace));
    setEditing(null);
    setMessage(created ? `Pay rule “${r.label}” added.` : `Pay rule “${r.label}” saved.`);
    requestAnimationFrame(() => document.getElementById(`pay-rule-edit-${r.id}`)?.focus());
  };

  const remove = async (r: PayRule) => {
    setProblem(null);
    try {
      await hrJson(`/api/hr/pay-rules/${r.id}/`, { method: 'DELETE' });
      setList((l) => l.filter((x) => x.id !== r.id));
      setMessage(`Pay rule “${r.label}” deleted.`);
      newRef.current?.focus();
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return;
      setProblem(
        `The rule could not be deleted. ${err instanceof ApiError ? errorLines(err.body).join(' ') : 'The server could not be reached.'}`,
      );
    }
    setConfirming(null);
  };

  return (
    <div className="pay-rules">
      <div className="pay-rules-message" role="status" aria-live="polite">
        {message}
      </div>
      {problem && (
        <p className="alert alert-error" role="alert">
          {problem}
        </p>
      )}
      <div className="pay-rule-actions">
        <button
          ref={newRef}
          type="button"
          className="btn btn-primary"
          onClick={() => {
            setMessage('');
            setEditing({ ...EMPTY });
          }}
        >
          New rule
        </button>
      </div>
      {editing && <Editor key={editing.id ?? 'new'} draft={editing} onSaved={saved} onCancel={() => setEditing(null)} />}
      {list.length === 0 ? (
        <p className="empty-state">No pay rules: no job's pay is checked against a location's law.</p>
      ) : (
        <div className="table-wrap">
          <table className="data pay-rule-table" aria-label="Pay rules">
            <thead>
              <tr>
                <th scope="col">Place</th>
                <th scope="col">Range</th>
                <th scope="col">Largest width</th>
                <th scope="col">Note</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.map((r) => (
                <tr key={r.id}>
                  <td data-label="Place">
                    <strong>{r.label}</strong> <code>{placeOf(r)}</code>
                  </td>
                  <td data-label="Range" className="nowrap">
                    {r.range_required ? 'Required' : 'Not required'}
                  </td>
                  <td data-label="Largest width">{widthText(r)}</td>
                  <td data-label="Note" className="pay-rule-note">
                    {r.note}
                  </td>
                  <td data-label="Actions">
                    {confirming?.id === r.id ? (
                      <fieldset className="pay-rule-confirm">
                        <legend>Delete the rule of {r.label}? Jobs there are no longer checked against it.</legend>
                        <button ref={confirmRef} type="button" className="btn btn-danger btn-sm" onClick={() => void remove(r)}>
                          Delete
                        </button>
                        <button type="button" className="btn btn-secondary btn-sm" onClick={() => setConfirming(null)}>
                          Cancel
                        </button>
                      </fieldset>
                    ) : (
                      <div className="row-actions">
                        <button
                          id={`pay-rule-edit-${r.id}`}
                          type="button"
                          className="btn btn-secondary btn-sm"
                          onClick={() => {
                            setMessage('');
                            setEditing(draftOf(r));
                          }}
                        >
                          Edit<span className="visually-hidden"> the rule of {r.label}</span>
                        </button>
                        <button type="button" className="btn btn-secondary btn-sm" onClick={() => setConfirming(r)}>
                          Delete<span className="visually-hidden"> the rule of {r.label}</span>
                        </button>
                      </div>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

mountIsland('pay-rules', PayRules);
