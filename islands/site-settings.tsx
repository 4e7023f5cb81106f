/**
 * The Site settings page (/hr/settings/site, admins; issue 35): the company name, the logo (upload
 * or remove), the accent colour (its contrast checked as it is typed), the hero's title and text,
 * the "About us" block, the empty-site message and the footer links. Blank fields use the default
 * shown as their placeholder. What the API refuses is shown beside its field; a message after each
 * change is announced.
 */
import { type FormEvent, useId, useRef, useState } from 'react';
import { mountIsland } from './components/mount.js';
import { ApiError, hrJson } from './components/hr-api.js';
import { hrFetch } from './components/session.js';
import { RichTextEditor } from './job-editor/rich-text-editor.js';
import { errorLines, fieldErrors } from '../src/shared/api-errors.js';
import {
  BRANDING_LIMITS,
  BRANDING_MESSAGES,
  MIN_CONTRAST,
  accentContrast,
  accentProblem,
  normaliseHex,
  ratioText,
} from '../src/branding/schema.js';
import type { FooterLink, SiteSettingsInput, SiteSettingsView } from '../src/branding/types.js';
import './site-settings.css';

type Props = { settings: SiteSettingsView; limits: typeof BRANDING_LIMITS };

type Key = keyof SiteSettingsInput;

const inputOf = (s: SiteSettingsView): SiteSettingsInput => ({
  company_name: s.company_name,
  hero_title: s.hero_title,
  hero_text: s.hero_text,
  about_html: s.about_html,
  empty_message: s.empty_message,
  accent_color: s.accent_color,
  footer_links: s.footer_links.map((l) => ({ ...l })),
});

function SiteSettings({ settings: initial }: Props) {
  const id = useId();
  const [view, setView] = useState(initial);
  const [d, setD] = useState(() => inputOf(initial));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string[] | null>(null);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const [logoError, setLogoError] = useState('');
  const [logoBusy, setLogoBusy] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);

  const set = <K extends Key>(key: K, value: SiteSettingsInput[K]) => {
    setD((x) => ({ ...x, [key]: value }));
    setErrors((e) => ({ ...e, [key]: '' }));
  };
  const setLink = (i: number, part: keyof FooterLink, value: string) => {
    setD((x) => ({ ...x, footer_links: x.footer_links.map((l, j) => (j === i ? { ...l, [part]: value } : l)) }));
    setErrors((e) => ({ ...e, [`footer_links.${i}.${part}`]: '' }));
  };

  const focusFirst = (found: Record<string, string>) => {
    const first = Object.keys(found).find((k) => found[k]);
    if (first) document.getElementById(`${id}-${first.replace(/\./g, '-')}`)?.focus();
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setMessage('');
    setProblem(null);
    const accent = accentProblem(d.accent_color);
    if (accent) {
      setErrors({ accent_color: accent });
      focusFirst({ accent_color: accent });
      return;
    }
    setBusy(true);
    try {
      const saved = await hrJson<SiteSettingsView>('/api/hr/settings/site/', { method: 'PUT', body: d });
      setView(saved);
      setD(inputOf(saved));
      setErrors({});
      setMessage('Site settings saved. The careers site shows them now.');
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return;
      const fields = err instanceof ApiError ? fieldErrors(err.body) : {};
      const named = Object.fromEntries(Object.entries(fields).filter(([k]) => k !== 'detail'));
      if (Object.keys(named).length) {
        setErrors(named);
        focusFirst(named);
      } else setProblem(err instanceof ApiError ? errorLines(err.body) : ['The server could not be reached. Please try again.']);
    } finally {
      setBusy(false);
    }
  };

  const uploadLogo = async () => {
    const file = fileRef.current?.files?.[0];
    setLogoError('');
    setMessage('');
    if (!file) {
      setLogoError(BRANDING_MESSAGES.logoMissing);
      fileRef.current?.focus();
      return;
    }
    if (file.size > BRANDING_LIMITS.logoBytes) {
      setLogoError(BRANDING_MESSAGES.logoTooLarge);
      fileRef.current?.focus();
      return;
    }
    setLogoBusy(true);
    try {
      const form = new FormData();
      form.append('logo', file, file.name);
      const res = await hrFetch('/api/hr/settings/site/logo/', { method: 'POST', body: form });
      const body = await res.json().catch(() => null);
      if (res.status === 401) return;
      if (!res.ok) {
        setLogoError(fieldErrors(body).logo ?? errorLines(body).join(' '));
        fileRef.current?.focus();
        return;
      }
      setView(body as SiteSettingsView);
      if (fileRef.current) fileRef.current.value = '';
      setMessage('Logo uploaded. The careers site shows it now.');
    } catch {
      setLogoError('The server could not be reached. Please try again.');
    } finally {
      setLogoBusy(false);
    }
  };

  const removeLogo = async () => {
    setLogoError('');
    setMessage('');
    setLogoBusy(true);
    try {
      await hrJson('/api/hr/settings/site/logo/', { method: 'DELETE' });
      setView((v) => ({ ...v, logo: null }));
      setMessage('Logo removed. The careers site shows the company name instead.');
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) setLogoError('The logo could not be removed. Please try again.');
    } finally {
      setLogoBusy(false);
    }
  };

  const described = (key: string, help?: boolean) => {
    const ids = [help ? `${id}-${key}-help` : '', errors[key] ? `${id}-${key}-err` : ''].filter(Boolean).join(' ');
    return { 'aria-invalid': errors[key] ? true : undefined, 'aria-describedby': ids || undefined };
  };
  const error = (key: string) =>
    errors[key] ? (
      <p id={`${id}-${key}-err`} className="field-error">
        {errors[key]}
      </p>
    ) : null;
  const fieldId = (key: string) => `${id}-${key.replace(/\./g, '-')}`;

  const hex = normaliseHex(d.accent_color);
  const ratio = hex ? accentContrast(hex) : null;

  return (
    <div className="site-settings">
      <div role="status" aria-live="polite">
        {message && <p className="alert alert-success">{message}</p>}
      </div>

      <section className="card site-logo" aria-labelledby={`${id}-logo-h`}>
        <h2 id={`${id}-logo-h`}>Logo</h2>
        <p className="help-text" id={`${id}-logo-help`}>
          PNG, WebP or SVG, at most {BRANDING_LIMITS.logoBytes / 1024 / 1024} MB. Pictures are resized to at most 800 × 240 pixels; SVG
          files are cleaned (scripts, styles and links to other sites are removed). Without a logo the header shows the company name.
        </p>
        {view.logo ? (
          <div className="logo-preview">
            <img
              src={view.logo.url}
              alt={`Current logo of ${view.company_name || view.defaults.company_name}`}
              width={view.logo.width}
              height={view.logo.height}
            />
            <button type="button" className="btn btn-secondary" onClick={removeLogo} disabled={logoBusy}>
              Remove logo
            </button>
          </div>
        ) : (
          <p className="muted">No logo uploaded.</p>
        )}
        <div className="field">
          <label htmlFor={`${id}-logo`}>{view.logo ? 'Replace the logo' : 'Logo file'}</label>
          <input
            ref={fileRef}
            id={`${id}-logo`}
            type="file"
            accept="image/png,image/webp,image/svg+xml,.png,.webp,.svg"
            aria-describedby={[`${id}-logo-help`, logoError ? `${id}-logo-err` : ''].filter(Boolean).join(' ')}
            aria-invalid={logoError ? true : undefined}
            onChange={() => setLogoError('')}
          />
          {logoError && (
            <p id={`${id}-logo-err`} className="field-error">
              {logoError}
            </p>
          )}
        </div>
        <button type="button" className="btn btn-primary" onClick={uploadLogo} disabled={logoBusy}>
          {logoBusy ? 'Uploading…' : 'Upload logo'}
        </button>
      </section>

      <form className="card" onSubmit={submit} noValidate>
        <h2>Texts and colour</h2>
        {problem && (
          <div className="alert alert-error" role="alert">
            {problem.map((p) => (
              <p key={p}>{p}</p>
            ))}
          </div>
        )}
        <div className="field">
          <label htmlFor={fieldId('company_name')}>Company name</label>
          <input
            id={fieldId('company_name')}
            type="text"
            value={d.company_name}
            maxLength={BRANDING_LIMITS.companyName}
            placeholder={view.defaults.company_name}
            onChange={(e) => set('company_name', e.target.value)}
            {...described('company_name', true)}
          />
          <p className="help-text" id={`${id}-company_name-help`}>
            Blank: {view.defaults.company_name} (COMPANY_NAME). Shown in the header, page titles, the footer, emails and feeds.
          </p>
          {error('company_name')}
        </div>
        <div className="field">
          <label htmlFor={fieldId('accent_color')}>Accent colour</label>
          <div className="accent-row">
            <input
              id={fieldId('accent_color')}
              type="text"
              value={d.accent_color}
              maxLength={BRANDING_LIMITS.accentColor}
              placeholder={view.defaults.accent_color}
              spellCheck={false}
              onChange={(e) => set('accent_color', e.target.value)}
              {...described('accent_color', true)}
            />
            <input
              type="color"
              aria-label="Pick the accent colour"
              value={hex ?? view.defaults.accent_color}
              onChange={(e) => set('accent_color', e.target.value)}
            />
          </div>
          <p className="help-text" id={`${id}-accent_color-help`}>
            Buttons, links and the top banner. It must have a contrast of at least {MIN_CONTRAST}:1 with white text (WCAG AA)
            {ratio !== null ? `; this colour has ${ratioText(ratio)}:1` : ''}.
          </p>
          {error('accent_color')}
        </div>
        <div className="field">
          <label htmlFor={fieldId('hero_title')}>Banner title</label>
          <input
            id={fieldId('hero_title')}
            type="text"
            value={d.hero_title}
            maxLength={BRANDING_LIMITS.heroTitle}
            placeholder={view.defaults.hero_title}
            onChange={(e) => set('hero_title', e.target.value)}
            {...described('hero_title')}
          />
          {error('hero_title')}
        </div>
        <div className="field">
          <label htmlFor={fieldId('hero_text')}>Banner text</label>
          <textarea
            id={fieldId('hero_text')}
            value={d.hero_text}
            rows={3}
            maxLength={BRANDING_LIMITS.heroText}
            placeholder={view.defaults.hero_text}
            onChange={(e) => set('hero_text', e.target.value)}
            {...described('hero_text')}
          />
          {error('hero_text')}
        </div>
        <RichTextEditor
          id={fieldId('about_html')}
          label="About us (shown below the jobs; blank: no block)"
          value={d.about_html}
          onChange={(html) => set('about_html', html)}
          error={errors.about_html || undefined}
        />
        <div className="field">
          <label htmlFor={fieldId('empty_message')}>Message when no job is open</label>
          <textarea
            id={fieldId('empty_message')}
            value={d.empty_message}
            rows={2}
            maxLength={BRANDING_LIMITS.emptyMessage}
            placeholder={view.defaults.empty_message}
            onChange={(e) => set('empty_message', e.target.value)}
            {...described('empty_message')}
          />
          {error('empty_message')}
        </div>
        <fieldset className="footer-links">
          <legend>Footer links (at most {BRANDING_LIMITS.footerLinks}, https only)</legend>
          {error('footer_links')}
          {d.footer_links.map((link, i) => (
            <div className="footer-link-row" key={i}>
              <div className="field">
                <label htmlFor={fieldId(`footer_links.${i}.label`)}>Label {i + 1}</label>
                <input
                  id={fieldId(`footer_links.${i}.label`)}
                  type="text"
                  value={link.label}
                  maxLength={BRANDING_LIMITS.linkLabel}
                  onChange={(e) => setLink(i, 'label', e.target.value)}
                  {...described(`footer_links.${i}.label`)}
                />
                {error(`footer_links.${i}.label`)}
              </div>
              <div className="field">
                <label htmlFor={fieldId(`footer_links.${i}.url`)}>Address {i + 1}</label>
                <input
                  id={fieldId(`footer_links.${i}.url`)}
                  type="url"
                  value={link.url}
                  placeholder="https://"
                  maxLength={BRANDING_LIMITS.linkUrl}
                  onChange={(e) => setLink(i, 'url', e.target.value)}
                  {...described(`footer_links.${i}.url`)}
                />
                {error(`footer_links.${i}.url`)}
              </div>
              <button
                type="button"
                className="btn btn-secondary"
                aria-label={`Remove link ${i + 1}`}
                onClick={() => setD((x) => ({ ...x, footer_links: x.footer_links.filter((_, j) => j !== i) }))}
              >
                Remove
              </button>
            </div>
          ))}
          {d.footer_links.length < BRANDING_LIMITS.footerLinks && (
            <button
              type="button"
              className="btn btn-secondary"
              onClick={() => setD((x) => ({ ...x, footer_links: [...x.footer_links, { label: '', url: '' }] }))}
            >
              Add a link
            </button>
          )}
        </fieldset>
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save settings'}
          </button>
          <a className="btn btn-link" href="/careers" target="_blank" rel="noopener">
            View the careers site<span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        </div>
      </form>
    </div>
  );
}

mountIsland('site-settings', SiteSettings);
