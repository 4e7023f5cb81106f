/**
 * Experience and education entries: a list the applicant can add to and remove from. Each entry
 * is a card of labelled fields; start and end are month + year pickers.
 */
import { useRef, type ReactNode } from 'react';
import { LIMITS } from '../../src/shared/application-rules.js';
import { MonthYearField, TextField } from './fields.js';
import { fieldId, type Errors } from './state.js';

interface EntryField<E> {
  name: keyof E & string;
  label: string;
  required?: boolean;
  kind?: 'text' | 'textarea' | 'date';
  help?: string;
  wide?: boolean;
}

interface Props<E> {
  /** API key of the list: `professional_experiences` or `education`. */
  name: string;
  /** "Experience" -> headings "Experience 1", buttons "Add experience". */
  noun: string;
  entries: E[];
  fields: EntryField<E>[];
  errors: Errors;
  years: number[];
  onChange: (entries: E[], changedKey?: string) => void;
  make: () => E;
  empty: ReactNode;
}

export function EntryList<E extends object>({ name, noun, entries, fields, errors, years, onChange, make, empty }: Props<E>) {
  const addButton = useRef<HTMLButtonElement>(null);
  const lower = noun.toLowerCase();
  const max = name === 'education' ? LIMITS.education : LIMITS.experiences;

  const set = (i: number, field: string, value: string) => {
    const next = entries.map((e, j) => (j === i ? { ...e, [field]: value } : e));
    onChange(next, `${name}.${i}.${field}`);
  };

  const add = () => {
    onChange([...entries, make()]);
    // Focus the new entry's first field once React has rendered it.
    const key = `${name}.${entries.length}.${fields[0].name}`;
    requestAnimationFrame(() => document.getElementById(fieldId(key))?.focus());
  };

  const remove = (i: number) => {
    onChange(entries.filter((_, j) => j !== i));
    requestAnimationFrame(() => addButton.current?.focus());
  };

  return (
    <div className="entry-list">
      {entries.length === 0 && <p className="entry-empty">{empty}</p>}
      {entries.map((entry, i) => {
        const headingId = `${name}-${i}-title`;
        return (
          <section className="entry-card" key={i} aria-labelledby={headingId}>
            <div className="entry-head">
              <h3 id={headingId}>
                {noun} {i + 1}
              </h3>
              <button type="button" className="btn btn-link entry-remove" onClick={() => remove(i)} aria-label={`Remove ${lower} ${i + 1}`}>
                Remove
              </button>
            </div>
            <div className="entry-grid">
              {fields.map((f) => {
                const key = `${name}.${i}.${f.name}`;
                const value = String(entry[f.name] ?? '');
                if (f.kind === 'date') {
                  return (
                    <MonthYearField
                      key={key}
                      fieldKey={key}
                      legend={f.label}
                      value={value}
                      onChange={(v) => set(i, f.name, v)}
                      years={years}
                      error={errors[key]}
                      required={f.required}
                      help={f.help}
                    />
                  );
                }
                return (
                  <TextField
                    key={key}
                    fieldKey={key}
                    label={f.label}
                    value={value}
                    onChange={(v) => set(i, f.name, v)}
                    error={errors[key]}
                    required={f.required}
                    help={f.help}
                    multiline={f.kind === 'textarea'}
                    maxLength={f.kind === 'textarea' ? LIMITS.description : LIMITS.textField}
                    className={f.wide ? 'span-2' : undefined}
                  />
                );
              })}
            </div>
          </section>
        );
      })}
      {entries.length < max && (
        <button ref={addButton} type="button" className="btn btn-secondary entry-add" onClick={add}>
          <span aria-hidden="true">+</span> Add {entries.length ? `another ${lower}` : lower}
        </button>
      )}
    </div>
  );
}
