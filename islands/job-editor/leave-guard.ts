/**
 * Work is not lost silently: with changes not saved yet, leaving asks first: the browser's own
 * prompt for reloads, closing and typed addresses, a confirm for links on the page (Cancel, the
 * header) and Logout.
 */
import { useEffect, useRef } from 'react';
import { leavingToSignIn } from '../components/session.js';

const LEAVE_MESSAGE = 'You have unsaved changes to this job. Leave this page and lose them?';

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

/**
 * Asks before the page is left while `unsaved()` says so; `onLeaveConfirmed` runs when the user
 * agrees to leave through a link or Logout. The latest callbacks are used (they read refs).
 */
export function useLeaveGuard(unsaved: () => boolean, onLeaveConfirmed: () => void): void {
  const callbacks = useRef({ unsaved, onLeaveConfirmed });
  callbacks.current = { unsaved, onLeaveConfirmed };
  useEffect(() => {
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      // A session that ended takes the page to the login page: the changes are kept as a draft.
      if (!callbacks.current.unsaved() || leavingToSignIn()) return;
      e.preventDefault();
      e.returnValue = ''; // Chromium before 119 asks only with returnValue set
    };
    // Capture phase: decided before the link follows or Logout's own handler revokes the session.
    const onClick = (e: MouseEvent) => {
      if (!leavingClick(e) || !callbacks.current.unsaved()) return;
      if (window.confirm(LEAVE_MESSAGE)) {
        callbacks.current.onLeaveConfirmed();
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
  }, []);
}
