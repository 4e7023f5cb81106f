/** The editor's labelled fields: label, hint and error wired to the control for assistive tech. */
import type { ReactNode } from 'react';
import type { Draft, Option, SetField } from './draft.js';

export function FieldShell({
  id,
  label,
  required,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  required?: boolean;
  hint?: string;
  error?: string;
  children: ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {required && (
          <span className="required-mark" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      {children}
      {hint && (
        <p className="help-text" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** aria attributes of an input with an optional hint and error. */
export function described(id: string, hint: boolean, error?: string, required?: boolean) {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return {
    id,
    'aria-describedby': ids || undefined,
    'aria-invalid': error ? true : undefined,
    'aria-required': required ? true : undefined,
  } as const;
}

export interface TextFieldOptions {
  required?: boolean;
  hint?: string;
  type?: string;
  maxLength?: number;
  readOnly?: boolean;
  placeholder?: string;
  inputMode?: 'decimal';
  /** The id of a <datalist> of suggestions. */
  list?: string;
  /** The input's own attributes for the browser (datetime-local's step). */
  step?: string;
}

/** One of the job's text fields (`job-{name}`), with its server message from `errors`. */
export function TextField({
  name,
  label,
  draft,
  errors,
  set,
  ...opts
}: { name: keyof Draft; label: string; draft: Draft; errors: Record<string, string>; set: SetField } & TextFieldOptions) {
  const id = `job-${name}`;
  return (
    <FieldShell id={id} label={label} required={opts.required} hint={opts.hint} error={errors[name]}>
      <input
        {...described(id, !!opts.hint, errors[name], opts.required)}
        type={opts.type ?? 'text'}
        value={draft[name] as string}
        maxLength={opts.maxLength}
        readOnly={opts.readOnly}
        placeholder={opts.placeholder}
        inputMode={opts.inputMode}
        list={opts.list}
        min={opts.type === 'number' ? 0 : undefined}
        step={opts.step ?? (opts.type === 'number' ? '0.01' : undefined)}
        onChange={(e) => set(name, e.target.value as never)}
      />
    </FieldShell>
  );
}

/** One of the job's select fields (`job-{name}`), with an optional empty first option. */
export function SelectField({
  name,
  label,
  options,
  draft,
  errors,
  set,
  required,
  placeholder,
}: {
  name: keyof Draft;
  label: string;
  options: Option[];
  draft: Draft;
  errors: Record<string, string>;
  set: SetField;
  required?: boolean;
  placeholder?: string;
}) {
  const id = `job-${name}`;
  return (
    <FieldShell id={id} label={label} required={required} error={errors[name]}>
      <select
        {...described(id, false, errors[name], required)}
        value={draft[name] as string}
        onChange={(e) => set(name, e.target.value as never)}
      >
        {placeholder && <option value="">{placeholder}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </FieldShell>
  );
}
