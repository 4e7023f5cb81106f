/**
 * Small progressive enhancements loaded on every page: the mobile menu (a <details> element, so
 * it works without JavaScript and by keyboard) closes with Escape or after following a link; the
 * HR Logout button revokes the session on the server and clears it locally; focus starts on an
 * element marked `data-autofocus`; server-written times are shown in the viewer's time zone, and the
 * booking page is asked for in it (pages run no inline script: the CSP allows only our files).
 */
import './site.css';
import { logout } from './components/session.js';
import { showFlash } from './components/flash.js';
import { timeParts, viewerTimeZone } from '../src/shared/time-format.js';

// Times the server wrote in UTC (src/render/formatters.ts timeTag), in the viewer's time zone.
const zone = viewerTimeZone();
for (const el of document.querySelectorAll<HTMLTimeElement>('time[data-local]')) {
  const kind = el.dataset.local;
  const parts = timeParts(el.dateTime, kind === 'date' || kind === 'seconds' ? kind : 'time');
  if (!parts.length) continue;
  const pieces = parts.map((p) => Object.assign(document.createElement('span'), { className: 'time-part', textContent: p }));
  el.replaceChildren(...pieces.flatMap((piece, i) => (i ? [' ', piece] : [piece])));
  if (zone) el.title = zone;
}

// The booking page shows its times in the zone of its `tz` (a form without script): here, the viewer's own.
const bookZone = document.querySelector<HTMLElement>('[data-book-zone]');
if (bookZone && zone && zone !== bookZone.dataset.bookZone) {
  const url = new URL(location.href);
  if (!url.searchParams.has('tz')) {
    url.searchParams.set('tz', zone);
    location.replace(url.href);
  }
}

for (const menu of document.querySelectorAll<HTMLDetailsElement>('details[data-menu]')) {
  const summary = menu.querySelector('summary')!;
  const sync = () => summary.setAttribute('aria-expanded', String(menu.open));
  sync();
  menu.addEventListener('toggle', sync);
  menu.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && menu.open) {
      menu.open = false;
      summary.focus();
    }
  });
  document.addEventListener('click', (e) => {
    if (menu.open && !menu.contains(e.target as Node)) menu.open = false;
  });
  // The HR header's groups: one open at a time, and a group closes when focus moves out of it.
  if (menu.hasAttribute('data-nav-group')) {
    menu.addEventListener('toggle', () => {
      if (!menu.open) return;
      for (const other of document.querySelectorAll<HTMLDetailsElement>('details[data-nav-group][open]'))
        if (other !== menu) other.open = false;
    });
    menu.addEventListener('focusout', (e) => {
      if (menu.open && e.relatedTarget instanceof Node && !menu.contains(e.relatedTarget)) menu.open = false;
    });
  }
}

// Signed-in HR pages: the "Stay signed in" offer (its own chunk, so public pages never load it).
const hrSession = document.getElementById('hr-session');
if (hrSession) void import('./components/session-watch.js').then((m) => m.watchSession(hrSession));

for (const button of document.querySelectorAll<HTMLButtonElement>('[data-logout]')) {
  button.addEventListener('click', () => {
    if (button.disabled) return;
    button.disabled = true; // one revoke call, even on a double click
    void logout();
  });
}

// The job list is a plain GET form; while the next page loads, say so where the results are.
const filterForm = document.querySelector<HTMLFormElement>('form.filter-bar');
filterForm?.addEventListener('submit', () => {
  const status = document.querySelector('.result-count');
  if (status) status.textContent = 'Loading jobs...';
});

// The message of the action that led here (islands/components/flash.ts), in the HR status region.
showFlash();

// A page that follows an action (the application's confirmation) starts focus on its heading, so a
// screen reader reads the outcome first; without moving the view.
document.querySelector<HTMLElement>('[data-autofocus]')?.focus({ preventScroll: true });
