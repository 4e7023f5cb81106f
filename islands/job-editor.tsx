/**
 * Job editor island (/hr/jobs/new, /hr/jobs/{id}/edit; spec 02 section 2 "Job editor").
 * Tabs Basics, Compensation, Description, Questions, Notifications with Previous/Next; Cancel goes
 * to /hr/jobs/list; Save Changes reads 'Saving…' while saving. Create -> POST, then /hr/jobs/list.
 * Edit -> loads the job with GET (a failure sends the user to /hrviewlogin), saves with PUT and
 * stays, showing the saved job. A failed save shows 'Failed to save job.' with the details and
 * puts each field error next to its field, on the tab of the first error. As in the apply wizard,
 * editing a field takes its message away, and the banner goes once every field it names has been
 * edited (a banner naming no field stays until the next save).
 * Work is not lost silently: with changes not saved yet (the form differs from what was loaded or
 * last saved), leaving asks first: the browser's own prompt for reloads, closing and typed
 * addresses, a confirm for links on the page (Cancel, the header) and Logout.
 */
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { mountIsland } from './components/mount.js';
import { RichTextEditor } from './components/rich-text-editor.js';
import { ApiError, errorLines, fieldErrors, hrJson } from './components/hr-api.js';
import type { HrJob } from '../src/jobs/types.js';
import type { ApplicationPostPayload } from '../src/posts/types.js';
import './job-editor.css';

interface Option {
  value: string;
  label: string;
}

interface Props {
  mode: 'create' | 'edit';
  jobId: number | null;
  /** The saved title, for the heading while the job loads. */
  title: string;
  jobTypes: Option[];
  workModes: Option[];
  statuses: Option[];
  answerTypes: Option[];
  currencies: string[];
}

interface QuestionDraft {
  /** Stable React key; `id` is the server's (null until saved). */
  key: string;
  id: number | null;
  text: string;
  help_text: string;
  placeholder: string;
  required: boolean;
  answer_type: string;
  options: string[];
}

interface Draft {
  public_id: string;
  title: string;
  location: string;
  job_type: string;
  work_mode: string;
  status: string;
  currency: string;
  min_salary: string;
  max_salary: string;
  experience_required: string;
  duration: string;
  description: string;
  responsibilities: string;
  requirements: string;
  perks_benefits: string;
  webhook_enabled: boolean;
  webhook_url: string;
  webhook_secret: string;
  questions: QuestionDraft[];
}

const CHOICE_TYPES = ['single_choice', 'checkbox'];

const TABS = [
  { key: 'basics', label: 'Basics' },
  { key: 'comp', label: 'Compensation' },
  { key: 'desc', label: 'Description' },
  { key: 'qs', label: 'Questions' },
  { key: 'notify', label: 'Notifications' },
] as const;
type TabKey = (typeof TABS)[number]['key'];

const FIELD_TAB: Record<string, TabKey> = {
  public_id: 'basics', title: 'basics', location: 'basics', job_type: 'basics', work_mode: 'basics', status: 'basics',
  currency: 'comp', min_salary: 'comp', max_salary: 'comp', experience_required: 'comp', duration: 'comp',
  description: 'desc', responsibilities: 'desc', requirements: 'desc', perks_benefits: 'desc',
  webhook_enabled: 'notify', webhook_url: 'notify', webhook_secret: 'notify',
};

function tabOf(field: string): TabKey | null {
  if (field === 'questions' || field.startsWith('questions.')) return 'qs';
  return FIELD_TAB[field] ?? null;
}

/** The element holding a field, to focus after a failed save. */
function elementIdOf(field: string, questions: QuestionDraft[]): string {
  const m = /^questions\.(\d+)\.(\w+)/.exec(field);
  if (m) {
    const q = questions[Number(m[1])];
    return q ? `q-${q.key}-${m[2] === 'options' ? 'option-0' : m[2]}` : 'questions-list';
  }
  return field === 'questions' ? 'questions-list' : `job-${field}`;
}

/** Fields checked together on the server: editing one of them may fix the other's message. */
const RELATED_FIELDS: Partial<Record<keyof Draft, (keyof Draft)[]>> = {
  min_salary: ['min_salary', 'max_salary'],
  max_salary: ['min_salary', 'max_salary'],
  webhook_enabled: ['webhook_enabled', 'webhook_url'],
};

const LEAVE_MESSAGE = 'You have unsaved changes to this job. Leave this page and lose them?';

interface Failure {
  lines: string[];
  /** The field messages the banner points at; once all are edited away, so is the banner. */
  keys: string[];
}

/** Errors without the keys `drop` picks (the same object when none is picked). */
function withoutErrors(errors: Record<string, string>, drop: (key: string) => boolean): Record<string, string> {
  return Object.keys(errors).some(drop) ? Object.fromEntries(Object.entries(errors).filter(([k]) => !drop(k))) : errors;
}

/**
 * A click that would take the browser to another page: a plain left click on a link that leaves
 * this document in this tab (not a new tab or window, a download, a same-page #fragment, or a link
 * inside the rich-text editor, where a click edits), or on the header's Logout.
 */
function leavingClick(e: MouseEvent): boolean {
  if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return false;
  const target = e.target instanceof Element ? e.target : null;
  if (target?.closest('[data-logout]')) return true;
  const link = target?.closest<HTMLAnchorElement>('a[href]');
  if (!link || link.isContentEditable || link.hasAttribute('download')) return false;
  if (link.target && link.target !== '_self') return false;
  const url = new URL(link.href, location.href);
  return !(url.origin === location.origin && url.pathname === location.pathname && url.search === location.search && url.hash !== '');
}

let keySeq = 0;
const newKey = () => `n${++keySeq}`;

function emptyQuestion(): QuestionDraft {
  return { key: newKey(), id: null, text: '', help_text: '', placeholder: '', required: false, answer_type: 'short_text', options: [] };
}

function emptyDraft(): Draft {
  return {
    public_id: '', title: '', location: '', job_type: '', work_mode: '', status: 'INACTIVE',
    currency: 'USD', min_salary: '', max_salary: '', experience_required: '', duration: '',
    description: '', responsibilities: '', requirements: '', perks_benefits: '',
    webhook_enabled: false, webhook_url: '', webhook_secret: '', questions: [],
  };
}

function toDraft(job: HrJob, previous?: Draft): Draft {
  return {
    public_id: job.public_id,
    title: job.title,
    location: job.location,
    job_type: job.job_type,
    work_mode: job.work_mode,
    status: job.status,
    currency: job.currency,
    min_salary: job.min_salary === null ? '' : String(job.min_salary),
    max_salary: job.max_salary === null ? '' : String(job.max_salary),
    experience_required: job.experience_required,
    duration: job.duration ?? '',
    description: job.description,
    responsibilities: job.responsibilities,
    requirements: job.requirements,
    perks_benefits: job.perks_benefits,
    webhook_enabled: job.webhook_enabled,
    webhook_url: job.webhook_url ?? '',
    webhook_secret: job.webhook_secret ?? '',
    // Keys survive a save, so the question editors stay mounted.
    questions: job.questions.map((q, i) => ({
      key: previous?.questions[i]?.key ?? newKey(),
      id: q.id,
      text: q.text,
      help_text: q.help_text,
      placeholder: q.placeholder,
      required: q.required,
      answer_type: q.answer_type,
      options: q.options,
    })),
  };
}

/** Blank salary -> null (spec 02 section 5 "Job save"); anything else is sent for the server to judge. */
function salary(v: string): number | string | null {
  const s = v.trim();
  if (!s) return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : s;
}

function toPayload(d: Draft, mode: Props['mode']) {
  return {
    ...(mode === 'create' ? { public_id: d.public_id.trim() || null } : { public_id: d.public_id }),
    title: d.title,
    location: d.location,
    job_type: d.job_type,
    work_mode: d.work_mode,
    status: d.status,
    currency: d.currency,
    min_salary: salary(d.min_salary),
    max_salary: salary(d.max_salary),
    experience_required: d.experience_required,
    duration: d.duration,
    description: d.description,
    responsibilities: d.responsibilities,
    requirements: d.requirements,
    perks_benefits: d.perks_benefits,
    webhook_enabled: d.webhook_enabled,
    webhook_url: d.webhook_url,
    webhook_secret: d.webhook_secret,
    // Options only for choice questions, blank ones dropped; order is the position in the list.
    questions: d.questions.map((q, order) => ({
      ...(q.id ? { id: q.id } : {}),
      text: q.text,
      help_text: q.help_text,
      placeholder: q.placeholder,
      required: q.required,
      answer_type: q.answer_type,
      options: CHOICE_TYPES.includes(q.answer_type) ? q.options.map((o) => o.trim()).filter(Boolean) : [],
      order,
    })),
  };
}

/** The form as the server would receive it: two equal snapshots mean nothing to save. */
function snapshot(d: Draft, mode: Props['mode']): string {
  return JSON.stringify(toPayload(d, mode));
}

function currencyName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'currency' }).of(code) ?? code;
  } catch {
    return code;
  }
}

type SetField = <K extends keyof Draft>(key: K, value: Draft[K]) => void;

function FieldShell({ id, label, required, hint, error, children }: { id: string; label: string; required?: boolean; hint?: string; error?: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {required && <span className="required-mark" aria-hidden="true"> *</span>}
      </label>
      {children}
      {hint && <p className="help-text" id={`${id}-hint`}>{hint}</p>}
      {error && <p className="field-error" id={`${id}-error`}>{error}</p>}
    </div>
  );
}

/** aria attributes of an input with an optional hint and error. */
function described(id: string, hint: boolean, error?: string, required?: boolean) {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return {
    id,
    'aria-describedby': ids || undefined,
    'aria-invalid': error ? true : undefined,
    'aria-required': required ? true : undefined,
  } as const;
}

function JobEditor(props: Props) {
  const { mode, jobId } = props;
  const [draft, setDraft] = useState<Draft | null>(mode === 'create' ? emptyDraft() : null);
  const [savedTitle, setSavedTitle] = useState(props.title);
  const [tab, setTab] = useState<TabKey>('basics');
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<Failure | null>(null);
  const [saved, setSaved] = useState(false);
  const [focusTarget, setFocusTarget] = useState<string | null>(null);
  const banner = useRef<HTMLDivElement>(null);
  const tabRefs = useRef<Record<string, HTMLButtonElement | null>>({});
  /** The draft as last rendered, for event handlers that outlive a render. */
  const latest = useRef(draft);
  latest.current = draft;
  /** The form as loaded or last saved, and a state the user already agreed to leave behind. */
  const [initial] = useState(() => (draft ? snapshot(draft, mode) : null));
  const baseline = useRef<string | null>(initial);
  const leaveConfirmed = useRef<string | null>(null);
  const unsaved = () => {
    const now = latest.current ? snapshot(latest.current, mode) : null;
    return now !== null && now !== baseline.current && now !== leaveConfirmed.current;
  };

  useEffect(() => {
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      if (!unsaved()) return;
      e.preventDefault();
      e.returnValue = ''; // Chromium before 119 asks only with returnValue set
    };
    // Capture phase: decided before the link follows or Logout's own handler revokes the session.
    const onClick = (e: MouseEvent) => {
      if (!leavingClick(e) || !unsaved()) return;
      if (window.confirm(LEAVE_MESSAGE)) {
        leaveConfirmed.current = latest.current ? snapshot(latest.current, mode) : null;
        return;
      }
      e.preventDefault();
      e.stopImmediatePropagation();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      document.removeEventListener('click', onClick, true);
    };
  }, [mode]);

  // The failed save's banner goes once every field message it points at has been edited away.
  useEffect(() => {
    if (failure && failure.keys.length > 0 && failure.keys.every((k) => !(k in errors))) setFailure(null);
  }, [failure, errors]);

  useEffect(() => {
    if (mode !== 'edit' || jobId === null) return;
    hrJson<HrJob>(`/api/hr/jobs/${jobId}/`)
      .then((job) => {
        const loaded = toDraft(job);
        baseline.current = snapshot(loaded, mode);
        setDraft(loaded);
        setSavedTitle(job.title);
      })
      // Spec: a job that cannot be loaded sends the user to the login page (a 401 is already on
      // its way there through hrFetch). No `next` back here: with a live session the login page
      // moves on to the dashboard instead of looping into this failing load.
      .catch((err) => {
        if (!(err instanceof ApiError && err.status === 401)) location.assign('/hrviewlogin');
      });
  }, [mode, jobId]);

  // The selected tab stays in view (the tab list scrolls sideways on small screens).
  useEffect(() => {
    tabRefs.current[tab]?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [tab]);

  // After a failed save: show the tab of the first error, then move focus to that field.
  useEffect(() => {
    if (!focusTarget) return;
    const [panelId, fallbackId] = focusTarget.includes('|') ? focusTarget.split('|') : ['', focusTarget];
    const el = (panelId ? document.getElementById(panelId)?.querySelector<HTMLElement>('[aria-invalid="true"]') : null) ?? document.getElementById(fallbackId);
    if (el) {
      el.focus();
      el.scrollIntoView({ block: 'center' });
    } else {
      banner.current?.focus();
    }
    setFocusTarget(null);
  }, [focusTarget, tab]);

  if (!draft) {
    return (
      <>
        <div className="page-title"><h1>{`Edit Job: ${savedTitle}`}</h1></div>
        <p className="help-text" role="status">Loading job…</p>
      </>
    );
  }

  // Every change is a functional update: rich-text editors keep an earlier onChange (see RichTextEditor).
  const dropErrors = (drop: (key: string) => boolean) => setErrors((e) => withoutErrors(e, drop));
  const set: SetField = (key, value) => {
    setDraft((d) => (d ? { ...d, [key]: value } : d));
    setSaved(false);
    const related: string[] = RELATED_FIELDS[key] ?? [key];
    dropErrors((k) => related.includes(k));
  };
  const setQuestions = (update: (qs: QuestionDraft[]) => QuestionDraft[]) => {
    setDraft((d) => (d ? { ...d, questions: update(d.questions) } : d));
    setSaved(false);
  };
  /** One question's fields changed: their messages go, and the question's own. */
  const editQuestion = (key: string, patch: Partial<QuestionDraft>) => {
    const i = latest.current?.questions.findIndex((q) => q.key === key) ?? -1;
    setQuestions((qs) => qs.map((q) => (q.key === key ? { ...q, ...patch } : q)));
    // A new answer type decides whether options are needed at all.
    const fields = 'answer_type' in patch ? [...Object.keys(patch), 'options'] : Object.keys(patch);
    if (i >= 0) dropErrors((k) => k === `questions.${i}` || fields.some((f) => k === `questions.${i}.${f}` || k.startsWith(`questions.${i}.${f}.`)));
  };
  /** Questions added, removed or moved: the list's messages no longer line up with its questions. */
  const reshapeQuestions = (update: (qs: QuestionDraft[]) => QuestionDraft[]) => {
    setQuestions(update);
    dropErrors((k) => k === 'questions' || k.startsWith('questions.'));
  };

  const save = async () => {
    if (saving) return;
    setSaving(true);
    setSaved(false);
    setFailure(null);
    setErrors({});
    try {
      const body = toPayload(draft, mode);
      if (mode === 'create') {
        await hrJson<HrJob>('/api/hr/jobs/', { method: 'POST', body });
        baseline.current = snapshot(draft, mode); // saved: nothing to ask about on the way out
        location.assign('/hr/jobs/list');
        return;
      }
      const job = await hrJson<HrJob>(`/api/hr/jobs/${jobId}/`, { method: 'PUT', body });
      const savedDraft = toDraft(job, latest.current ?? undefined);
      baseline.current = snapshot(savedDraft, mode);
      setDraft(savedDraft);
      setSavedTitle(job.title);
      document.title = `Edit Job: ${job.title}`;
      setSaved(true);
      setSaving(false);
    } catch (err) {
      setSaving(false);
      if (err instanceof ApiError && err.status === 401) return; // hrFetch is sending the user to the login page
      const body = err instanceof ApiError ? err.body : null;
      const fields = fieldErrors(body);
      // The banner names the fields whose messages are shown beside them.
      setFailure({ lines: errorLines(body), keys: Object.keys(fields).filter((k) => tabOf(k) !== null) });
      setErrors(fields);
      // The first tab (in tab order) holding an error is shown; focus goes to its first marked field.
      const firstTab = TABS.find((t) => Object.keys(fields).some((k) => tabOf(k) === t.key));
      if (firstTab) {
        const inTab = Object.keys(fields).filter((k) => tabOf(k) === firstTab.key);
        setTab(firstTab.key);
        setFocusTarget(`panel-${firstTab.key}|${elementIdOf(inTab[0], draft.questions)}`);
      } else {
        setFocusTarget('job-save-banner');
      }
    }
  };

  const tabIndex = TABS.findIndex((t) => t.key === tab);
  const goTab = (i: number) => {
    const next = TABS[(i + TABS.length) % TABS.length].key;
    setTab(next);
    tabRefs.current[next]?.focus();
  };
  const onTabKey = (e: KeyboardEvent) => {
    const map: Record<string, number> = { ArrowRight: tabIndex + 1, ArrowLeft: tabIndex - 1, Home: 0, End: TABS.length - 1 };
    if (!(e.key in map)) return;
    e.preventDefault();
    goTab(map[e.key]);
  };
  const tabHasErrors = (key: TabKey) => Object.keys(errors).some((f) => tabOf(f) === key);

  const heading = mode === 'create' ? 'Create Job' : `Edit Job: ${savedTitle}`;
  const input = (key: keyof Draft, label: string, opts: { required?: boolean; hint?: string; type?: string; maxLength?: number; readOnly?: boolean; placeholder?: string; inputMode?: 'decimal' } = {}) => {
    const id = `job-${key}`;
    return (
      <FieldShell id={id} label={label} required={opts.required} hint={opts.hint} error={errors[key]}>
        <input
          {...described(id, !!opts.hint, errors[key], opts.required)}
          type={opts.type ?? 'text'}
          value={draft[key] as string}
          maxLength={opts.maxLength}
          readOnly={opts.readOnly}
          placeholder={opts.placeholder}
          inputMode={opts.inputMode}
          min={opts.type === 'number' ? 0 : undefined}
          step={opts.type === 'number' ? '0.01' : undefined}
          onChange={(e) => set(key, e.target.value as never)}
        />
      </FieldShell>
    );
  };
  const select = (key: keyof Draft, label: string, options: Option[], opts: { required?: boolean; placeholder?: string } = {}) => {
    const id = `job-${key}`;
    return (
      <FieldShell id={id} label={label} required={opts.required} error={errors[key]}>
        <select {...described(id, false, errors[key], opts.required)} value={draft[key] as string} onChange={(e) => set(key, e.target.value as never)}>
          {opts.placeholder && <option value="">{opts.placeholder}</option>}
          {options.map((o) => (
            <option key={o.value} value={o.value}>{o.label}</option>
          ))}
        </select>
      </FieldShell>
    );
  };
  const rich = (key: 'description' | 'responsibilities' | 'requirements' | 'perks_benefits', label: string) => (
    <RichTextEditor id={`job-${key}`} label={label} value={draft[key]} error={errors[key]} onChange={(html) => set(key, html)} />
  );

  const currencyOptions = (props.currencies.includes(draft.currency) ? props.currencies : [draft.currency, ...props.currencies]).map((c) => ({ value: c, label: `${c} — ${currencyName(c)}` }));

  const samplePayload: ApplicationPostPayload = {
    job_public_id: draft.public_id || 'generated-on-save',
    email: 'jane.doe@example.com',
    first_name: 'Jane',
    second_name: 'Doe',
    phone: '+919876543210',
    secret_key: draft.webhook_secret,
  };

  return (
    <form className="job-editor" noValidate onSubmit={(e) => { e.preventDefault(); void save(); }}>
      <div className="page-title">
        <h1>{heading}</h1>
      </div>

      <div id="job-save-banner" ref={banner} tabIndex={-1} className="banner-slot">
        {failure && (
          <div className="alert alert-error" role="alert">
            <p className="alert-title">Failed to save job.</p>
            <ul className="error-lines">
              {failure.lines.map((line, i) => (
                <li key={i}>{line}</li>
              ))}
            </ul>
          </div>
        )}
        {saved && (
          <div className="alert alert-success" role="status">
            Changes saved. <a href="/hr/jobs/list">Back to all job posts</a>
          </div>
        )}
      </div>

      <div className="tabs" role="tablist" aria-label="Job sections" onKeyDown={onTabKey}>
        {TABS.map((t) => (
          <button
            key={t.key}
            ref={(el) => {
              tabRefs.current[t.key] = el;
            }}
            type="button"
            role="tab"
            id={`tab-${t.key}`}
            aria-controls={`panel-${t.key}`}
            aria-selected={tab === t.key}
            tabIndex={tab === t.key ? 0 : -1}
            className="tab"
            onClick={() => setTab(t.key)}
          >
            {t.label}
            {tabHasErrors(t.key) && (
              <>
                <span className="tab-error-dot" aria-hidden="true" />
                <span className="visually-hidden"> (has errors)</span>
              </>
            )}
          </button>
        ))}
      </div>

      <section role="tabpanel" id="panel-basics" aria-labelledby="tab-basics" hidden={tab !== 'basics'} className="tab-panel card">
        <div className="grid-2">
          {mode === 'create'
            ? input('public_id', 'Public ID', { hint: 'Optional. Generated if left blank.', maxLength: 64, placeholder: 'e.g. backend-engineer-2026' })
            : input('public_id', 'Public ID', { hint: 'The public ID cannot be changed.', readOnly: true })}
          {select('status', 'Status', props.statuses)}
        </div>
        {input('title', 'Title', { required: true, maxLength: 191 })}
        <div className="grid-3">
          {input('location', 'Location', { required: true, maxLength: 191 })}
          {select('job_type', 'Job type', props.jobTypes, { required: true, placeholder: 'Select a job type' })}
          {select('work_mode', 'Work mode', props.workModes, { required: true, placeholder: 'Select a work mode' })}
        </div>
        <p className="help-text"><span className="required-mark" aria-hidden="true">*</span> Required field</p>
      </section>

      <section role="tabpanel" id="panel-comp" aria-labelledby="tab-comp" hidden={tab !== 'comp'} className="tab-panel card">
        <div className="grid-3">
          {select('currency', 'Currency', currencyOptions)}
          {input('min_salary', 'Minimum salary', { type: 'number', inputMode: 'decimal', hint: 'Leave blank if not shown.' })}
          {input('max_salary', 'Maximum salary', { type: 'number', inputMode: 'decimal', hint: 'Leave blank if not shown.' })}
        </div>
        <div className="grid-2">
          {input('experience_required', 'Experience required', { maxLength: 191, placeholder: 'e.g. 3+ years' })}
          {input('duration', 'Duration', { maxLength: 191, hint: 'Optional, e.g. for contracts and internships.', placeholder: 'e.g. 6 months' })}
        </div>
      </section>

      <section role="tabpanel" id="panel-desc" aria-labelledby="tab-desc" hidden={tab !== 'desc'} className="tab-panel card stack">
        {rich('description', 'Description')}
        {rich('responsibilities', 'Responsibilities')}
        {rich('requirements', 'Requirements')}
        {rich('perks_benefits', 'Perks & benefits')}
      </section>

      <section role="tabpanel" id="panel-qs" aria-labelledby="tab-qs" hidden={tab !== 'qs'} className="tab-panel card">
        <QuestionsEditor questions={draft.questions} editQuestion={editQuestion} reshapeQuestions={reshapeQuestions} errors={errors} answerTypes={props.answerTypes} />
      </section>

      <section role="tabpanel" id="panel-notify" aria-labelledby="tab-notify" hidden={tab !== 'notify'} className="tab-panel card">
        <div className="check-field">
          <input
            type="checkbox"
            {...described('job-webhook_enabled', false, errors.webhook_enabled)}
            checked={draft.webhook_enabled}
            onChange={(e) => set('webhook_enabled', e.target.checked)}
          />
          <label htmlFor="job-webhook_enabled">Send each application to a webhook</label>
        </div>
        {errors.webhook_enabled && <p className="field-error" id="job-webhook_enabled-error">{errors.webhook_enabled}</p>}
        <div className="grid-2">
          {input('webhook_url', 'Webhook URL', { type: 'url', maxLength: 2048, placeholder: 'https://example.com/hooks/careers', required: draft.webhook_enabled })}
          {input('webhook_secret', 'Webhook secret', { maxLength: 255, hint: 'Sent as secret_key so the receiver can check the post.' })}
        </div>
        <h2 className="subheading" id="sample-payload-heading">Sample webhook payload</h2>
        <p className="help-text">Each application is posted as JSON with these keys:</p>
        <pre className="code-sample" aria-labelledby="sample-payload-heading" tabIndex={0}>{JSON.stringify(samplePayload, null, 2)}</pre>
      </section>

      <div className="editor-actions">
        <div className="step-buttons">
          <button type="button" className="btn btn-secondary" disabled={tabIndex === 0} onClick={() => setTab(TABS[tabIndex - 1].key)}>Previous</button>
          <button type="button" className="btn btn-secondary" disabled={tabIndex === TABS.length - 1} onClick={() => setTab(TABS[tabIndex + 1].key)}>Next</button>
        </div>
        <div className="save-buttons">
          <a className="btn btn-secondary" href="/hr/jobs/list">Cancel</a>
          <button type="submit" className="btn btn-primary" disabled={saving} aria-disabled={saving}>
            {saving ? 'Saving…' : 'Save Changes'}
          </button>
        </div>
      </div>
    </form>
  );
}

function QuestionsEditor({ questions, editQuestion: update, reshapeQuestions, errors, answerTypes }: {
  questions: QuestionDraft[];
  editQuestion: (key: string, patch: Partial<QuestionDraft>) => void;
  reshapeQuestions: (update: (qs: QuestionDraft[]) => QuestionDraft[]) => void;
  errors: Record<string, string>;
  answerTypes: Option[];
}) {
  const [announce, setAnnounce] = useState('');
  const move = (from: number, to: number) => {
    if (to < 0 || to >= questions.length || to === from) return;
    reshapeQuestions((qs) => {
      const next = [...qs];
      const [q] = next.splice(from, 1);
      next.splice(to, 0, q);
      return next;
    });
    setAnnounce(`Question moved to position ${to + 1} of ${questions.length}.`);
  };
  const add = () => {
    const q = emptyQuestion();
    reshapeQuestions((qs) => [...qs, q]);
    setAnnounce(`Question ${questions.length + 1} added.`);
    // Focus the new question's text once it is rendered.
    setTimeout(() => document.getElementById(`q-${q.key}-text`)?.focus(), 0);
  };
  const remove = (i: number) => {
    reshapeQuestions((qs) => qs.filter((_, j) => j !== i));
    setAnnounce(`Question ${i + 1} removed.`);
  };

  return (
    <div id="questions-list" tabIndex={-1} className="questions">
      <p className="help-text">Extra questions shown to applicants in the application form, in this order.</p>
      {errors.questions && <p className="field-error">{errors.questions}</p>}
      {questions.length === 0 && <p className="empty-state">No additional questions yet.</p>}
      <ol className="question-list">
        {questions.map((q, i) => {
          const err = (f: string) => errors[`questions.${i}.${f}`];
          const base = `q-${q.key}`;
          const choice = CHOICE_TYPES.includes(q.answer_type);
          return (
            <li key={q.key} className="question-card" aria-labelledby={`${base}-heading`}>
              <div className="question-head">
                <h2 id={`${base}-heading`}>Question {i + 1}</h2>
                <div className="question-tools">
                  <button type="button" className="btn btn-secondary btn-sm" aria-label={`Move question ${i + 1} up`} disabled={i === 0} onClick={() => move(i, i - 1)}>↑ Up</button>
                  <button type="button" className="btn btn-secondary btn-sm" aria-label={`Move question ${i + 1} down`} disabled={i === questions.length - 1} onClick={() => move(i, i + 1)}>↓ Down</button>
                  <button type="button" className="btn btn-danger btn-sm" aria-label={`Remove question ${i + 1}`} onClick={() => remove(i)}>Remove</button>
                </div>
              </div>
              {errors[`questions.${i}`] && <p className="field-error">{errors[`questions.${i}`]}</p>}
              <RichTextEditor id={`${base}-text`} label="Question text" required value={q.text} error={err('text')} onChange={(html) => update(q.key, { text: html })} />
              <div className="grid-3">
                <FieldShell id={`${base}-answer_type`} label="Answer type" error={err('answer_type')}>
                  <select {...described(`${base}-answer_type`, false, err('answer_type'))} value={q.answer_type} onChange={(e) => update(q.key, { answer_type: e.target.value, options: CHOICE_TYPES.includes(e.target.value) && q.options.length === 0 ? [''] : q.options })}>
                    {answerTypes.map((o) => (
                      <option key={o.value} value={o.value}>{o.label}</option>
                    ))}
                  </select>
                </FieldShell>
                <FieldShell id={`${base}-placeholder`} label="Placeholder" error={err('placeholder')}>
                  <input type="text" {...described(`${base}-placeholder`, false, err('placeholder'))} maxLength={191} value={q.placeholder} onChange={(e) => update(q.key, { placeholder: e.target.value })} />
                </FieldShell>
                <FieldShell id={`${base}-order`} label="Order" error={err('order')}>
                  <select {...described(`${base}-order`, false, err('order'))} value={i} onChange={(e) => move(i, Number(e.target.value))}>
                    {questions.map((_, j) => (
                      <option key={j} value={j}>{j + 1}</option>
                    ))}
                  </select>
                </FieldShell>
              </div>
              {choice && (
                <fieldset className="options">
                  <legend>Options</legend>
                  {q.options.map((opt, j) => (
                    <div className="option-row" key={j}>
                      <label className="visually-hidden" htmlFor={`${base}-option-${j}`}>Option {j + 1}</label>
                      <input
                        type="text"
                        id={`${base}-option-${j}`}
                        maxLength={191}
                        placeholder={`Option ${j + 1}`}
                        value={opt}
                        aria-invalid={err('options') ? true : undefined}
                        aria-describedby={err('options') ? `${base}-options-error` : undefined}
                        onChange={(e) => update(q.key, { options: q.options.map((o, k) => (k === j ? e.target.value : o)) })}
                      />
                      <button type="button" className="btn btn-secondary btn-sm" aria-label={`Remove option ${j + 1}`} onClick={() => update(q.key, { options: q.options.filter((_, k) => k !== j) })}>Remove</button>
                    </div>
                  ))}
                  <button type="button" className="btn btn-secondary btn-sm" onClick={() => {
                    update(q.key, { options: [...q.options, ''] });
                    setTimeout(() => document.getElementById(`${base}-option-${q.options.length}`)?.focus(), 0);
                  }}>Add option</button>
                  <p className="help-text">Blank options are dropped on save.</p>
                  {err('options') && <p className="field-error" id={`${base}-options-error`}>{err('options')}</p>}
                </fieldset>
              )}
              <RichTextEditor id={`${base}-help_text`} label="Help text" value={q.help_text} error={err('help_text')} onChange={(html) => update(q.key, { help_text: html })} />
              <div className="check-field">
                <input type="checkbox" {...described(`${base}-required`, false, err('required'))} checked={q.required} onChange={(e) => update(q.key, { required: e.target.checked })} />
                <label htmlFor={`${base}-required`}>Required</label>
              </div>
              {err('required') && <p className="field-error" id={`${base}-required-error`}>{err('required')}</p>}
            </li>
          );
        })}
      </ol>
      <button type="button" className="btn btn-secondary" onClick={add}>Add question</button>
      <p className="visually-hidden" role="status" aria-live="polite">{announce}</p>
    </div>
  );
}

mountIsland('job-editor', JobEditor);
