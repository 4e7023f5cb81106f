/**
 * The forms' HR pages (rendered on the server): this island wires their buttons. Manage Forms:
 * Activate and Deactivate (PATCH {status}), Remove (DELETE after a confirmation: status REMOVED,
 * entries and files kept), then the page reloads. Entries and Form API Posts: Export XLS (saved
 * under the server's name; 'Export failed. Please try again.'). An entry: each file's Open saves
 * it under its name ('Unable to download file. Please check your HR login or contact support.').
 */
import { useEffect } from 'react';
import { mountIsland } from './components/mount.js';
import { ApiError, hrJson } from './components/hr-api.js';
import { flashNext } from './components/flash.js';
import { hrFetch } from './components/session.js';
import { exportUrl, saveResponse } from './job-insights/download.js';
import { errorLines } from '../src/shared/api-errors.js';
import { FORM_MESSAGES } from '../src/forms/schema.js';
import './form-admin.css';

export const REMOVE_FORM_CONFIRM = 'Remove this form? It stops taking submissions; its entries and files are kept.';

function showProblem(lines: string[]): void {
  const box = document.getElementById('form-action-problem');
  if (!box) return;
  box.replaceChildren(...lines.map((l) => Object.assign(document.createElement('div'), { textContent: l })));
  box.hidden = false;
  box.scrollIntoView({ block: 'nearest' });
}

function wire(selector: string, onClick: (el: HTMLElement, e: Event) => void): () => void {
  const els = [...document.querySelectorAll<HTMLElement>(selector)];
  const handler = (e: Event) => onClick(e.currentTarget as HTMLElement, e);
  for (const el of els) {
    el.hidden = false; // shown only once the island can handle it
    el.addEventListener('click', handler);
  }
  return () => {
    for (const el of els) el.removeEventListener('click', handler);
  };
}

/** Runs `work` once at a time for a button, marked busy meanwhile. */
async function busy(el: HTMLElement, work: () => Promise<void>): Promise<void> {
  if (el.getAttribute('aria-busy') === 'true') return;
  el.setAttribute('aria-busy', 'true');
  try {
    await work();
  } finally {
    el.removeAttribute('aria-busy');
  }
}

async function download(url: string, fallbackName: string, failed: string): Promise<void> {
  try {
    const res = await hrFetch(url);
    if (!res.ok) throw new Error(`answered ${res.status}`);
    await saveResponse(res, fallbackName);
  } catch {
    showProblem([failed]);
  }
}

function FormAdmin({ downloadFailed }: { page: string; downloadFailed?: string }) {
  useEffect(() => {
    const offs = [
      wire(
        'button[data-form-status]',
        (b) =>
          void busy(b, async () => {
            try {
              await hrJson(`/api/hr/forms/${b.dataset.formId}/`, { method: 'PATCH', body: { status: b.dataset.formStatus } });
              flashNext(
                b.dataset.formStatus === 'ACTIVE' ? 'Form activated: it takes submissions.' : 'Form deactivated: it takes no submissions.',
              );
              location.reload();
            } catch (err) {
              if (!(err instanceof ApiError && err.status === 401)) showProblem(errorLines(err instanceof ApiError ? err.body : null));
            }
          }),
      ),
      wire(
        'button[data-form-remove]',
        (b) =>
          void busy(b, async () => {
            if (!window.confirm(`${REMOVE_FORM_CONFIRM}\n\n${b.dataset.formTitle ?? ''}`)) return;
            try {
              await hrJson(`/api/hr/forms/${b.dataset.formRemove}/`, { method: 'DELETE' });
              flashNext('Form removed.');
              location.reload();
            } catch (err) {
              if (!(err instanceof ApiError && err.status === 401)) showProblem(errorLines(err instanceof ApiError ? err.body : null));
            }
          }),
      ),
      wire(
        'button[data-export-url]',
        (b) => void busy(b, () => download(exportUrl(b.dataset.exportUrl!), b.dataset.exportName!, FORM_MESSAGES.exportFailed)),
      ),
      wire('a[data-download-file]', (a, e) => {
        e.preventDefault();
        void busy(a, () =>
          download((a as HTMLAnchorElement).href, a.getAttribute('download') ?? 'file', downloadFailed ?? FORM_MESSAGES.downloadFailed),
        );
      }),
    ];
    return () => {
      for (const off of offs) off();
    };
  }, [downloadFailed]);
  return null;
}

mountIsland('form-admin', FormAdmin);
