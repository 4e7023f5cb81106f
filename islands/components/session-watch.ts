/**
 * The "Stay signed in" offer on every signed-in HR page (issue 30). The page says how long its
 * session has left (#hr-session, from the server); every HR call's answer says it again
 * (session.ts keeps it in localStorage, shared by the tabs). Before the idle timeout ends
 * (offerLeadMs: two minutes) a modal alert dialog offers to stay signed in (POST
 * /api/hr/session/renew/) or to sign out; Escape closes it. A session near its absolute limit
 * cannot be renewed: the dialog says when it ends instead. Once the session has ended, the dialog
 * says so and leads to the login page, which brings the user back here (`next`); unsaved text is
 * kept as drafts (drafts.ts). Plain DOM, loaded only on signed-in pages.
 */
import { type SessionTimesText, idleText, limitText, offerLeadMs, signedOutMessage } from '../../src/shared/session-text.js';
import { SESSION_EVENT, endedReason, hrFetch, logout, noteSession, readSessionRecord, signInAgain } from './session.js';

interface PageSession extends SessionTimesText {
  user: number;
  expiresIn: number;
  limitIn: number;
}

type Shown = 'offer' | 'limit' | 'ended';

/** The longest a timer waits before looking again (sleeping laptops, changed clocks). */
const MAX_WAIT_MS = 30_000;

const clockTime = (ms: number) => new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

function element<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}): HTMLElementTagNameMap[K] {
  return Object.assign(document.createElement(tag), props);
}

export function watchSession(source: HTMLElement): void {
  let data: PageSession;
  try {
    data = JSON.parse(source.textContent || '');
  } catch {
    return;
  }
  noteSession(data.expiresIn, data.limitIn, data.user);
  // Says the watcher runs (it is a chunk loaded after the page): what a test waits for before moving the clock.
  document.documentElement.dataset.sessionWatch = 'on';
  const lead = offerLeadMs(data);

  const dialog = element('dialog', { className: 'session-dialog', id: 'session-dialog' });
  dialog.setAttribute('role', 'alertdialog');
  dialog.setAttribute('aria-labelledby', 'session-dialog-title');
  dialog.setAttribute('aria-describedby', 'session-dialog-text');
  const title = element('h2', { id: 'session-dialog-title' });
  const text = element('p', { id: 'session-dialog-text' });
  const problem = element('p', { className: 'session-dialog-problem', hidden: true });
  problem.setAttribute('role', 'alert');
  const primary = element('button', { type: 'button', className: 'btn btn-primary' });
  const secondary = element('button', { type: 'button', className: 'btn btn-secondary', textContent: 'Sign out' });
  const actions = element('div', { className: 'session-dialog-actions' });
  actions.append(primary, secondary);
  dialog.append(title, text, problem, actions);

  let shown: Shown | null = null;
  /** What the user closed with Escape: not shown again until something else is to be said. */
  let dismissed: Shown | null = null;
  let returnFocus: Element | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const close = () => {
    if (dialog.open) dialog.close();
    shown = null;
  };
  dialog.addEventListener('cancel', () => {
    dismissed = shown;
  });
  // The close event comes a task later: by then the dialog may show again ("OK" on the limit
  // warning, then the session ends), and that dialog's state must stay.
  dialog.addEventListener('close', () => {
    if (dialog.open) return;
    shown = null;
    if (returnFocus instanceof HTMLElement && returnFocus.isConnected) returnFocus.focus();
    returnFocus = null;
  });

  function show(kind: Shown, endsAt: number): void {
    if (shown === kind || dismissed === kind) return;
    problem.hidden = true;
    primary.disabled = false;
    secondary.hidden = kind !== 'offer';
    if (kind === 'offer') {
      title.textContent = 'Stay signed in?';
      text.textContent = `You will be signed out at ${clockTime(endsAt)} after ${idleText(data)} without activity. Anything you are typing is kept on this device as a draft.`;
      primary.textContent = 'Stay signed in';
    } else if (kind === 'limit') {
      title.textContent = 'Your session ends soon';
      text.textContent = `Sessions last at most ${limitText(data)}: you will be signed out at ${clockTime(endsAt)}. Save your work; after you sign in again, unsaved text comes back as a draft.`;
      primary.textContent = 'OK';
    } else {
      title.textContent = 'You were signed out';
      text.textContent = signedOutMessage(endedReason() ?? 'idle', data);
      primary.textContent = 'Sign in again';
    }
    shown = kind;
    // Into the page only when first needed: most pages never show it.
    if (!dialog.isConnected) document.body.append(dialog);
    if (!dialog.open) {
      returnFocus = document.activeElement;
      dialog.showModal();
    }
    primary.focus();
  }

  function check(): void {
    clearTimeout(timer);
    const record = readSessionRecord();
    // Signed out on purpose (here or in another tab): nothing to offer.
    if (!record) {
      close();
      return;
    }
    const now = Date.now();
    const left = record.endsAt - now;
    if (left > lead) {
      dismissed = null;
      close();
    } else if (left > 0) {
      show(record.endsAt >= record.limitAt - 1000 ? 'limit' : 'offer', record.endsAt);
    } else {
      show('ended', record.endsAt);
      return;
    }
    const next = left > lead ? left - lead : left;
    timer = setTimeout(check, Math.min(Math.max(next, 200), MAX_WAIT_MS));
  }

  primary.addEventListener('click', async () => {
    if (shown === 'ended') {
      signInAgain();
      return;
    }
    if (shown !== 'offer') {
      dismissed = shown;
      return close();
    }
    primary.disabled = true;
    try {
      const res = await hrFetch('/api/hr/session/renew/', { method: 'POST', headers: { Accept: 'application/json' } });
      // The answer's headers moved the expiry on (session.ts), which closes the dialog; a 401 is on its way to the login page.
      if (!res.ok && res.status !== 401) throw new Error(String(res.status));
      if (res.ok) close();
    } catch {
      problem.textContent = 'Could not reach the server. Please try again.';
      problem.hidden = false;
      primary.disabled = false;
    }
  });
  secondary.addEventListener('click', () => {
    secondary.disabled = true;
    void logout();
  });

  window.addEventListener(SESSION_EVENT, check);
  window.addEventListener('storage', (e) => {
    if (e.key === null || e.key === 'careers:session') check();
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') check();
  });
  check();
}
