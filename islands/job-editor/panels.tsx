/** The editor's tab panels: Basics, Compensation, Description and Notifications (Questions is QuestionsEditor). */
import { useEffect, useState, type ReactNode } from 'react';
import { RichTextEditor } from './rich-text-editor.js';
import { JOB_LIMITS, JOB_MESSAGES } from '../../src/jobs/schema.js';
import type { ApplicationPostPayload } from '../../src/posts/types.js';
import { countryCodes, utcInstant, type Draft, type Option, type Props, type SetField } from './draft.js';
import { SelectField, TextField, described } from './fields.js';
import type { TabKey } from './tabs.js';

/** What every panel edits: the draft, the server's field messages and the setter that clears them. */
export interface PanelProps {
  draft: Draft;
  errors: Record<string, string>;
  set: SetField;
}

/**
 * A panel's fields are built the first time its tab is shown and kept from then on (hidden, with
 * what was typed and each rich-text editor's history). Building every panel up front made the
 * editor's first render one long task on a phone: fourteen rich-text editors for a job with five
 * questions, none of them visible under Basics.
 */
export function TabPanel({ tab, current, className, children }: { tab: TabKey; current: TabKey; className?: string; children: ReactNode }) {
  const [shown, setShown] = useState(current === tab);
  if (current === tab && !shown) setShown(true); // state adjusted while rendering: no extra commit
  return (
    <section
      role="tabpanel"
      id={`panel-${tab}`}
      aria-labelledby={`tab-${tab}`}
      hidden={current !== tab}
      className={className ?? 'tab-panel card'}
    >
      {shown && children}
    </section>
  );
}

/** The public id maker, loaded once a title is typed: its transliteration tables take a phone tens of ms to build. */
let slugOf: ((title: string, max: number) => string) | null = null;

/** The public id the server would make from `title` ('' until the maker is loaded). */
function useMadeId(title: string): string {
  const [, loaded] = useState(false);
  useEffect(() => {
    if (title && !slugOf)
      void import('../../src/shared/ids.js').then((m) => {
        slugOf = m.slugPublicId;
        loaded(true);
      });
  }, [title]);
  return title && slugOf ? slugOf(title, JOB_LIMITS.publicId) : '';
}

/** The browser's time zone as the closing date's hint names it: 'Europe/Berlin (UTC+01:00)'. */
function browserZone(at: Date): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'local time';
  const minutes = -at.getTimezoneOffset();
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${zone} (UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')})`;
}

/** One Intl.DisplayNames for the country hint (see currencyNames). */
let regionNames: Intl.DisplayNames | null | undefined;

function countryName(code: string): string {
  try {
    regionNames ??= new Intl.DisplayNames(['en'], { type: 'region' });
    return regionNames?.of(code) ?? code;
  } catch {
    regionNames ??= null;
    return code;
  }
}

/** The closing date's hint: the zone it is read in, and the instant in UTC once one is given. */
function closingHint(local: string): string {
  const instant = utcInstant(local);
  const at = instant && Number.isFinite(Date.parse(instant)) ? new Date(instant) : null;
  const zone = `Optional. In your time zone, ${browserZone(at ?? new Date())}. After it the job takes no applications.`;
  return at ? `${zone} That is ${at.toISOString().slice(0, 16).replace('T', ' ')} UTC.` : zone;
}

export function BasicsPanel({
  mode,
  statuses,
  jobTypes,
  workModes,
  departments,
  ...p
}: PanelProps & Pick<Props, 'mode' | 'statuses' | 'jobTypes' | 'workModes' | 'departments'>) {
  const { draft } = p;
  const madeId = useMadeId(draft.title);
  const countries = countryCodes(draft.applicant_countries);
  return (
    <>
      <div className="grid-2">
        {mode === 'create' ? (
          <TextField
            {...p}
            name="public_id"
            label="Public ID"
            hint="Optional. Left blank, it is made from the title (-2, -3 … when taken)."
            maxLength={JOB_LIMITS.publicId}
            placeholder={`e.g. ${madeId || 'senior-backend-engineer'}`}
          />
        ) : (
          <TextField {...p} name="public_id" label="Public ID" hint="The public ID cannot be changed." readOnly />
        )}
        <SelectField {...p} name="status" label="Status" options={statuses} />
      </div>
      <TextField {...p} name="title" label="Title" required maxLength={JOB_LIMITS.text} />
      <div className="grid-2">
        <TextField
          {...p}
          name="department"
          label="Department"
          maxLength={JOB_LIMITS.text}
          list="job-department-suggestions"
          hint="Optional. Jobs are grouped by department on the careers page."
          placeholder="e.g. Engineering"
        />
        <datalist id="job-department-suggestions">
          {departments.map((d) => (
            <option key={d} value={d} />
          ))}
        </datalist>
        <TextField {...p} name="closes_at" label="Closing date" type="datetime-local" hint={closingHint(draft.closes_at)} step="60" />
      </div>
      <div className="grid-3">
        <TextField {...p} name="location" label="Location" required maxLength={JOB_LIMITS.text} />
        <SelectField {...p} name="job_type" label="Job type" options={jobTypes} required placeholder="Select a job type" />
        <SelectField {...p} name="work_mode" label="Work mode" options={workModes} required placeholder="Select a work mode" />
      </div>
      {(draft.work_mode === 'REMOTE' || draft.applicant_countries) && (
        <TextField
          {...p}
          name="applicant_countries"
          label="Countries applicants may live in"
          hint={`For remote jobs whose location names no country: ISO country codes, separated by commas.${countries.length ? ` ${countries.map(countryName).join(', ')}.` : ''}`}
          placeholder="e.g. US, CA, GB"
          maxLength={JOB_LIMITS.countries * 4}
        />
      )}
      <p className="help-text">
        <span className="required-mark" aria-hidden="true">
          *
        </span>{' '}
        Required field
      </p>
    </>
  );
}

/** One Intl.DisplayNames for every name and render: one per name cost about 60 ms per render of the list at a phone's speed (4x slower than this machine). */
let currencyNames: Intl.DisplayNames | null | undefined;

function currencyName(code: string): string {
  try {
    currencyNames ??= new Intl.DisplayNames(['en'], { type: 'currency' });
  } catch {
    currencyNames = null;
  }
  try {
    return currencyNames?.of(code) ?? code;
  } catch {
    return code;
  }
}

export function CompensationPanel({ currencies, salaryPeriods, ...p }: PanelProps & Pick<Props, 'currencies' | 'salaryPeriods'>) {
  // A saved currency no longer in the list stays selectable.
  const currencyOptions: Option[] = (currencies.includes(p.draft.currency) ? currencies : [p.draft.currency, ...currencies]).map((c) => ({
    value: c,
    label: `${c} — ${currencyName(c)}`,
  }));
  return (
    <>
      <div className="grid-2">
        <SelectField {...p} name="currency" label="Currency" options={currencyOptions} />
        <SelectField {...p} name="salary_period" label="Pay period" options={salaryPeriods} />
      </div>
      <div className="grid-2">
        <TextField {...p} name="min_salary" label="Minimum salary" type="number" inputMode="decimal" hint="Leave blank if not shown." />
        <TextField {...p} name="max_salary" label="Maximum salary" type="number" inputMode="decimal" hint="Leave blank if not shown." />
      </div>
      <div className="grid-2">
        <TextField {...p} name="experience_required" label="Experience required" maxLength={JOB_LIMITS.text} placeholder="e.g. 3+ years" />
        <TextField
          {...p}
          name="duration"
          label="Duration"
          maxLength={JOB_LIMITS.text}
          hint="Optional, e.g. for contracts and internships."
          placeholder="e.g. 6 months"
        />
      </div>
    </>
  );
}

const RICH_FIELDS = [
  ['description', 'Description'],
  ['responsibilities', 'Responsibilities'],
  ['requirements', 'Requirements'],
  ['perks_benefits', 'Perks & benefits'],
] as const;

export function DescriptionPanel({ draft, errors, set }: PanelProps) {
  return (
    <>
      {RICH_FIELDS.map(([key, label]) => (
        <RichTextEditor
          key={key}
          id={`job-${key}`}
          label={label}
          value={draft[key]}
          error={errors[key]}
          onChange={(html) => set(key, html)}
        />
      ))}
    </>
  );
}

export function NotificationsPanel({ canChangeWebhook, ...p }: PanelProps & Pick<Props, 'canChangeWebhook'>) {
  const { draft, errors, set } = p;
  // Issue 28: only an admin chooses where applications are sent; others see the settings as they are.
  const locked = !canChangeWebhook;
  const samplePayload: ApplicationPostPayload = {
    job_public_id: draft.public_id || 'generated-on-save',
    email: 'jane.doe@example.com',
    first_name: 'Jane',
    second_name: 'Doe',
    phone: '+919876543210',
    secret_key: draft.webhook_secret,
    ...(draft.webhook_include_source
      ? { source: { source: 'linkedin', medium: 'social', campaign: 'spring-hiring', tracking_link_id: null } }
      : {}),
  };
  return (
    <>
      {locked && (
        <p className="alert alert-warning webhook-locked" id="job-webhook-locked">
          {JOB_MESSAGES.webhookReadOnly}
        </p>
      )}
      <div className="check-field">
        <input
          type="checkbox"
          {...described('job-webhook_enabled', false, errors.webhook_enabled)}
          disabled={locked}
          checked={draft.webhook_enabled}
          onChange={(e) => set('webhook_enabled', e.target.checked)}
        />
        <label htmlFor="job-webhook_enabled">Send each application to a webhook</label>
      </div>
      {errors.webhook_enabled && (
        <p className="field-error" id="job-webhook_enabled-error">
          {errors.webhook_enabled}
        </p>
      )}
      <div className="grid-2">
        <TextField
          {...p}
          name="webhook_url"
          label="Webhook URL"
          type="url"
          maxLength={JOB_LIMITS.webhookUrl}
          placeholder="https://example.com/hooks/careers"
          required={draft.webhook_enabled}
          readOnly={locked}
        />
        <TextField
          {...p}
          name="webhook_secret"
          label="Webhook secret"
          maxLength={JOB_LIMITS.webhookSecret}
          readOnly={locked}
          hint="At least 16 characters, or whsec_ and the base64 of 24 to 64 bytes. Signs each post and is sent as secret_key."
        />
      </div>
      <div className="check-field">
        <input
          type="checkbox"
          id="job-webhook_include_source"
          aria-describedby="job-webhook_include_source-hint"
          disabled={locked}
          checked={draft.webhook_include_source}
          onChange={(e) => set('webhook_include_source', e.target.checked)}
        />
        <label htmlFor="job-webhook_include_source">Include where the applicant came from (source)</label>
      </div>
      <p className="help-text" id="job-webhook_include_source-hint">
        Adds a <code>source</code> key (source, medium, campaign and tracking link, or null for a direct visit) after the payload's usual
        keys.
      </p>
      <h2 className="subheading" id="sample-payload-heading">
        Sample webhook payload
      </h2>
      <p className="help-text">Each application is posted as JSON with these keys:</p>
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the scrollable sample is a named, focusable region for keyboard users */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the scrollable sample is a named, focusable region for keyboard users */}
      <pre className="code-sample" aria-labelledby="sample-payload-heading" tabIndex={0}>
        {JSON.stringify(samplePayload, null, 2)}
      </pre>
    </>
  );
}
