/**
 * The form builder (/hr/forms/new, /hr/forms/{id}/edit; spec 02): tabs Details, Sections & Fields
 * and API Post, Back and Save, a green success or red error banner. The builder's rules run before
 * a save ('Field Name is required.', 'Field Label is required.', 'Duplicate field name in this
 * section.', then 'Please fix highlighted fields before saving.'); the server judges again with the
 * same schema. A save the server refuses shows 'Duplicate field names detected — Section N: ...'
 * for duplicate_field_names, any other object as JSON, else its message or 'Save failed.'.
 * Creating a form goes to its edit page. Beyond the spec: sections and fields move up and down,
 * and a live preview shows the section being edited as visitors will see it.
 */
import { useEffect, useRef, useState } from 'react';
import { mountIsland } from './components/mount.js';
import { ApiError, hrJson } from './components/hr-api.js';
import { flashNext } from './components/flash.js';
import { FORM_LIMITS, FORM_MESSAGES, duplicatesMessage, fieldNameFromLabel, shapeFieldName } from '../src/forms/schema.js';
import { CHOICE_FIELD_TYPES, type FieldType, type Form } from '../src/forms/types.js';
import './form-builder.css';

interface Props {
  mode: 'create' | 'edit';
  formId: number | null;
  statuses: { value: string; label: string }[];
  fieldTypes: { value: FieldType; label: string }[];
  bytesPerMb: number;
  /** Whether this user may change the API post settings (admins only, issue 28); otherwise shown read-only. */
  canChangeApi: boolean;
}

interface DraftField {
  key: number;
  name: string;
  label: string;
  field_type: FieldType;
  required: boolean;
  placeholder: string;
  help_text: string;
  options: string;
  maxMb: string;
  extensions: string;
  /** Characters the name input left out on the last keystroke, said beside it. */
  dropped?: string;
}

interface DraftSection {
  key: number;
  title: string;
  order: string;
  fields: DraftField[];
}

interface Draft {
  public_id: string;
  title: string;
  description: string;
  success_message: string;
  inactive_notice: string;
  status: string;
  api_enabled: boolean;
  api_url: string;
  api_secret: string;
  mappings: { key: number; external: string; field: string }[];
  sections: DraftSection[];
}

type Tab = 'details' | 'sections' | 'api';
const TABS: { key: Tab; label: string }[] = [
  { key: 'details', label: 'Details' },
  { key: 'sections', label: 'Sections & Fields' },
  { key: 'api', label: 'API Post' },
];

let nextKey = 1;
const newField = (): DraftField => ({
  key: nextKey++,
  name: '',
  label: '',
  field_type: 'short_text',
  required: false,
  placeholder: '',
  help_text: '',
  options: '',
  maxMb: '',
  extensions: '',
});
const newSection = (order: number): DraftSection => ({ key: nextKey++, title: '', order: String(order), fields: [newField()] });

function toDraft(form: Form | null, bytesPerMb: number): Draft {
  if (!form) {
    return {
      public_id: '',
      title: '',
      description: '',
      success_message: '',
      inactive_notice: '',
      status: 'INACTIVE',
      api_enabled: false,
      api_url: '',
      api_secret: '',
      mappings: [],
      sections: [newSection(0)],
    };
  }
  return {
    public_id: form.public_id,
    title: form.title,
    description: form.description,
    success_message: form.success_message,
    inactive_notice: form.inactive_notice,
    status: form.status,
    api_enabled: form.api_enabled,
    api_url: form.api_url ?? '',
    api_secret: form.api_secret ?? '',
    mappings: Object.entries(form.api_mapping).map(([external, field]) => ({ key: nextKey++, external, field })),
    sections: form.sections.map((s) => ({
      key: nextKey++,
      title: s.title,
      order: String(s.order),
      fields: s.fields.map((f) => ({
        key: nextKey++,
        name: f.name,
        label: f.label,
        field_type: f.field_type,
        required: f.required,
        placeholder: f.placeholder,
        help_text: f.help_text,
        options: f.options.join('\n'),
        maxMb: f.max_file_size === null ? '' : String(Math.round((f.max_file_size / bytesPerMb) * 10) / 10),
        extensions: f.allowed_extensions.join(', '),
      })),
    })),
  };
}

/** MB (step 0.1) to bytes, rounded; null if empty, invalid or not above 0 (spec 02 section 5). */
function mbToBytes(mb: string, bytesPerMb: number): number | null {
  const n = Number(mb.trim());
  return mb.trim() && Number.isFinite(n) && n > 0 ? Math.round(n * bytesPerMb) : null;
}

function toPayload(d: Draft, mode: Props['mode'], bytesPerMb: number) {
  return {
    ...(mode === 'create' && d.public_id.trim() ? { public_id: d.public_id.trim() } : {}),
    ...(mode === 'edit' ? { public_id: d.public_id } : {}),
    title: d.title,
    description: d.description,
    success_message: d.success_message,
    inactive_notice: d.inactive_notice,
    status: d.status,
    api_enabled: d.api_enabled,
    api_url: d.api_url,
    api_secret: d.api_secret,
    // A mapping with a blank key or field is dropped (spec 02 section 5).
    api_mapping: Object.fromEntries(d.mappings.filter((m) => m.external.trim() && m.field).map((m) => [m.external.trim(), m.field])),
    sections: d.sections.map((s, i) => ({
      title: s.title,
      order: /^\d{1,4}$/.test(s.order.trim()) ? Number(s.order) : i,
      fields: s.fields.map((f, j) => {
        const choice = CHOICE_FIELD_TYPES.includes(f.field_type);
        return {
          name: f.name,
          label: f.label,
          field_type: f.field_type,
          required: f.required,
          placeholder: f.placeholder,
          help_text: f.help_text,
          options: choice
            ? f.options
                .split('\n')
                .map((o) => o.trim())
                .filter(Boolean)
            : [],
          order: j,
          max_file_size: f.field_type === 'file' ? mbToBytes(f.maxMb, bytesPerMb) : null,
          allowed_extensions:
            f.field_type === 'file'
              ? f.extensions
                  .split(',')
                  .map((e) => e.trim())
                  .filter(Boolean)
              : [],
        };
      }),
    })),
  };
}

/** The builder's own checks: messages keyed `s{i}.f{j}.name|label`. */
function builderErrors(d: Draft): Record<string, string> {
  const errors: Record<string, string> = {};
  d.sections.forEach((s, i) => {
    const seen = new Set<string>();
    s.fields.forEach((f, j) => {
      if (!f.name.trim()) errors[`s${i}.f${j}.name`] = FORM_MESSAGES.fieldNameRequired;
      else if (seen.has(f.name)) errors[`s${i}.f${j}.name`] = FORM_MESSAGES.duplicateInSection;
      seen.add(f.name);
      if (!f.label.trim()) errors[`s${i}.f${j}.label`] = FORM_MESSAGES.fieldLabelRequired;
    });
  });
  return errors;
}

/** The server's field keys (`sections.0.fields.1.name`) as the builder's (`s0.f1.name`). */
function serverErrors(body: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!body || typeof body !== 'object') return out;
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    if (!Array.isArray(v) || typeof v[0] !== 'string') continue;
    const m = /^sections\.(\d+)\.fields\.(\d+)\.(\w+)$/.exec(k);
    out[m ? `s${m[1]}.f${m[2]}.${m[3]}` : k] = v[0];
  }
  return out;
}

/** What the red banner says for a refused save (spec 02 section 8). */
function failureText(err: unknown): string {
  const body = err instanceof ApiError ? err.body : null;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const dupes = (body as { duplicate_field_names?: unknown }).duplicate_field_names;
    if (Array.isArray(dupes) && dupes.length) return duplicatesMessage(dupes as { section_index: number; duplicates: string[] }[]);
    return JSON.stringify(body);
  }
  if (typeof body === 'string' && body.trim()) return body.trim();
  return (err instanceof Error && err.message && !(err instanceof ApiError) ? err.message : '') || FORM_MESSAGES.saveFailed;
}

function move<T>(list: T[], from: number, to: number): T[] {
  if (to < 0 || to >= list.length) return list;
  const copy = [...list];
  const [item] = copy.splice(from, 1);
  copy.splice(to, 0, item);
  return copy;
}

function FormBuilder(props: Props) {
  const { mode, formId, bytesPerMb } = props;
  const [draft, setDraft] = useState<Draft | null>(mode === 'create' ? toDraft(null, bytesPerMb) : null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [tab, setTab] = useState<Tab>('details');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [banner, setBanner] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const [previewSection, setPreviewSection] = useState(0);
  const bannerRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (mode !== 'edit') return;
    hrJson<Form>(`/api/hr/forms/${formId}/`).then(
      (form) => setDraft(toDraft(form, bytesPerMb)),
      (err) => {
        if (!(err instanceof ApiError && err.status === 401)) setLoadFailed(true);
      },
    );
  }, [mode, formId, bytesPerMb]);

  useEffect(() => {
    if (banner) bannerRef.current?.focus();
  }, [banner]);

  const heading = mode === 'create' ? 'Create Form' : `Edit Form: ${draft?.title ?? ''}`;
  if (loadFailed) {
    return (
      <>
        <div className="page-title">
          <h1>Edit Form</h1>
        </div>
        <div className="alert alert-error" role="alert">
          The form could not be loaded. <a href="/hr/forms">Back to forms</a>
        </div>
      </>
    );
  }
  if (!draft) {
    return (
      <>
        <div className="page-title">
          <h1>Edit Form</h1>
        </div>
        <p className="help-text" role="status">
          Loading the form…
        </p>
      </>
    );
  }

  const set = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });
  const setSection = (i: number, patch: Partial<DraftSection>) =>
    set({ sections: draft.sections.map((s, k) => (k === i ? { ...s, ...patch } : s)) });
  const setField = (i: number, j: number, patch: Partial<DraftField>, keys: string[] = []) => {
    setSection(i, { fields: draft.sections[i].fields.map((f, k) => (k === j ? { ...f, ...patch } : f)) });
    if (keys.length)
      setErrors((old) => Object.fromEntries(Object.entries(old).filter(([k]) => !keys.some((x) => k === `s${i}.f${j}.${x}`))));
  };
  const setFieldName = (i: number, j: number, typed: string) => {
    const { name, dropped } = shapeFieldName(typed);
    setField(i, j, { name, dropped }, ['name']);
  };
  // The name follows the label while it is blank or still the one the label made.
  const setFieldLabel = (i: number, j: number, label: string) => {
    const f = draft.sections[i].fields[j];
    const follows = f.name === '' || f.name === fieldNameFromLabel(f.label);
    setField(i, j, follows ? { label, name: fieldNameFromLabel(label), dropped: '' } : { label }, follows ? ['label', 'name'] : ['label']);
  };
  const allNames = [...new Set(draft.sections.flatMap((s) => s.fields.map((f) => f.name)).filter(Boolean))];

  const save = async () => {
    if (saving) return;
    const found = builderErrors(draft);
    setErrors(found);
    if (Object.keys(found).length) {
      setTab('sections');
      setBanner({ kind: 'error', text: FORM_MESSAGES.fixHighlighted });
      return;
    }
    setSaving(true);
    setBanner(null);
    try {
      const body = toPayload(draft, mode, bytesPerMb);
      if (mode === 'create') {
        const created = await hrJson<Form>('/api/hr/forms/', { method: 'POST', body });
        flashNext('Form created.');
        location.assign(`/hr/forms/${created.id}/edit`);
        return;
      }
      const saved = await hrJson<Form>(`/api/hr/forms/${formId}/`, { method: 'PUT', body });
      setDraft(toDraft(saved, bytesPerMb));
      setBanner({ kind: 'success', text: FORM_MESSAGES.saved });
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return; // on the way to the login page
      setErrors(serverErrors(err instanceof ApiError ? err.body : null));
      setBanner({ kind: 'error', text: failureText(err) });
    } finally {
      setSaving(false);
    }
  };

  const err = (k: string) => errors[k];
  const input = (
    id: string,
    label: string,
    value: string,
    onChange: (v: string) => void,
    opts: {
      max?: number;
      required?: boolean;
      error?: string;
      hint?: string;
      type?: string;
      readOnly?: boolean;
      step?: string;
      min?: string;
      hintLive?: boolean;
    } = {},
  ) => (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {opts.required && (
          <span className="required" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      <input
        id={id}
        type={opts.type ?? 'text'}
        value={value}
        maxLength={opts.max}
        step={opts.step}
        min={opts.min}
        readOnly={opts.readOnly}
        aria-invalid={opts.error ? true : undefined}
        aria-describedby={[opts.hint ? `${id}-hint` : '', opts.error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {opts.hint && (
        <p className="help-text" id={`${id}-hint`} aria-live={opts.hintLive ? 'polite' : undefined}>
          {opts.hint}
        </p>
      )}
      {opts.error && (
        <p className="field-error" id={`${id}-error`}>
          {opts.error}
        </p>
      )}
    </div>
  );
  const area = (id: string, label: string, value: string, onChange: (v: string) => void, max: number, error?: string) => (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        rows={3}
        value={value}
        maxLength={max}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );

  return (
    <div className="form-builder">
      <div className="page-title">
        <h1>{heading}</h1>
        <div className="page-actions">
          <a className="btn btn-secondary" href="/hr/forms">
            Back
          </a>
          <button type="button" className="btn btn-primary" onClick={() => void save()} disabled={saving}>
            {saving ? 'Saving…' : 'Save'}
          </button>
        </div>
      </div>
      <div ref={bannerRef} tabIndex={-1} className="banner-slot">
        {banner?.kind === 'success' && (
          <div className="alert alert-success" role="status">
            {banner.text}
          </div>
        )}
        {banner?.kind === 'error' && (
          <div className="alert alert-error" role="alert">
            {banner.text}
          </div>
        )}
      </div>
      <div className="tabs" role="tablist" aria-label="Form builder">
        {TABS.map((t) => (
          <button
            key={t.key}
            type="button"
            role="tab"
            id={`tab-${t.key}`}
            aria-selected={tab === t.key}
            aria-controls={`panel-${t.key}`}
            className="tab"
            onClick={() => setTab(t.key)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div className="builder-body">
        <div className="tab-panel card" role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
          {tab === 'details' && (
            <>
              {input('fb-public_id', 'Public ID', draft.public_id, (v) => set({ public_id: v }), {
                max: 64,
                readOnly: mode === 'edit',
                error: err('public_id'),
                hint: mode === 'edit' ? 'Fixed once the form is created.' : 'Optional: made from the title when blank.',
              })}
              {input('fb-title', 'Title', draft.title, (v) => set({ title: v }), {
                max: FORM_LIMITS.text,
                required: true,
                error: err('title'),
              })}
              {area(
                'fb-description',
                'Description',
                draft.description,
                (v) => set({ description: v }),
                FORM_LIMITS.description,
                err('description'),
              )}
              {area(
                'fb-success_message',
                'Success message',
                draft.success_message,
                (v) => set({ success_message: v }),
                FORM_LIMITS.message,
                err('success_message'),
              )}
              {area(
                'fb-inactive_notice',
                'Inactive notice',
                draft.inactive_notice,
                (v) => set({ inactive_notice: v }),
                FORM_LIMITS.message,
                err('inactive_notice'),
              )}
              <div className="field">
                <label htmlFor="fb-status">Status</label>
                <select id="fb-status" value={draft.status} onChange={(e) => set({ status: e.target.value })}>
                  {props.statuses.map((s) => (
                    <option key={s.value} value={s.value}>
                      {s.label}
                    </option>
                  ))}
                </select>
              </div>
            </>
          )}
          {tab === 'sections' && (
            <>
              {draft.sections.map((s, i) => (
                <section key={s.key} className="builder-section" aria-labelledby={`fb-s${i}-heading`}>
                  <div className="builder-section-head">
                    <h2 id={`fb-s${i}-heading`}>Section {i + 1}</h2>
                    <div className="row-actions">
                      <button
                        type="button"
                        className="btn btn-secondary btn-sm"
                        disabled={i === 0}
                        onClick={() => set({ sections: move(draft.sections, i, i - 1) })}
                        aria-label={`Move section ${i + 1} up`}
                      >
                        ↑
                      </button>
                      <button
                        type="button"
                        className="btn btn-secondary btn-sm"
                        disabled={i === draft.sections.length - 1}
                        onClick={() => set({ sections: move(draft.sections, i, i + 1) })}
                        aria-label={`Move section ${i + 1} down`}
                      >
                        ↓
                      </button>
                      <button
                        type="button"
                        className="btn btn-danger btn-sm"
                        onClick={() => set({ sections: draft.sections.filter((_, k) => k !== i) })}
                      >
                        Delete Section
                      </button>
                    </div>
                  </div>
                  <div className="grid-2">
                    {input(`fb-s${i}-title`, 'Section title', s.title, (v) => setSection(i, { title: v }), { max: FORM_LIMITS.text })}
                    {input(`fb-s${i}-order`, 'Order', s.order, (v) => setSection(i, { order: v }), { type: 'number' })}
                  </div>
                  {s.fields.map((f, j) => (
                    <fieldset key={f.key} className="builder-field">
                      <legend>Field {j + 1}</legend>
                      <div className="grid-2">
                        {input(`fb-s${i}-f${j}-name`, 'Field Name', f.name, (v) => setFieldName(i, j, v), {
                          max: FORM_LIMITS.fieldName,
                          required: true,
                          error: err(`s${i}.f${j}.name`),
                          hint: f.dropped
                            ? `Lowercase letters, digits and underscores: left out ${f.dropped}`
                            : 'Lowercase letters, digits and underscores; made from the label until you change it.',
                          hintLive: true,
                        })}
                        {input(`fb-s${i}-f${j}-label`, 'Field Label', f.label, (v) => setFieldLabel(i, j, v), {
                          max: FORM_LIMITS.text,
                          required: true,
                          error: err(`s${i}.f${j}.label`),
                        })}
                        <div className="field">
                          <label htmlFor={`fb-s${i}-f${j}-type`}>Field type</label>
                          <select
                            id={`fb-s${i}-f${j}-type`}
                            value={f.field_type}
                            onChange={(e) => setField(i, j, { field_type: e.target.value as FieldType })}
                          >
                            {props.fieldTypes.map((t) => (
                              <option key={t.value} value={t.value}>
                                {t.label}
                              </option>
                            ))}
                          </select>
                        </div>
                        {input(`fb-s${i}-f${j}-placeholder`, 'Placeholder', f.placeholder, (v) => setField(i, j, { placeholder: v }), {
                          max: FORM_LIMITS.text,
                          error: err(`s${i}.f${j}.placeholder`),
                        })}
                      </div>
                      <div className="check-field">
                        <input
                          type="checkbox"
                          id={`fb-s${i}-f${j}-required`}
                          checked={f.required}
                          onChange={(e) => setField(i, j, { required: e.target.checked })}
                        />
                        <label htmlFor={`fb-s${i}-f${j}-required`}>Required</label>
                      </div>
                      {area(
                        `fb-s${i}-f${j}-help`,
                        'Help text',
                        f.help_text,
                        (v) => setField(i, j, { help_text: v }),
                        FORM_LIMITS.message,
                        err(`s${i}.f${j}.help_text`),
                      )}
                      {CHOICE_FIELD_TYPES.includes(f.field_type) &&
                        area(
                          `fb-s${i}-f${j}-options`,
                          'Options (one per line)',
                          f.options,
                          (v) => setField(i, j, { options: v }, ['options']),
                          20_000,
                          err(`s${i}.f${j}.options`),
                        )}
                      {f.field_type === 'file' && (
                        <div className="grid-2">
                          {input(
                            `fb-s${i}-f${j}-maxmb`,
                            'Max file size (MB)',
                            f.maxMb,
                            (v) => setField(i, j, { maxMb: v }, ['max_file_size']),
                            { type: 'number', step: '0.1', min: '0.1', error: err(`s${i}.f${j}.max_file_size`), hint: 'Blank: 10 MB.' },
                          )}
                          {input(
                            `fb-s${i}-f${j}-ext`,
                            'Allowed extensions',
                            f.extensions,
                            (v) => setField(i, j, { extensions: v }, ['allowed_extensions']),
                            { error: err(`s${i}.f${j}.allowed_extensions`), hint: 'Comma separated, e.g. pdf, docx. Blank: any type.' },
                          )}
                        </div>
                      )}
                      <div className="row-actions">
                        <button
                          type="button"
                          className="btn btn-secondary btn-sm"
                          disabled={j === 0}
                          onClick={() => setSection(i, { fields: move(s.fields, j, j - 1) })}
                          aria-label={`Move field ${j + 1} of section ${i + 1} up`}
                        >
                          ↑
                        </button>
                        <button
                          type="button"
                          className="btn btn-secondary btn-sm"
                          disabled={j === s.fields.length - 1}
                          onClick={() => setSection(i, { fields: move(s.fields, j, j + 1) })}
                          aria-label={`Move field ${j + 1} of section ${i + 1} down`}
                        >
                          ↓
                        </button>
                        <button
                          type="button"
                          className="btn btn-danger btn-sm"
                          onClick={() => setSection(i, { fields: s.fields.filter((_, k) => k !== j) })}
                        >
                          Delete Field
                        </button>
                      </div>
                    </fieldset>
                  ))}
                  <button type="button" className="btn btn-secondary" onClick={() => setSection(i, { fields: [...s.fields, newField()] })}>
                    Add Field
                  </button>
                </section>
              ))}
              <button
                type="button"
                className="btn btn-secondary"
                onClick={() => set({ sections: [...draft.sections, newSection(draft.sections.length)] })}
              >
                Add Section
              </button>
            </>
          )}
          {tab === 'api' && (
            <>
              {!props.canChangeApi && <p className="alert alert-warning api-locked">{FORM_MESSAGES.apiReadOnly}</p>}
              <div className="check-field">
                <input
                  type="checkbox"
                  id="fb-api_enabled"
                  disabled={!props.canChangeApi}
                  checked={draft.api_enabled}
                  onChange={(e) => set({ api_enabled: e.target.checked })}
                />
                <label htmlFor="fb-api_enabled">Post each entry to an API</label>
              </div>
              {input('fb-api_url', 'API URL', draft.api_url, (v) => set({ api_url: v }), {
                type: 'url',
                max: 2048,
                required: draft.api_enabled,
                error: err('api_url'),
                readOnly: !props.canChangeApi,
              })}
              {input('fb-api_secret', 'Secret (optional)', draft.api_secret, (v) => set({ api_secret: v }), {
                max: FORM_LIMITS.apiSecret,
                error: err('api_secret'),
                readOnly: !props.canChangeApi,
                hint: 'At least 16 characters, or whsec_ and the base64 of 24 to 64 bytes. Signs each post.',
              })}
              <h2 className="subheading">Field mappings</h2>
              <p className="help-text">
                Each entry is posted as JSON: one key per mapping, with the value of its field (a file as its name, size and type).
              </p>
              {err('api_mapping') && <p className="field-error">{err('api_mapping')}</p>}
              {draft.mappings.map((m, k) => (
                <div key={m.key} className="mapping-row">
                  {input(
                    `fb-map-${k}-key`,
                    'External key',
                    m.external,
                    (v) => set({ mappings: draft.mappings.map((x, n) => (n === k ? { ...x, external: v } : x)) }),
                    { max: FORM_LIMITS.text },
                  )}
                  <div className="field">
                    <label htmlFor={`fb-map-${k}-field`}>Form field</label>
                    <select
                      id={`fb-map-${k}-field`}
                      value={m.field}
                      onChange={(e) => set({ mappings: draft.mappings.map((x, n) => (n === k ? { ...x, field: e.target.value } : x)) })}
                    >
                      <option value="">Choose a field…</option>
                      {allNames.map((n) => (
                        <option key={n} value={n}>
                          {n}
                        </option>
                      ))}
                    </select>
                  </div>
                  <button
                    type="button"
                    className="btn btn-danger btn-sm"
                    onClick={() => set({ mappings: draft.mappings.filter((_, n) => n !== k) })}
                    aria-label={`Delete mapping ${k + 1}`}
                  >
                    Delete
                  </button>
                </div>
              ))}
              <button
                type="button"
                className="btn btn-secondary"
                onClick={() => set({ mappings: [...draft.mappings, { key: nextKey++, external: '', field: '' }] })}
              >
                Add Mapping
              </button>
            </>
          )}
        </div>
        <aside className="builder-preview card" aria-label="Preview">
          <h2 className="subheading">Preview</h2>
          {draft.sections.length > 0 && (
            <>
              <div className="preview-nav">
                <button
                  type="button"
                  className="btn btn-secondary btn-sm"
                  disabled={previewSection === 0}
                  onClick={() => setPreviewSection(previewSection - 1)}
                  aria-label="Previous section in the preview"
                >
                  ‹
                </button>
                <span>
                  {Math.min(previewSection, draft.sections.length - 1) + 1} / {draft.sections.length}
                </span>
                <button
                  type="button"
                  className="btn btn-secondary btn-sm"
                  disabled={previewSection >= draft.sections.length - 1}
                  onClick={() => setPreviewSection(previewSection + 1)}
                  aria-label="Next section in the preview"
                >
                  ›
                </button>
              </div>
              <Preview section={draft.sections[Math.min(previewSection, draft.sections.length - 1)]} title={draft.title} />
            </>
          )}
        </aside>
      </div>
    </div>
  );
}

function Preview({ section, title }: { section: DraftSection; title: string }) {
  return (
    <div className="preview-body" aria-hidden="true">
      <p className="preview-title">{title || 'Untitled form'}</p>
      <p className="preview-section">{section.title || 'Untitled section'}</p>
      {section.fields.map((f) => (
        <div key={f.key} className="preview-field">
          <span className="preview-label">
            {f.label || f.name || 'Unnamed field'}
            {f.required ? ' *' : ''}
          </span>
          {CHOICE_FIELD_TYPES.includes(f.field_type) ? (
            <span className="preview-options">
              {f.options
                .split('\n')
                .filter((o) => o.trim())
                .join(' · ') || 'No options yet'}
            </span>
          ) : (
            <span className="preview-input">
              {f.field_type === 'file' ? 'Choose a file' : f.placeholder || f.field_type.replace('_', ' ')}
            </span>
          )}
        </div>
      ))}
    </div>
  );
}

mountIsland('form-builder', FormBuilder);
