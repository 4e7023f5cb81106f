/**
 * An application's timeline (issue 20), newest first: when it arrived, every audit entry of the
 * application (status changes and any other change written with the same shape, `{from, to}`,
 * shown generically by its action), notes added, edited and deleted, and each email and webhook
 * post with every delivery attempt. Each entry has a type, a time, the HR user when one acted,
 * and a short plain-text line.
 * Read a page at a time (issue 33): the newest TIMELINE_PAGE entries, then the ones before a
 * cursor (lib/cursor.ts), in the one order of queries.ts, so a page never repeats or skips an
 * entry however many arrive between pages.
 */
import type { Db } from '../db/knex.js';
import type { ServerKey } from '../db/server-key.js';
import { fromDbJson } from '../db/codecs.js';
import { NotFound } from '../http/errors.js';
import {
  type AuditRow,
  compareKeys,
  isBefore,
  type KeyedRow,
  noteExcerpts,
  type OutboxPost,
  type PostAttempt,
  SOURCES,
  type TimelineDetails,
  timelineApplication,
  timelineDetails,
  timelineKeys,
} from './queries.js';
import { decodeCursor, encodeCursor } from './lib/cursor.js';
import { APPLICANT_MESSAGES } from '../applicants/review.schema.js';
import type { ApplicationTimeline, TimelineEmail, TimelineEntry } from './types.js';

/** Entries on a page: the first page is the newest this many, each older page this many more. */
const TIMELINE_PAGE = 50;
/** Characters of a note shown on its timeline line. */
const NOTE_LINE = 140;

/** One line of text: line breaks and runs of spaces as one space, cut at `max` characters. */
function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  // No more UTF-16 units than `max` means no more characters either: most lines end here.
  if (line.length <= max) return line;
  const chars = [...line];
  return chars.length > max
    ? `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`
    : line;
}

/** `stage_change` -> 'Stage change'. */
function label(action: string): string {
  const words = action.replace(/[_.-]+/g, ' ').trim();
  return words ? words[0].toUpperCase() + words.slice(1) : 'Change';
}

/** Values shown as words: an outcome is stored as REJECTED and read as Rejected. */
const VALUE_WORDS: Record<string, string> = { REJECTED: 'Rejected', WITHDREW: 'Withdrew' };
const valueText = (v: unknown) =>
  v === null || v === undefined ? null : typeof v === 'object' ? JSON.stringify(v) : (VALUE_WORDS[String(v)] ?? String(v));

/** Row ids kept beside the names they stand for (a stage change's `from_id`, `to_id`): never shown, the names are. */
const isIdKey = (key: string) => key === 'id' || key.endsWith('_id');

/** The line of an audit entry that is not a note's: "Status changed from NEW to REVIEWED", with any other detail after it. */
function changeText(action: string, details: Record<string, unknown>): { text: string; from: string | null; to: string | null } {
  // An entry written with its own line (issue 31: "Scorecard submitted by ian (Yes)", a debrief's decision).
  if (typeof details.text === 'string') return { text: oneLine(details.text, 300), from: null, to: null };
  const from = valueText(details.from);
  const to = valueText(details.to);
  const extras = Object.entries(details)
    .filter(([k, v]) => k !== 'from' && k !== 'to' && !isIdKey(k) && v !== null && v !== undefined && typeof v !== 'object')
    .map(([k, v]) => `${label(k).toLowerCase()}: ${String(v)}`);
  const name = label(action);
  let text = name;
  if ('from' in details || 'to' in details) {
    if (from !== null && to !== null) text = `${name} changed from ${from} to ${to}`;
    else if (to !== null) text = `${name} set to ${to}`;
    else if (from !== null) text = `${name} ${from} cleared`;
  }
  return { text: oneLine(extras.length ? `${text} (${extras.join(', ')})` : text, 300), from, to };
}

const NOTE_ACTIONS: Record<string, 'added' | 'edited' | 'deleted'> = {
  note_added: 'added',
  note_edited: 'edited',
  note_deleted: 'deleted',
};

const EMAIL_TEMPLATES: Record<string, string> = { applicant_confirmation: 'Application receipt', hr_notification: 'HR notification' };

/** What an email is: its template's name (HR's), or the application's own email. */
function emailName(p: OutboxPost): string {
  if (p.template_name) return `“${oneLine(p.template_name, 100)}”`;
  return p.template ? (EMAIL_TEMPLATES[p.template] ?? label(p.template)) : 'Email';
}

/** A webhook post's line starts with where it went: the target's host. */
function webhookWhat(target: string): string {
  let host = target;
  try {
    host = new URL(target).host;
  } catch {
    /* an unparsable URL is shown as stored */
  }
  return `Webhook post to ${host}`;
}

const emailWhat = (p: OutboxPost) => `${emailName(p)} email to ${p.target || 'unknown address'}`;

/** How a webhook delivery went. */
function outcome(status: string, code: number | null, error: string | null): string {
  if (status === 'SUCCESS') return code ? `delivered (HTTP ${code})` : 'delivered';
  const why = [code ? `HTTP ${code}` : null, error ? oneLine(error, 120) : null].filter(Boolean).join(': ');
  return why ? `not delivered (${why})` : 'not delivered';
}

/**
 * An email's entry (when it was queued), carrying its delivery as it is now (`email`: delivered
 * when, or failed and why, from its last attempt): its attempts are not entries of their own, so
 * no email shows twice.
 */
function emailEntry(p: OutboxPost, last: PostAttempt | undefined): TimelineEntry {
  const subject = p.subject ? `: ${oneLine(p.subject, 120)}` : '';
  const failure = last
    ? last.status === 'SUCCESS'
      ? null
      : [last.status_code ? `HTTP ${last.status_code}` : null, last.error ? oneLine(last.error, 120) : null].filter(Boolean).join(': ') ||
        null
    : p.status === 'SUCCESS'
      ? null
      : p.error_message
        ? oneLine(p.error_message, 120)
        : null;
  const scheduled = p.status === 'PENDING' && p.send_after !== null && p.attempts === 0;
  const email: TimelineEmail = {
    id: p.id,
    to: p.target,
    subject: p.subject ?? '',
    template: p.template_name ?? emailName(p),
    status: p.status === 'SUCCESS' || p.status === 'FAILED' || p.status === 'CANCELLED' ? p.status : scheduled ? 'SCHEDULED' : 'PENDING',
    send_after: p.send_after?.toISOString() ?? null,
    delivered_at: p.delivered_at?.toISOString() ?? null,
    attempts: p.attempts,
    error: failure,
    to_hr: p.template === 'hr_notification',
  };
  const by = p.sender ? ` by ${p.sender.username}` : '';
  // A scheduled email's time is the entry's `email.send_after` (screens show it in the viewer's zone).
  return {
    id: `email-${p.id}`,
    type: 'email',
    action: p.send_after ? 'scheduled' : 'queued',
    at: p.created_at.toISOString(),
    actor: p.sender,
    text: `${emailWhat(p)}${p.send_after ? ' scheduled' : ''}${by}${subject}`,
    email,
  };
}

/** The entry of one key of the page, from its row; null when the row is gone since the keys were read. */
function entryOf(k: KeyedRow, d: TimelineDetails, notes: Map<number, string>): TimelineEntry | null {
  switch (k.source) {
    case 'applied':
      return null; // made by the caller, from the application's row
    case 'audit': {
      const a = d.audits.get(k.seq);
      return a ? auditEntry(a, notes) : null;
    }
    case 'email': {
      const p = d.emails.get(k.seq);
      return p ? emailEntry(p, d.lastEmailAttempts.get(p.id)) : null;
    }
    case 'email_cancelled': {
      const p = d.emails.get(k.seq);
      if (!p?.cancelled_at) return null;
      return {
        id: `email-${p.id}-cancelled`,
        type: 'email',
        action: 'cancelled',
        at: p.cancelled_at.toISOString(),
        actor: null,
        text: `${emailWhat(p)} cancelled before it was sent`,
      };
    }
    case 'webhook': {
      const p = d.webhooks.get(k.seq);
      return p
        ? {
            id: `webhook-${p.id}`,
            type: 'webhook',
            action: 'queued',
            at: p.created_at.toISOString(),
            actor: null,
            text: `${webhookWhat(p.target)} queued`,
          }
        : null;
    }
    case 'webhook_outcome': {
      // A post whose attempts were swept away: its outcome from the post itself.
      const p = d.webhooks.get(k.seq);
      if (!p) return null;
      const at = p.delivered_at ?? p.updated_at;
      return {
        id: `webhook-${p.id}-outcome`,
        type: 'webhook',
        action: p.status === 'SUCCESS' ? 'delivered' : 'failed',
        at: at.toISOString(),
        actor: null,
        text: `${webhookWhat(p.target)} ${outcome(p.status, p.status_code, p.error_message)}`,
      };
    }
    case 'webhook_attempt': {
      const a = d.webhookAttempts.get(k.seq);
      if (!a) return null;
      return {
        id: `webhook-attempt-${a.id}`,
        type: 'webhook',
        action: a.status === 'SUCCESS' ? 'delivered' : 'failed',
        at: a.created_at.toISOString(),
        actor: null,
        text: `${webhookWhat(a.target ?? '')} ${outcome(a.status, a.status_code, a.error)}`,
      };
    }
  }
}

/** An audit entry's details as an object (anything else reads as none). */
function detailsOf(a: AuditRow): Record<string, unknown> {
  const details = fromDbJson<unknown>(a.details, null);
  return details && typeof details === 'object' && !Array.isArray(details) ? (details as Record<string, unknown>) : {};
}

/** The note an audit entry of a note is about (null: not a note's entry, or no usable id). */
function noteIdOf(a: AuditRow): number | null {
  if (!NOTE_ACTIONS[a.action]) return null;
  const id = Number(detailsOf(a).note_id);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

function auditEntry(a: AuditRow, notes: Map<number, string>): TimelineEntry {
  const actor = a.user_id !== null && a.username !== null ? { id: a.user_id, username: a.username } : null;
  const obj = detailsOf(a);
  const base = { id: `audit-${a.id}`, at: a.created_at.toISOString(), actor };
  const noteAction = NOTE_ACTIONS[a.action];
  if (noteAction) {
    const noteId = Number(obj.note_id);
    const text = notes.get(noteId);
    const line =
      noteAction === 'deleted'
        ? 'Note deleted'
        : text === undefined
          ? `Note ${noteAction} (since deleted)`
          : `Note ${noteAction}: ${oneLine(text, NOTE_LINE)}`;
    return { ...base, type: 'note', action: noteAction, text: line, ...(Number.isInteger(noteId) ? { note_id: noteId } : {}) };
  }
  const change = changeText(a.action, obj);
  return { ...base, type: 'change', action: a.action, text: change.text, from: change.from, to: change.to };
}

/** A page of the timeline, and the cursor of the page after it (null: this was the oldest). */
export interface TimelinePage {
  timeline: Omit<ApplicationTimeline, 'next'>;
  cursor: string | null;
}

/**
 * A page of an application's timeline, newest first: the newest TIMELINE_PAGE entries, or with
 * `before` (a cursor of an earlier page, as the query gave it) the ones after that page. 400 for a
 * cursor this server did not give for this application, 404 for an unknown application.
 */
export async function loadTimeline(
  { db, serverKey }: { db: Db; serverKey: ServerKey },
  applicationId: number,
  before?: unknown,
): Promise<TimelinePage> {
  const cursor = await decodeCursor(serverKey, applicationId, before);
  // One more than the page: whether there is an older page.
  const [app, keys] = await Promise.all([
    timelineApplication(db, applicationId),
    timelineKeys(db, applicationId, TIMELINE_PAGE + 1, cursor),
  ]);
  if (!app) throw new NotFound(APPLICANT_MESSAGES.notFound);
  const applied: KeyedRow = { ms: app.created_at.getTime(), ...SOURCES.applied, seq: 0, source: 'applied' };
  if (!cursor || isBefore(applied, cursor)) {
    keys.push(applied);
    keys.sort(compareKeys);
  }
  const page = keys.slice(0, TIMELINE_PAGE);
  const details = await timelineDetails(db, page);
  const noteIds = [...new Set([...details.audits.values()].map(noteIdOf).filter((id): id is number => id !== null))];
  const notes = await noteExcerpts(db, applicationId, noteIds);
  const results: TimelineEntry[] = [];
  for (const k of page) {
    const entry =
      k.source === 'applied'
        ? {
            id: 'applied',
            type: 'applied' as const,
            action: 'applied',
            at: app.created_at.toISOString(),
            actor: null,
            text: `Applied for ${oneLine(app.job_title, 191)}`,
          }
        : entryOf(k, details, notes);
    if (entry) results.push(entry);
  }
  const more = keys.length > TIMELINE_PAGE;
  return {
    timeline: { application_id: applicationId, order: 'newest_first', count: results.length, truncated: more, results },
    cursor: more ? await encodeCursor(serverKey, applicationId, page[page.length - 1]) : null,
  };
}
