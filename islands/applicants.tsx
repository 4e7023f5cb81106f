/**
 * The applicants pages (/hr/applicants and /hr/applicants/{id}) are rendered on the server and
 * readable without JavaScript; this island adds what needs the HR token in a header:
 * - resume downloads through the API, saved under the name from Content-Disposition, with the
 *   spec's message when one fails;
 * - on the list: row selection and a bulk status change (POST /api/hr/applications/bulk-status/);
 * - on the detail page: the status change (PATCH /api/hr/applications/{id}/).
 * Messages appear where the island is mounted, in a live region.
 */
import { useEffect, useState } from 'react';
import { mountIsland } from './components/mount.js';
import { ApiError, hrJson } from './components/hr-api.js';
import { hrFetch } from './components/session.js';
import { saveResponse } from './job-insights/download.js';
import { errorLines } from '../src/shared/api-errors.js';
import type { ApplicantDetail } from '../src/applicants/types.js';
import './applicants.css';

/** `downloadFailed`: the spec's message (declared in src/applicants/schema.ts), handed in by the page. */
type Props = { downloadFailed: string; exportFailed?: string } & ({ page: 'list' } | { page: 'detail'; id: number });
type Notice = { kind: 'error' | 'success'; lines: string[] } | null;

function showStatus(el: Element | null, status: string): void {
  if (!el) return;
  el.textContent = status;
  el.className = `status status-${status.toLowerCase()}`;
}

function problem(err: unknown): string[] {
  return errorLines(err instanceof ApiError ? err.body : null);
}

function Applicants(props: Props) {
  const [notice, setNotice] = useState<Notice>(null);

  // Resume downloads and the list's Export: one handler for every such link of the page.
  useEffect(() => {
    const onClick = async (e: MouseEvent) => {
      const link = (e.target as Element | null)?.closest<HTMLAnchorElement>('a[data-resume-download], a[data-export-download]');
      if (!link || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey) return;
      e.preventDefault();
      const isExport = link.hasAttribute('data-export-download');
      try {
        const res = await hrFetch(link.href);
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        await saveResponse(res, isExport ? 'applicants.xlsx' : 'resume');
      } catch {
        setNotice({ kind: 'error', lines: [isExport ? (props.exportFailed ?? props.downloadFailed) : props.downloadFailed] });
      }
    };
    document.addEventListener('click', onClick);
    return () => document.removeEventListener('click', onClick);
  }, [props.downloadFailed, props.exportFailed]);

  useEffect(() => (props.page === 'list' ? wireList(setNotice) : wireDetail(props.id, setNotice)), [props]);
  useEffect(() => (props.page === 'detail' ? wireShortcuts() : undefined), [props.page]);

  if (!notice) return <div className="applicants-notice" role="status" aria-live="polite" />;
  return (
    <div className={`alert ${notice.kind === 'error' ? 'alert-error' : 'alert-success'}`} role={notice.kind === 'error' ? 'alert' : 'status'}>
      {notice.lines.map((line, i) => (
        <div key={i}>{line}</div>
      ))}
    </div>
  );
}

/** Row checkboxes, select-all and the bulk bar; returns the clean-up. */
function wireList(setNotice: (n: Notice) => void): () => void {
  const table = document.querySelector('table.applicants-table');
  const bar = document.querySelector<HTMLElement>('[data-bulk]');
  if (!table || !bar) return () => undefined;
  table.classList.add('is-selectable');
  bar.hidden = false;
  const boxes = [...table.querySelectorAll<HTMLInputElement>('input[data-select]')];
  const all = table.querySelector<HTMLInputElement>('input[data-select-all]')!;
  const apply = bar.querySelector<HTMLButtonElement>('[data-bulk-apply]')!;
  const select = bar.querySelector<HTMLSelectElement>('select')!;
  const sync = () => {
    const n = boxes.filter((b) => b.checked).length;
    all.checked = n === boxes.length;
    all.indeterminate = n > 0 && n < boxes.length;
    apply.setAttribute('aria-disabled', String(n === 0));
    apply.textContent = n ? `Apply to ${n} selected` : 'Apply';
  };
  const onAll = () => {
    for (const b of boxes) b.checked = all.checked;
    sync();
  };
  const onApply = async () => {
    const ids = boxes.filter((b) => b.checked).map((b) => Number(b.value));
    if (!ids.length || apply.getAttribute('aria-busy') === 'true') return;
    apply.setAttribute('aria-busy', 'true');
    try {
      const result = await hrJson<{ status: string; updated_ids: number[] }>('/api/hr/applications/bulk-status/', { method: 'POST', body: { ids, status: select.value } });
      for (const b of boxes.filter((x) => x.checked)) {
        showStatus(b.closest('tr')!.querySelector('[data-status]'), result.status);
        b.checked = false;
      }
      setNotice({ kind: 'success', lines: [`Status set to ${result.status} for ${ids.length} ${ids.length === 1 ? 'applicant' : 'applicants'}.`] });
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return; // on the way to the login page
      setNotice({ kind: 'error', lines: ['The status could not be changed.', ...problem(err)] });
    }
    apply.removeAttribute('aria-busy');
    sync();
  };
  all.addEventListener('change', onAll);
  for (const b of boxes) b.addEventListener('change', sync);
  apply.addEventListener('click', onApply);
  sync();
  return () => {
    all.removeEventListener('change', onAll);
    for (const b of boxes) b.removeEventListener('change', sync);
    apply.removeEventListener('click', onApply);
  };
}

/** Where typing goes: a key pressed there is text, never a shortcut. */
function isTyping(target: EventTarget | null): boolean {
  const el = target instanceof Element ? target : null;
  return !!el?.closest('input, textarea, select, [contenteditable]:not([contenteditable="false"]), dialog');
}

/**
 * The detail page's keys: j the next applicant of the filtered list, k the previous one (the
 * page's own Next/Previous links), never inside a text field or a dialog, never with a modifier.
 * Their hint is shown once they work. Returns the clean-up.
 */
function wireShortcuts(): () => void {
  const hint = document.querySelector<HTMLElement>('[data-shortcut-hint]');
  if (hint) hint.hidden = false;
  const onKey = (e: KeyboardEvent) => {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
    const rel = e.key === 'j' ? 'next' : e.key === 'k' ? 'prev' : null;
    const link = rel && document.querySelector<HTMLAnchorElement>(`.page-actions a[rel="${rel}"]`);
    if (!link) return;
    e.preventDefault();
    link.click();
  };
  document.addEventListener('keydown', onKey);
  return () => document.removeEventListener('keydown', onKey);
}

/** The status form of the detail page; returns the clean-up. */
function wireDetail(id: number, setNotice: (n: Notice) => void): () => void {
  const form = document.querySelector<HTMLFormElement>('form[data-status-form]');
  if (!form) return () => undefined;
  form.hidden = false;
  const button = form.querySelector<HTMLButtonElement>('button')!;
  const onSubmit = async (e: SubmitEvent) => {
    e.preventDefault();
    if (button.getAttribute('aria-busy') === 'true') return;
    const status = form.querySelector<HTMLSelectElement>('select')!.value;
    // Busy, not disabled: a disabled button would drop the keyboard focus.
    button.setAttribute('aria-busy', 'true');
    try {
      const app = await hrJson<ApplicantDetail>(`/api/hr/applications/${id}/`, { method: 'PATCH', body: { status } });
      showStatus(document.querySelector('.applicant-summary [data-status]'), app.status);
      setNotice({ kind: 'success', lines: [`Status saved: ${app.status}.`] });
      document.dispatchEvent(new CustomEvent('applicant:changed')); // the page's history reads it again
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return;
      setNotice({ kind: 'error', lines: ['The status could not be changed.', ...problem(err)] });
    }
    button.removeAttribute('aria-busy');
  };
  form.addEventListener('submit', onSubmit);
  return () => form.removeEventListener('submit', onSubmit);
}

mountIsland('applicants', Applicants);
