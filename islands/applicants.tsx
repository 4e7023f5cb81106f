/**
 * The applicants pages (/hr/applicants and /hr/applicants/{id}) are rendered on the server and
 * readable without JavaScript; this island adds what needs the HR token in a header:
 * - resume downloads through the API, saved under the name from Content-Disposition, with the
 *   spec's message when one fails;
 * - on the list: row selection and a bulk status change (POST /api/hr/applications/bulk-status/);
 * - on the detail page: the status change and the stage controls (PATCH /api/hr/applications/{id}/
 *   with {status}, {stage} or {outcome, reason}; Reject asks for the reason in a modal dialog),
 *   the keys, and the resume beside the answers.
 * Messages appear where the island is mounted, in a live region.
 *
 * The resume is only ever served to HR as a download (Content-Disposition: attachment). A PDF is
 * fetched with the HR token and its bytes shown in an <iframe> from a blob: URL, where Chromium,
 * Firefox and Safari open their own PDF viewer: nothing to bundle (pdf.js would be several times
 * this island's budget), the PDF's scripts run inside the viewer, never in this page; the Blob's
 * type is set here to application/pdf (only files whose bytes were a PDF at upload get here), so
 * the bytes are never rendered as a page of this origin; and the CSP allows `frame-src blob:` on
 * this page alone (allowBlobFrames, src/http/security.ts). Tested in headless Chromium.
 * A DOC or DOCX shows its text from the preview API, set as text (never HTML).
 */
import { useEffect, useState } from 'react';
import { mountIsland } from './components/mount.js';
import { ApiError, hrJson } from './components/hr-api.js';
import { hrFetch } from './components/session.js';
import { exportUrl, saveResponse } from './job-insights/download.js';
import { errorLines } from '../src/shared/api-errors.js';
import type { ApplicantDetail } from '../src/applicants/types.js';
import './applicants.css';

/** `downloadFailed`: the spec's message (declared in src/applicants/schema.ts), handed in by the page. */
type Props = { downloadFailed: string; exportFailed?: string } & ({ page: 'list' } | { page: 'detail'; id: number; name: string });
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
        const res = await hrFetch(isExport ? exportUrl(link.href) : link.href);
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
  // The list's other bulk actions say here how they went (issue 35: "Add to pool…", the bulk-pools island).
  useEffect(() => {
    if (props.page !== 'list') return;
    const onNotice = (e: Event) => setNotice((e as CustomEvent<Notice>).detail);
    document.addEventListener('applicants:notice', onNotice);
    return () => document.removeEventListener('applicants:notice', onNotice);
  }, [props.page]);
  useEffect(() => (props.page === 'list' ? wireListLayout() : undefined), [props.page]);
  useEffect(() => (props.page === 'detail' ? wirePipeline(props.id, setNotice) : undefined), [props]);
  useEffect(() => (props.page === 'detail' ? wireResume() : undefined), [props.page]);
  useEffect(() => (props.page === 'detail' ? wireShortcuts() : undefined), [props.page]);

  if (!notice) return <div className="applicants-notice" role="status" aria-live="polite" />;
  return (
    <div
      className={`alert ${notice.kind === 'error' ? 'alert-error' : 'alert-success'}`}
      role={notice.kind === 'error' ? 'alert' : 'status'}
    >
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
      const result = await hrJson<{ status: string; updated_ids: number[] }>('/api/hr/applications/bulk-status/', {
        method: 'POST',
        body: { ids, status: select.value },
      });
      for (const b of boxes.filter((x) => x.checked)) {
        showStatus(b.closest('tr')!.querySelector('[data-status]'), result.status);
        b.checked = false;
      }
      setNotice({
        kind: 'success',
        lines: [`Status set to ${result.status} for ${ids.length} ${ids.length === 1 ? 'applicant' : 'applicants'}.`],
      });
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

/** The list's columns the chooser may hide (name, selection and actions always show). */
const OPTIONAL_COLUMNS = ['email', 'phone', 'status', 'stage', 'source', 'applied', 'job'];

/** localStorage key of one user's hidden columns, in this browser. */
const columnsKey = (user: string) => `careers.applicants.hidden-columns.${user}`;

function readHidden(key: string): string[] {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(key) ?? '[]');
    return Array.isArray(v) ? v.filter((c): c is string => typeof c === 'string' && OPTIONAL_COLUMNS.includes(c)) : [];
  } catch {
    return [];
  }
}

/**
 * The list's layout: the "More filters" disclosure, the column chooser (remembered per user in
 * localStorage) and the cells whose value is cut (made focusable, the whole value shown on hover
 * and focus and named to screen readers). Returns the clean-up.
 */
function wireListLayout(): () => void {
  const offs: (() => void)[] = [];
  const on = <K extends keyof HTMLElementEventMap>(el: HTMLElement | Document, type: K, fn: (e: HTMLElementEventMap[K]) => void) => {
    el.addEventListener(type, fn as EventListener);
    offs.push(() => el.removeEventListener(type, fn as EventListener));
  };

  const toggle = document.querySelector<HTMLButtonElement>('[data-more-filters]');
  const panel = document.getElementById('more-filters');
  if (toggle && panel) {
    on(toggle, 'click', () => {
      const open = toggle.getAttribute('aria-expanded') !== 'true';
      toggle.setAttribute('aria-expanded', String(open));
      panel.classList.toggle('is-open', open);
      if (open) panel.querySelector<HTMLElement>('select, input')?.focus();
    });
  }

  const table = document.querySelector<HTMLTableElement>('table.applicants-table');
  const chooser = document.querySelector<HTMLElement>('[data-column-chooser]');
  const markCut = () => {
    for (const el of table?.querySelectorAll<HTMLElement>('td .cell-text') ?? []) {
      const cut = el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1;
      el.classList.toggle('is-cut', cut);
      if (el.tagName === 'A') continue; // a link is focusable already and its title names it whole
      if (cut) {
        el.tabIndex = 0;
        el.dataset.full = el.textContent ?? '';
        el.setAttribute('role', 'note');
        el.setAttribute('aria-label', el.textContent ?? '');
      } else if (el.tabIndex === 0) {
        el.removeAttribute('tabindex');
        el.removeAttribute('role');
        el.removeAttribute('aria-label');
      }
    }
    for (const el of table?.querySelectorAll<HTMLElement>('a.cell-text.is-cut') ?? []) el.dataset.full = el.textContent ?? '';
  };
  if (table && chooser) {
    const key = columnsKey(chooser.dataset.user ?? '0');
    const button = chooser.querySelector<HTMLButtonElement>('[data-columns-toggle]')!;
    const choices = chooser.querySelector<HTMLElement>('#column-choices')!;
    const boxes = [...chooser.querySelectorAll<HTMLInputElement>('input[data-column-choice]')];
    const apply = (hidden: string[]) => {
      for (const c of OPTIONAL_COLUMNS) table.classList.toggle(`hide-${c}`, hidden.includes(c));
      for (const b of boxes) b.checked = !hidden.includes(b.value);
      markCut();
    };
    apply(readHidden(key));
    chooser.hidden = false;
    const close = (focus: boolean) => {
      choices.hidden = true;
      button.setAttribute('aria-expanded', 'false');
      if (focus) button.focus();
    };
    on(button, 'click', () => {
      const open = choices.hidden;
      choices.hidden = !open;
      button.setAttribute('aria-expanded', String(open));
      if (open) boxes[0]?.focus();
    });
    on(choices, 'keydown', (e) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        close(true);
      }
    });
    on(document, 'click', (e) => {
      if (!choices.hidden && !chooser.contains(e.target as Node)) close(false);
    });
    for (const b of boxes) {
      on(b, 'change', () => {
        // Columns of other pages (the Job column when a job is chosen) keep their choice.
        const others = readHidden(key).filter((c) => !boxes.some((x) => x.value === c));
        const hidden = [...others, ...boxes.filter((x) => !x.checked).map((x) => x.value)];
        try {
          localStorage.setItem(key, JSON.stringify(hidden));
        } catch {
          /* storage full or off: the choice lasts for this page */
        }
        apply(hidden);
      });
    }
  }
  markCut();
  const onResize = () => markCut();
  window.addEventListener('resize', onResize);
  offs.push(() => window.removeEventListener('resize', onResize));
  return () => {
    for (const off of offs) off();
  };
}

/** Where typing goes: a key pressed there is text, never a shortcut. */
function isTyping(target: EventTarget | null): boolean {
  const el = target instanceof Element ? target : null;
  return !!el?.closest('input, textarea, select, [contenteditable]:not([contenteditable="false"]), dialog');
}

/** What each key of the detail page presses: the page's own links and buttons. */
const SHORTCUTS: Record<string, string> = {
  j: '.page-actions a[rel="next"]',
  k: '.page-actions a[rel="prev"]',
  n: 'form[data-stage-form]:not([hidden]) [data-next-stage]',
  r: 'form[data-stage-form]:not([hidden]) [data-open-reject]',
};

/**
 * The detail page's keys: j the next applicant of the filtered list, k the previous one, n the
 * next stage, r Reject; never inside a text field or a dialog, never with a modifier (their hint
 * is in the page). Returns the clean-up.
 */
function wireShortcuts(): () => void {
  const onKey = (e: KeyboardEvent) => {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.shiftKey || isTyping(e.target)) return;
    const selector = Object.hasOwn(SHORTCUTS, e.key) ? SHORTCUTS[e.key] : null;
    const target = selector && document.querySelector<HTMLElement>(selector);
    if (!target) return;
    e.preventDefault();
    target.click();
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

/** The Stage fact of the summary after a change: the stage, and Rejected with its reason. */
function showStage(app: ApplicantDetail): void {
  const el = document.querySelector('[data-stage-text]');
  if (!el) return;
  el.textContent = app.stage ?? '';
  if (app.outcome === 'REJECTED') {
    const pill = document.createElement('span');
    pill.className = 'status status-rejected';
    pill.textContent = 'Rejected';
    el.append(' · ', pill, ` (${app.outcome_reason ?? ''})`);
  }
}

/**
 * The stage controls: Move (the selected stage), Move to next stage, and Reject, which opens a
 * modal dialog for the reason (focus moves to the reason; Escape or Cancel close it and focus
 * returns to Reject). Returns the clean-up.
 */
function wirePipeline(id: number, setNotice: (n: Notice) => void): () => void {
  const form = document.querySelector<HTMLFormElement>('form[data-stage-form]');
  const dialog = document.querySelector<HTMLDialogElement>('dialog[data-reject-dialog]');
  if (!form || !dialog) return () => undefined;
  form.hidden = false;
  const select = form.querySelector<HTMLSelectElement>('select')!;
  const nextButton = form.querySelector<HTMLButtonElement>('[data-next-stage]')!;
  const rejectButton = form.querySelector<HTMLButtonElement>('[data-open-reject]')!;
  const rejectForm = dialog.querySelector<HTMLFormElement>('form[data-reject-form]')!;
  const cancel = dialog.querySelector<HTMLButtonElement>('[data-reject-cancel]')!;
  // The stage the application is in (the form's data-current; empty before it has one).
  let current = form.dataset.current ?? '';
  let busy = false;

  const change = async (body: Record<string, unknown>, done: (app: ApplicantDetail) => string) => {
    if (busy) return;
    busy = true;
    form.setAttribute('aria-busy', 'true');
    try {
      const app = await hrJson<ApplicantDetail>(`/api/hr/applications/${id}/`, { method: 'PATCH', body });
      current = app.stage_id === null ? '' : String(app.stage_id);
      if (current) select.value = current;
      showStatus(document.querySelector('.applicant-summary [data-status]'), app.status);
      const statusSelect = document.querySelector<HTMLSelectElement>('#status-select');
      if (statusSelect) statusSelect.value = app.status;
      showStage(app);
      setNotice({ kind: 'success', lines: [done(app)] });
      document.dispatchEvent(new CustomEvent('applicant:changed'));
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401))
        setNotice({ kind: 'error', lines: ['The application could not be changed.', ...problem(err)] });
    }
    busy = false;
    form.removeAttribute('aria-busy');
  };

  const onMove = (e: SubmitEvent) => {
    e.preventDefault();
    void change({ stage: Number(select.value) }, (app) => `Moved to ${app.stage}.`);
  };
  const onNext = () => {
    const options = [...select.options];
    const at = options.findIndex((o) => o.value === current);
    const next = options[at + 1];
    if (!next) {
      setNotice({ kind: 'success', lines: [`Already at the last stage, ${options[at]?.text ?? ''}.`] });
      return;
    }
    void change({ stage: Number(next.value) }, (app) => `Moved to the next stage: ${app.stage}.`);
  };
  const onOpen = () => {
    dialog.showModal();
    dialog.querySelector<HTMLSelectElement>('select')?.focus();
  };
  // Back to the Reject button, also when the r key opened the dialog from elsewhere on the page.
  const onClose = () => rejectButton.focus();
  const onCancel = () => dialog.close();
  const onReject = (e: SubmitEvent) => {
    e.preventDefault();
    const reason = rejectForm.querySelector<HTMLSelectElement>('select')!.value;
    dialog.close();
    void change({ outcome: 'REJECTED', reason }, () => `Rejected: ${reason}.`);
  };
  form.addEventListener('submit', onMove);
  nextButton.addEventListener('click', onNext);
  rejectButton.addEventListener('click', onOpen);
  dialog.addEventListener('close', onClose);
  cancel.addEventListener('click', onCancel);
  rejectForm.addEventListener('submit', onReject);
  return () => {
    form.removeEventListener('submit', onMove);
    nextButton.removeEventListener('click', onNext);
    rejectButton.removeEventListener('click', onOpen);
    dialog.removeEventListener('close', onClose);
    cancel.removeEventListener('click', onCancel);
    rejectForm.removeEventListener('submit', onReject);
  };
}

/** The resume beside the answers: a PDF in the browser's viewer, a Word file's text. Returns the clean-up. */
function wireResume(): () => void {
  const view = document.querySelector<HTMLElement>('[data-resume-view]');
  if (!view) return () => undefined;
  let url: string | null = null;
  let gone = false;
  const fail = (text: string) => {
    view.replaceChildren(Object.assign(document.createElement('p'), { className: 'muted', textContent: text }));
  };
  // A phone shows a framed PDF as a blank box: there the page offers "Open the resume" instead
  // (CSS), and the PDF is fetched only once the page is wide enough to show it.
  const narrow = window.matchMedia(NARROW);
  if (view.dataset.resumeView === 'pdf' && narrow.matches) {
    const onWide = () => {
      if (narrow.matches) return;
      narrow.removeEventListener('change', onWide);
      void load();
    };
    narrow.addEventListener('change', onWide);
    return () => {
      gone = true;
      narrow.removeEventListener('change', onWide);
      if (url) URL.revokeObjectURL(url);
    };
  }
  void load();
  return () => {
    gone = true;
    if (url) URL.revokeObjectURL(url);
  };

  async function load() {
    if (!view) return;
    try {
      const res = await hrFetch(view.dataset.src!);
      if (view.dataset.resumeView === 'pdf') {
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        const blob = new Blob([await res.arrayBuffer()], { type: 'application/pdf' });
        if (gone) return;
        url = URL.createObjectURL(blob);
        const frame = document.createElement('iframe');
        frame.className = 'resume-frame';
        frame.title = view.dataset.title ?? 'Resume (PDF)';
        frame.src = url;
        view.replaceChildren(frame);
        return;
      }
      const body = (await res.json().catch(() => null)) as { text?: string; truncated?: boolean; detail?: string } | null;
      if (gone) return;
      if (!res.ok || typeof body?.text !== 'string') return fail(body?.detail ?? 'No preview for this file; download it.');
      const text = document.createElement('pre');
      text.className = 'resume-text';
      text.tabIndex = 0;
      text.setAttribute('aria-label', "The resume's text");
      text.textContent = body.text || '(No text in this file.)';
      const parts: Node[] = [text];
      if (body.truncated)
        parts.push(
          Object.assign(document.createElement('p'), {
            className: 'muted',
            textContent: 'The text is cut here; download the resume for the rest.',
          }),
        );
      view.replaceChildren(...parts);
    } catch {
      if (!gone) fail('The resume could not be loaded; download it.');
    }
  }
}

/** Below this width the PDF is not framed (islands/applicants.css shows "Open the resume"). */
const NARROW = '(max-width: 720px)';

mountIsland('applicants', Applicants);
