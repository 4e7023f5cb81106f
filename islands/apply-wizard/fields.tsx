/**
 * Labelled form controls of the wizard. Each control has a visible label, points at its help and
 * error texts with aria-describedby, and carries aria-invalid while it has an error.
 */
import type { ReactNode } from 'react';
import { MONTHS, errorId, fieldId, joinYearMonth, splitYearMonth } from './state.js';

export function RequiredMark() {
  return (
    <>
      <span className="required-mark" aria-hidden="true">
        {' '}
        *
      </span>
      <span className="visually-hidden"> (required)</span>
    </>
  );
}

export function ErrorText({ fieldKey, error }: { fieldKey: string; error?: string }) {
  if (!error) return null;
  return (
    <p className="field-error" id={errorId(fieldKey)}>
      {error}
    </p>
  );
}

/** aria-describedby listing only the texts that are on the page. */
export function describedBy(...ids: (string | false | null | undefined)[]): string | undefined {
  const list = ids.filter(Boolean);
  return list.length ? list.join(' ') : undefined;
}

export function controlProps(fieldKey: string, error: string | undefined, helpId?: string) {
  return {
    id: fieldId(fieldKey),
    'aria-invalid': error ? (true as const) : undefined,
    'aria-describedby': describedBy(helpId, error && errorId(fieldKey)),
  };
}

interface TextFieldProps {
  fieldKey: string;
  label: ReactNode;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  required?: boolean;
  help?: ReactNode;
  type?: 'text' | 'email' | 'tel' | 'number';
  multiline?: boolean;
  maxLength?: number;
  autoComplete?: string;
  inputMode?: 'text' | 'numeric' | 'decimal' | 'email' | 'tel';
  placeholder?: string;
  className?: string;
}

export function TextField(p: TextFieldProps) {
  const helpId = p.help ? `${fieldId(p.fieldKey)}-help` : undefined;
  const common = {
    ...controlProps(p.fieldKey, p.error, helpId),
    value: p.value,
    maxLength: p.maxLength,
    placeholder: p.placeholder,
    'aria-required': p.required ? (true as const) : undefined,
  };
  return (
    <div className={`field${p.className ? ` ${p.className}` : ''}`}>
      <label htmlFor={fieldId(p.fieldKey)}>
        {p.label}
        {p.required && <RequiredMark />}
      </label>
      {p.multiline ? (
        <textarea {...common} onChange={(e) => p.onChange(e.target.value)} rows={4} />
      ) : (
        <input
          {...common}
          type={p.type ?? 'text'}
          autoComplete={p.autoComplete}
          inputMode={p.inputMode}
          step={p.type === 'number' ? 'any' : undefined}
          onChange={(e) => p.onChange(e.target.value)}
        />
      )}
      {p.help && (
        <p className="help-text" id={helpId}>
          {p.help}
        </p>
      )}
      <ErrorText fieldKey={p.fieldKey} error={p.error} />
    </div>
  );
}

interface MonthYearProps {
  fieldKey: string;
  legend: string;
  value: string;
  onChange: (v: string) => void;
  years: number[];
  error?: string;
  required?: boolean;
  help?: string;
}

/** A month select and a year select; the value is "YYYY-MM" (or half of it while choosing). */
export function MonthYearField(p: MonthYearProps) {
  const { year, month } = splitYearMonth(p.value);
  const base = fieldId(p.fieldKey);
  const helpId = p.help ? `${base}-help` : undefined;
  const aria = {
    'aria-invalid': p.error ? (true as const) : undefined,
    'aria-describedby': describedBy(helpId, p.error && errorId(p.fieldKey)),
    'aria-required': p.required ? (true as const) : undefined,
  };
  return (
    <fieldset className="field month-year">
      <legend className="label">
        {p.legend}
        {p.required && <RequiredMark />}
      </legend>
      <div className="month-year-selects">
        <label className="visually-hidden" htmlFor={`${base}-month`}>
          {p.legend}: month
        </label>
        <select id={`${base}-month`} value={month} onChange={(e) => p.onChange(joinYearMonth(year, e.target.value))} {...aria}>
          <option value="">Month</option>
          {MONTHS.map((m, i) => (
            <option key={m} value={String(i + 1).padStart(2, '0')}>
              {m}
            </option>
          ))}
        </select>
        <label className="visually-hidden" htmlFor={`${base}-year`}>
          {p.legend}: year
        </label>
        <select id={`${base}-year`} value={year} onChange={(e) => p.onChange(joinYearMonth(e.target.value, month))} {...aria}>
          <option value="">Year</option>
          {p.years.map((y) => (
            <option key={y} value={String(y)}>
              {y}
            </option>
          ))}
        </select>
      </div>
      {p.help && (
        <p className="help-text" id={helpId}>
          {p.help}
        </p>
      )}
      <ErrorText fieldKey={p.fieldKey} error={p.error} />
    </fieldset>
  );
}
