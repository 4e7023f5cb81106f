/**
 * Unsaved text kept on this device (issue 30): a note being typed, an email being written, the
 * job editor's fields survive a session that ended (and a reload, a crash), and come back with a
 * visible "Draft restored" note. One localStorage entry per page and user
 * (`careers:draft:{user}:{kind}:{id}`, the user from the page's #hr-session data), written a
 * moment after each change while the text differs from what is saved, and removed on a
 * successful save (or when the user discards it). Drafts older than DRAFT_DAYS are dropped. What is
 * read back is checked by the island (anything may sit in localStorage).
 */
import { useEffect, useRef, useState } from 'react';

const PREFIX = 'careers:draft:';
const DRAFT_DAYS = 14;
const WRITE_DELAY_MS = 300;

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** The signed-in user's id as the page says it, or null (then no drafts are kept). */
function pageUser(): number | null {
  try {
    const user = JSON.parse(document.getElementById('hr-session')?.textContent || 'null')?.user;
    return Number.isInteger(user) ? user : null;
  } catch {
    return null;
  }
}

function draftKey(kind: string, id: string | number): string | null {
  const user = pageUser();
  return user === null ? null : `${PREFIX}${user}:${kind}:${id}`;
}

function readDraft(key: string): unknown {
  try {
    const raw = JSON.parse(storage()?.getItem(key) ?? 'null');
    if (!raw || typeof raw !== 'object' || !Number.isFinite(raw.saved_at)) return null;
    if (Date.now() - raw.saved_at > DRAFT_DAYS * 86_400_000) {
      storage()?.removeItem(key);
      return null;
    }
    return raw.data ?? null;
  } catch {
    return null;
  }
}

function writeDraft(key: string, data: unknown): void {
  try {
    storage()?.setItem(key, JSON.stringify({ saved_at: Date.now(), data }));
  } catch {
    // Storage full or blocked: the draft is only a safety net.
  }
}

export interface Draft {
  /** Whether a draft was brought back into the form (show the "Draft restored" note). */
  restored: boolean;
  /** Forget the draft: after a successful save, or when the user discards it. */
  clear: () => void;
}

/**
 * Keeps `value` as the draft of (kind, id) while `dirty` says it differs from what is saved; on
 * the first render a stored draft is checked by `parse` (null: unusable) and handed to `restore`.
 * `ready`: the form holds its saved state (e.g. the job has loaded), so a draft may go over it.
 */
export function useDraft<T>(
  kind: string,
  id: string | number,
  value: T,
  dirty: boolean,
  parse: (raw: unknown) => T | null,
  restore: (draft: T) => void,
  ready = true,
): Draft {
  const [key] = useState(() => draftKey(kind, id));
  const [restored, setRestored] = useState(false);
  const checked = useRef(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the form is ready; parse and restore are the first render's
  useEffect(() => {
    if (!key || !ready || checked.current) return;
    checked.current = true;
    const draft = parse(readDraft(key));
    if (draft === null) return;
    restore(draft);
    setRestored(true);
  }, [key, ready]);

  const latest = useRef({ value, dirty });
  latest.current = { value, dirty };
  const keep = useRef(() => {
    if (!key || !checked.current) return;
    if (latest.current.dirty) writeDraft(key, latest.current.value);
    else storage()?.removeItem(key);
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: written a moment after each change of value or dirty (read through the ref)
  useEffect(() => {
    if (!key || !checked.current) return;
    const timer = setTimeout(keep.current, WRITE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [key, value, dirty]);

  // Leaving (the login page after a 401, a reload) within the delay still keeps the last keystrokes.
  useEffect(() => {
    const flush = keep.current;
    window.addEventListener('pagehide', flush);
    return () => window.removeEventListener('pagehide', flush);
  }, []);

  return {
    restored,
    clear: () => {
      if (key) storage()?.removeItem(key);
      setRestored(false);
    },
  };
}

/** A string field of a stored draft, cut to `max` characters ('' when missing or of another type). */
export function draftText(raw: unknown, field: string, max: number): string {
  const v = raw && typeof raw === 'object' ? (raw as Record<string, unknown>)[field] : undefined;
  return typeof v === 'string' ? v.slice(0, max) : '';
}
