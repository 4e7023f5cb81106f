/**
 * "Add to pool" (issue 35): a modal dialog that puts applications' people into a talent pool, for
 * the applicants list's selection and a board card. Mounted only while open (the pools are read
 * then). Choose a pool, or "New pool…" and its name (made with POST /api/hr/pools/ first; a name
 * that is a pool already picks that pool), and an optional reason; one POST to the pool's members
 * with every id. `onDone` gets the sentence to announce: how many were added, how many were in the
 * pool already, how many were not found. What the API refuses shows beside its field or in the
 * dialog, which stays open. Admins and recruiters only (the pages show its buttons to them alone).
 */
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Modal } from './modal.js';
import { ApiError, hrJson } from './hr-api.js';
import { errorLines, fieldErrors } from '../../src/shared/api-errors.js';
import { POOL_LIMITS, POOL_MESSAGES } from '../../src/pools/schema.js';
import type { AddedToPool, TalentPool } from '../../src/pools/types.js';
import './pool-picker.css';

const NEW = 'new';
const collapsed = (s: string) => s.replace(/\s+/g, ' ').trim();
const chars = (s: string) => [...s].length;
const samePool = (a: string, b: string) => collapsed(a).toLocaleLowerCase('en') === collapsed(b).toLocaleLowerCase('en');

/** The sentence after an addition: `who` names one application's person; for several, counts. */
function addedText(result: AddedToPool, pool: string, who: string, count: number): string {
  const name = `the pool “${pool}”`;
  if (count === 1) {
    if (result.added) return `${who} added to ${name}.`;
    if (result.already) return `${who} is already in ${name}.`;
    return `${who} was not added: the application was not found.`;
  }
  const parts = [`${result.added} ${result.added === 1 ? 'person' : 'people'} added to ${name}`];
  if (result.already) parts.push(`${result.already} ${result.already === 1 ? 'was' : 'were'} already in it`);
  if (result.not_found.length)
    parts.push(`${result.not_found.length} ${result.not_found.length === 1 ? 'application was' : 'applications were'} not found`);
  return `${parts.join('; ')}.`;
}

type Errors = { pool?: string; name?: string; reason?: string };

export function PoolPicker({
  ids,
  who,
  onClose,
  onDone,
}: {
  /** The applications whose people are added. */
  ids: number[];
  /** Whom the dialog is about: a candidate's name, or "3 selected applicants". */
  who: string;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const uid = useId();
  const [pools, setPools] = useState<TalentPool[] | null>(null);
  const [choice, setChoice] = useState('');
  const [name, setName] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [problem, setProblem] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  useEffect(() => {
    let gone = false;
    hrJson<{ results: TalentPool[] }>('/api/hr/pools/')
      .then(({ results }) => {
        if (gone) return;
        setPools(results);
        // No pool yet: the dialog starts on a new one's name.
        if (!results.length) setChoice(NEW);
      })
      .catch((err) => {
        if (gone || (err instanceof ApiError && err.status === 401)) return;
        setPools([]);
        setProblem(['The talent pools could not be loaded.', ...(err instanceof ApiError ? errorLines(err.body) : [])]);
      });
    return () => {
      gone = true;
    };
  }, []);

  const focusField = (key: keyof Errors) =>
    requestAnimationFrame(() => form.current?.querySelector<HTMLElement>(`#${CSS.escape(`${uid}-${key}`)}`)?.focus());

  const submit = async (e: FormEvent, close: () => void) => {
    e.preventDefault();
    if (busy || pools === null) return;
    const found: Errors = {};
    const newName = collapsed(name);
    if (choice === '') found.pool = 'Choose a pool, or “New pool…” to make one.';
    if (choice === NEW && (!newName || chars(newName) > POOL_LIMITS.name)) found.name = POOL_MESSAGES.name;
    if (chars(collapsed(reason)) > POOL_LIMITS.reason) found.reason = POOL_MESSAGES.reason;
    setErrors(found);
    setProblem(null);
    const first = (['pool', 'name', 'reason'] as const).find((k) => found[k]);
    if (first) return focusField(first);
    setBusy(true);
    try {
      let pool = choice === NEW ? pools.find((p) => samePool(p.name, newName)) : pools.find((p) => String(p.id) === choice);
      if (!pool) {
        try {
          pool = await hrJson<TalentPool>('/api/hr/pools/', { method: 'POST', body: { name: newName } });
        } catch (err) {
          const nameError = err instanceof ApiError ? fieldErrors(err.body).name : undefined;
          if (!nameError) throw err;
          setErrors({ name: nameError });
          setBusy(false);
          return focusField('name');
        }
        // Made: a second try (after a refusal below) adds to it rather than making it again.
        const made = pool;
        setPools((list) => [...(list ?? []), made]);
        setChoice(String(made.id));
        setName('');
      }
      const result = await hrJson<AddedToPool>(`/api/hr/pools/${pool.id}/members/`, {
        method: 'POST',
        body: { application_ids: ids, ...(collapsed(reason) ? { reason } : {}) },
      });
      onDone(addedText(result, pool.name, who, ids.length));
      close();
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.status === 401) return;
      const fields = err instanceof ApiError ? fieldErrors(err.body) : {};
      if (fields.reason) {
        setErrors({ reason: fields.reason });
        return focusField('reason');
      }
      setProblem([
        'Nobody was added.',
        ...(err instanceof ApiError ? errorLines(err.body) : ['The server could not be reached. Please try again.']),
      ]);
    }
  };

  const described = (key: keyof Errors, help?: string) =>
    [help, errors[key] ? `${uid}-${key}-error` : null].filter(Boolean).join(' ') || undefined;
  const error = (key: keyof Errors) =>
    errors[key] && (
      <p id={`${uid}-${key}-error`} className="field-error">
        {errors[key]}
      </p>
    );
  /** A one-line field with its label, an optional help text and its error. */
  const textField = (key: 'name' | 'reason', label: string, value: string, set: (v: string) => void, max: number, help?: string) => (
    <div className="field">
      <label htmlFor={`${uid}-${key}`}>{label}</label>
      <input
        id={`${uid}-${key}`}
        type="text"
        autoComplete="off"
        maxLength={max}
        value={value}
        onChange={(e) => set(e.target.value)}
        aria-invalid={errors[key] ? true : undefined}
        aria-describedby={described(key, help ? `${uid}-${key}-help` : undefined)}
      />
      {help && (
        <p id={`${uid}-${key}-help`} className="help-text">
          {help}
        </p>
      )}
      {error(key)}
    </div>
  );

  return (
    <Modal title={`Add ${who} to a talent pool`} busy={busy} onClose={onClose} className="pool-dialog">
      {(close) => (
        <form ref={form} className="pool-picker" onSubmit={(e) => void submit(e, close)} noValidate>
          {problem && (
            <div className="alert alert-error" role="alert">
              {problem.map((l) => (
                <div key={l}>{l}</div>
              ))}
            </div>
          )}
          <div className="field">
            <label htmlFor={`${uid}-pool`}>Pool</label>
            <select
              id={`${uid}-pool`}
              data-autofocus
              value={choice}
              onChange={(e) => setChoice(e.target.value)}
              aria-invalid={errors.pool ? true : undefined}
              aria-describedby={described('pool')}
              aria-busy={pools === null}
            >
              {pools === null ? (
                <option value="">Loading pools…</option>
              ) : (
                <>
                  <option value="">Choose a pool</option>
                  {pools.map((p) => (
                    <option key={p.id} value={String(p.id)}>
                      {p.name}
                    </option>
                  ))}
                  <option value={NEW}>New pool…</option>
                </>
              )}
            </select>
            {error('pool')}
          </div>
          {choice === NEW && textField('name', "New pool's name", name, setName, POOL_LIMITS.name)}
          {textField(
            'reason',
            'Reason (optional)',
            reason,
            setReason,
            POOL_LIMITS.reason,
            'Shown with them in the pool, such as “Strong runner-up”; without one, “Added by HR”.',
          )}
          <div className="modal-actions">
            <button type="submit" className="btn btn-primary" aria-busy={busy}>
              {busy ? 'Adding…' : 'Add to pool'}
            </button>
            <button type="button" className="btn btn-secondary" onClick={() => !busy && close()}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}
