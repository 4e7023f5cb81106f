/**
 * The public form (/form/{publicId}, spec 02): title and description, one section at a time with
 * an 'n / total' counter, Previous/Next and Submit on the last section. Each section is checked on
 * Next or Submit with the rules the server applies (src/forms/schema.ts fieldValueError) and its
 * messages shown under the fields. Submit sends `values` as JSON plus one file part per file field
 * (and the honeypot part); 201 shows 'Thanks!' with the form's success message. A refused submit
 * with an object body: 'Please fix the highlighted fields and try again.' and the server's messages
 * under their fields; anything else: 'Submission failed. Please try again later.'
 * Beyond the spec: what is typed (not files) is kept in localStorage until it is sent.
 */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { mountIsland } from './components/mount.js';
import { FORM_MESSAGES, fieldValueError } from '../src/forms/schema.js';
import type { FormField, PublicForm } from '../src/forms/types.js';
import './public-form.css';

type Values = Record<string, string | string[]>;

const draftKey = (publicId: string) => `careers:form:${publicId}`;

function loadDraft(publicId: string): Values {
  try {
    const raw = JSON.parse(window.localStorage.getItem(draftKey(publicId)) ?? '{}');
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
    return Object.fromEntries(
      Object.entries(raw).filter(([, v]) => typeof v === 'string' || (Array.isArray(v) && v.every((x) => typeof x === 'string'))),
    ) as Values;
  } catch {
    return {};
  }
}

function saveDraft(publicId: string, values: Values): void {
  try {
    window.localStorage.setItem(draftKey(publicId), JSON.stringify(values));
  } catch {
    /* storage full or off: the form still works */
  }
}

function clearDraft(publicId: string): void {
  try {
    window.localStorage.removeItem(draftKey(publicId));
  } catch {
    /* nothing kept */
  }
}

/** The messages of the fields of one section, by name (empty: the section may be left). */
function sectionErrors(fields: FormField[], values: Values, files: Record<string, File | null>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const f of fields) {
    const file = files[f.name];
    const r = fieldValueError(f, values[f.name], file ? { size: file.size, name: file.name } : null);
    if ('error' in r) errors[f.name] = r.error;
  }
  return errors;
}

function PublicFormIsland({ form }: { form: PublicForm }) {
  const sections = form.sections.filter((s) => s.fields.length > 0);
  const [values, setValues] = useState<Values>(() => loadDraft(form.public_id));
  const [files, setFiles] = useState<Record<string, File | null>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [step, setStep] = useState(0);
  const [state, setState] = useState<'filling' | 'sending' | 'submitted'>('filling');
  const [banner, setBanner] = useState<string | null>(null);
  const [successText, setSuccessText] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  const honeypot = useRef<HTMLInputElement>(null);
  const moved = useRef(false);

  useEffect(() => {
    if (state === 'filling') saveDraft(form.public_id, values);
  }, [form.public_id, values, state]);

  // Focus follows the section (and the final message), never on first load.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the section or the state changes
  useEffect(() => {
    if (moved.current) heading.current?.focus();
  }, [step, state]);

  if (!form.accepting_submissions) {
    return (
      <div className="public-form">
        <Intro form={form} />
        <div className="alert alert-warning" role="status">
          <p className="multiline">{form.inactive_notice || FORM_MESSAGES.notAccepting}</p>
        </div>
      </div>
    );
  }

  if (state === 'submitted') {
    return (
      <div className="public-form">
        <div className="card form-done">
          <h1 ref={heading} tabIndex={-1}>
            {FORM_MESSAGES.thanks}
          </h1>
          <p className="multiline">{successText}</p>
        </div>
      </div>
    );
  }

  if (!sections.length) {
    return (
      <div className="public-form">
        <Intro form={form} />
        <p className="empty-state">{FORM_MESSAGES.notAccepting}</p>
      </div>
    );
  }

  const section = sections[step];
  const last = step === sections.length - 1;
  const set = (name: string, v: string | string[]) => {
    setValues((old) => ({ ...old, [name]: v }));
    setErrors(({ [name]: _gone, ...rest }) => rest);
  };
  const setFile = (name: string, f: File | null) => {
    setFiles((old) => ({ ...old, [name]: f }));
    setErrors(({ [name]: _gone, ...rest }) => rest);
  };
  const go = (to: number) => {
    moved.current = true;
    setBanner(null);
    setStep(to);
    window.scrollTo({ top: 0 });
  };
  const checkSection = (): boolean => {
    const found = sectionErrors(section.fields, values, files);
    setErrors(found);
    const first = section.fields.find((f) => found[f.name]);
    if (first) document.getElementById(`pf-${first.name}`)?.focus();
    return !first;
  };

  const submit = async () => {
    if (!checkSection() || state === 'sending') return;
    setState('sending');
    setBanner(null);
    const body = new FormData();
    const all = sections.flatMap((s) => s.fields);
    body.append(
      'values',
      JSON.stringify(
        Object.fromEntries(all.filter((f) => f.field_type !== 'file' && values[f.name] !== undefined).map((f) => [f.name, values[f.name]])),
      ),
    );
    body.append('website', honeypot.current?.value ?? '');
    for (const f of all) {
      const file = files[f.name];
      if (f.field_type === 'file' && file) body.append(f.name, file, file.name);
    }
    try {
      const res = await fetch(`/api/forms/${encodeURIComponent(form.public_id)}/submit/`, { method: 'POST', body });
      const answer = await res.json().catch(() => null);
      if (res.status === 201) {
        clearDraft(form.public_id);
        moved.current = true;
        setSuccessText(form.success_message || FORM_MESSAGES.submitted);
        setState('submitted');
        return;
      }
      setState('filling');
      if (answer && typeof answer === 'object' && !Array.isArray(answer)) {
        const fieldErrors: Record<string, string> = {};
        for (const [k, v] of Object.entries(answer as Record<string, unknown>)) {
          if (Array.isArray(v) && typeof v[0] === 'string') fieldErrors[k] = v[0];
        }
        setErrors(fieldErrors);
        // The first section holding a message is shown (go() clears the banner, set after it).
        const at = sections.findIndex((s) => s.fields.some((f) => fieldErrors[f.name]));
        if (at >= 0 && at !== step) go(at);
        setBanner(FORM_MESSAGES.fixAndRetry);
      } else {
        setBanner(FORM_MESSAGES.submitFailed);
      }
    } catch {
      setState('filling');
      setBanner(FORM_MESSAGES.submitFailed);
    }
  };

  return (
    <div className="public-form">
      <Intro form={form} />
      <form
        className="card"
        noValidate
        aria-labelledby="pf-section-title"
        onSubmit={(e) => {
          e.preventDefault();
          if (last) void submit();
          else if (checkSection()) go(step + 1);
        }}
      >
        <div className="section-head">
          <h2 id="pf-section-title" ref={heading} tabIndex={-1}>
            {section.title || `Section ${step + 1}`}
          </h2>
          <span className="section-count">
            <span className="visually-hidden">Section </span>
            {step + 1} / {sections.length}
          </span>
        </div>
        {banner && (
          <div className="alert alert-error" role="alert">
            {banner}
          </div>
        )}
        {section.fields.map((f) => (
          <FieldControl
            key={f.name}
            field={f}
            value={values[f.name]}
            file={files[f.name] ?? null}
            error={errors[f.name]}
            onValue={(v) => set(f.name, v)}
            onFile={(file) => setFile(f.name, file)}
          />
        ))}
        <div className="hp-field" aria-hidden="true">
          <label htmlFor="pf-website">Website</label>
          <input id="pf-website" ref={honeypot} name="website" type="text" tabIndex={-1} autoComplete="off" />
        </div>
        <div className="form-nav">
          {step > 0 && (
            <button type="button" className="btn btn-secondary" onClick={() => go(step - 1)} disabled={state === 'sending'}>
              Previous
            </button>
          )}
          <button type="submit" className="btn btn-primary" disabled={state === 'sending'}>
            {last ? (state === 'sending' ? 'Submitting…' : 'Submit') : 'Next'}
          </button>
        </div>
      </form>
    </div>
  );
}

function Intro({ form }: { form: PublicForm }) {
  return (
    <header className="form-intro">
      <h1>{form.title}</h1>
      {form.description && <p className="multiline">{form.description}</p>}
    </header>
  );
}

function FieldControl(p: {
  field: FormField;
  value: string | string[] | undefined;
  file: File | null;
  error?: string;
  onValue: (v: string | string[]) => void;
  onFile: (f: File | null) => void;
}) {
  const { field: f, error } = p;
  const id = `pf-${f.name}`;
  const helpId = useId();
  const errorId = `${id}-error`;
  const describedBy = [f.help_text ? helpId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    'aria-describedby': describedBy,
    'aria-invalid': error ? true : undefined,
    'aria-required': f.required || undefined,
  };
  const text = typeof p.value === 'string' ? p.value : '';
  const list = Array.isArray(p.value) ? p.value : [];
  const label = (
    <>
      {f.label}
      {f.required && (
        <span className="required" aria-hidden="true">
          {' '}
          *
        </span>
      )}
    </>
  );
  const help = f.help_text ? (
    <p className="help-text multiline" id={helpId}>
      {f.help_text}
    </p>
  ) : null;
  const message = error ? (
    <p className="field-error" id={errorId}>
      {error}
    </p>
  ) : null;
  const group = (children: ReactNode) => (
    <fieldset className="field choice-group" id={id} tabIndex={-1} aria-describedby={describedBy} aria-invalid={error ? true : undefined}>
      <legend>{label}</legend>
      {children}
      {help}
      {message}
    </fieldset>
  );

  switch (f.field_type) {
    case 'single_choice':
      return group(
        f.options.map((o) => (
          <label key={o} className="choice">
            <input type="radio" name={f.name} value={o} checked={text === o} onChange={() => p.onValue(o)} /> {o}
          </label>
        )),
      );
    case 'checkbox':
      return group(
        f.options.map((o) => (
          <label key={o} className="choice">
            <input
              type="checkbox"
              name={f.name}
              value={o}
              checked={list.includes(o)}
              onChange={(e) => p.onValue(e.target.checked ? [...list, o] : list.filter((x) => x !== o))}
            />{' '}
            {o}
          </label>
        )),
      );
    default:
      break;
  }
  let control: ReactNode;
  if (f.field_type === 'long_text') {
    control = <textarea {...common} rows={5} value={text} placeholder={f.placeholder} onChange={(e) => p.onValue(e.target.value)} />;
  } else if (f.field_type === 'dropdown') {
    control = (
      <select {...common} value={text} onChange={(e) => p.onValue(e.target.value)}>
        <option value="">{f.placeholder || 'Select…'}</option>
        {f.options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    );
  } else if (f.field_type === 'file') {
    const accept = f.allowed_extensions.map((e) => `.${e}`).join(',') || undefined;
    control = (
      <>
        <input {...common} type="file" accept={accept} onChange={(e) => p.onFile(e.target.files?.[0] ?? null)} />
        {p.file && <span className="file-chosen">{p.file.name}</span>}
      </>
    );
  } else {
    const type = f.field_type === 'email' ? 'email' : 'text';
    control = (
      <input
        {...common}
        type={type}
        inputMode={f.field_type === 'number' ? 'decimal' : f.field_type === 'email' ? 'email' : undefined}
        autoComplete={f.field_type === 'email' ? 'email' : undefined}
        value={text}
        placeholder={f.placeholder}
        onChange={(e) => p.onValue(e.target.value)}
      />
    );
  }
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {control}
      {help}
      {message}
    </div>
  );
}

mountIsland('public-form', PublicFormIsland);
