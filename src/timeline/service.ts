/**
 * An application's timeline (issue 20), newest first: when it arrived, every audit entry of the
 * application (status changes and any other change written with the same shape, `{from, to}`,
 * shown generically by its action), notes added, edited and deleted, and each email and webhook
 * post with every delivery attempt. Each entry has a type, a time, the HR user when one acted,
 * and a short plain-text line.
 */
import type { Db } from '../db/knex.js';
import { fromDbJson } from '../db/codecs.js';
import { NotFound } from '../http/errors.js';
import { timelineSources, type OutboxPost, type PostAttempt } from './queries.js';
import { APPLICANT_MESSAGES } from '../applicants/review.schema.js';
import type { ApplicationTimeline, TimelineEmail, TimelineEntry } from './types.js';

/** At most this many entries (the newest); `truncated` says when there were more. */
const TIMELINE_MAX = 500;
/** Characters of a note shown on its timeline line. */
const NOTE_LINE = 140;

/** For entries at the same millisecond, newest first: attempts after changes and notes, after posts queued, after the application. */
const RANK: Record<TimelineEntry['type'], number> = { applied: 0, email: 1, webhook: 1, change: 2, note: 2 };

type Sortable = TimelineEntry & { ms: number; rank: number; seq: number };

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
const VALUE_WORDS: Record<string, string> = { REJECTED: 'Rejected' };
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

/**
 * Entries of one outbox's posts. An email is one entry (when it was queued) carrying its delivery
 * as it is now (`email`: delivered when, or failed and why): its attempts are not entries of their
 * own, so no email shows twice. A webhook post: queued, then each attempt (or the post's outcome
 * when its attempts were swept away).
 */
function postEntries(
  kind: 'email' | 'webhook',
  posts: OutboxPost[],
  attempts: PostAttempt[],
  add: (e: Omit<Sortable, 'rank'>, delivery?: boolean) => void,
): void {
  const byId = new Map(posts.map((p) => [p.id, p]));
  const withAttempts = new Set(attempts.map((a) => a.post_id));
  const what = (p: OutboxPost) => {
    if (kind === 'webhook') {
      let host = p.target;
      try {
        host = new URL(p.target).host;
      } catch {
        /* an unparsable URL is shown as stored */
      }
      return `Webhook post to ${host}`;
    }
    return `${emailName(p)} email to ${p.target || 'unknown address'}`;
  };
  const outcome = (status: string, code: number | null, error: string | null) => {
    if (status === 'SUCCESS') return kind === 'webhook' && code ? `delivered (HTTP ${code})` : 'delivered';
    const why = [code ? `HTTP ${code}` : null, error ? oneLine(error, 120) : null].filter(Boolean).join(': ');
    return why ? `not delivered (${why})` : 'not delivered';
  };
  const lastAttempt = new Map<number, PostAttempt>();
  for (const a of attempts) if (!lastAttempt.has(a.post_id) || lastAttempt.get(a.post_id)!.id < a.id) lastAttempt.set(a.post_id, a);
  for (const p of posts) {
    const subject = kind === 'email' && p.subject ? `: ${oneLine(p.subject, 120)}` : '';
    const last = lastAttempt.get(p.id);
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
    const email: TimelineEmail | undefined =
      kind === 'email'
        ? {
            id: p.id,
            to: p.target,
            subject: p.subject ?? '',
            template: p.template_name ?? emailName(p),
            status:
              p.status === 'SUCCESS' || p.status === 'FAILED' || p.status === 'CANCELLED' ? p.status : scheduled ? 'SCHEDULED' : 'PENDING',
            send_after: p.send_after?.toISOString() ?? null,
            delivered_at: p.delivered_at?.toISOString() ?? null,
            attempts: p.attempts,
            error: failure,
            to_hr: p.template === 'hr_notification',
          }
        : undefined;
    const by = p.sender ? ` by ${p.sender.username}` : '';
    if (email) {
      // A scheduled email's time is the entry's `email.send_after` (screens show it in the viewer's zone).
      add({
        id: `${kind}-${p.id}`,
        type: kind,
        action: p.send_after ? 'scheduled' : 'queued',
        at: p.created_at.toISOString(),
        ms: p.created_at.getTime(),
        seq: p.id,
        actor: p.sender,
        text: `${what(p)}${p.send_after ? ' scheduled' : ''}${by}${subject}`,
        email,
      });
      if (p.status === 'CANCELLED' && p.cancelled_at) {
        add(
          {
            id: `${kind}-${p.id}-cancelled`,
            type: kind,
            action: 'cancelled',
            at: p.cancelled_at.toISOString(),
            ms: p.cancelled_at.getTime(),
            seq: p.id,
            actor: null,
            text: `${what(p)} cancelled before it was sent`,
          },
          true,
        );
      }
      continue;
    }
    add({
      id: `${kind}-${p.id}`,
      type: kind,
      action: 'queued',
      at: p.created_at.toISOString(),
      ms: p.created_at.getTime(),
      seq: p.id,
      actor: p.sender,
      text: `${what(p)} queued${by}${subject}`,
    });
    if (!withAttempts.has(p.id) && p.attempts > 0 && p.status !== 'PENDING') {
      const at = p.delivered_at ?? p.updated_at;
      const ok = p.status === 'SUCCESS';
      add(
        {
          id: `${kind}-${p.id}-outcome`,
          type: kind,
          action: ok ? 'delivered' : 'failed',
          at: at.toISOString(),
          ms: at.getTime(),
          seq: p.id,
          actor: null,
          text: `${what(p)} ${outcome(p.status, p.status_code, p.error_message)}`,
        },
        true,
      );
    }
  }
  for (const a of kind === 'webhook' ? attempts : []) {
    const p = byId.get(a.post_id);
    if (!p) continue; // a post older than the ones read (the timeline's limit)
    add(
      {
        id: `${kind}-attempt-${a.id}`,
        type: kind,
        action: a.status === 'SUCCESS' ? 'delivered' : 'failed',
        at: a.created_at.toISOString(),
        ms: a.created_at.getTime(),
        seq: a.id,
        actor: null,
        text: `${what(p)} ${outcome(a.status, a.status_code, a.error)}`,
      },
      true,
    );
  }
}

/** The timeline of an application (404 if unknown): at most TIMELINE_MAX entries, newest first. */
export async function loadTimeline({ db }: { db: Db }, applicationId: number): Promise<ApplicationTimeline> {
  // One more than the limit of each kind: whether any was cut.
  const src = await timelineSources(db, applicationId, TIMELINE_MAX + 1);
  if (!src.application) throw new NotFound(APPLICANT_MESSAGES.notFound);
  const entries: Sortable[] = [];
  // A delivery comes after its post was queued, and after a change made at the same moment.
  const add = (e: Omit<Sortable, 'rank'>, delivery = false) => {
    (e as Sortable).rank = RANK[e.type] + (delivery ? 2 : 0);
    entries.push(e as Sortable);
  };

  const applied = src.application.created_at;
  add({
    id: 'applied',
    type: 'applied',
    action: 'applied',
    at: applied.toISOString(),
    ms: applied.getTime(),
    seq: 0,
    actor: null,
    text: `Applied for ${oneLine(src.application.job_title, 191)}`,
  });

  for (const a of src.audits) {
    const actor = a.user_id !== null && a.username !== null ? { id: a.user_id, username: a.username } : null;
    const details = fromDbJson<unknown>(a.details, null);
    const obj = details && typeof details === 'object' && !Array.isArray(details) ? (details as Record<string, unknown>) : {};
    const base = { id: `audit-${a.id}`, at: a.created_at.toISOString(), ms: a.created_at.getTime(), seq: a.id, actor };
    const noteAction = NOTE_ACTIONS[a.action];
    if (noteAction) {
      const noteId = Number(obj.note_id);
      const text = src.notes.get(noteId);
      const line =
        noteAction === 'deleted'
          ? 'Note deleted'
          : text === undefined
            ? `Note ${noteAction} (since deleted)`
            : `Note ${noteAction}: ${oneLine(text, NOTE_LINE)}`;
      add({ ...base, type: 'note', action: noteAction, text: line, ...(Number.isInteger(noteId) ? { note_id: noteId } : {}) });
      continue;
    }
    const change = changeText(a.action, obj);
    add({ ...base, type: 'change', action: a.action, text: change.text, from: change.from, to: change.to });
  }
  postEntries('email', src.emails, src.emailAttempts, add);
  postEntries('webhook', src.webhooks, src.webhookAttempts, add);

  const cut = src.audits.length > TIMELINE_MAX || src.emailRows > TIMELINE_MAX || src.webhookRows > TIMELINE_MAX;
  entries.sort((x, y) => y.ms - x.ms || y.rank - x.rank || y.seq - x.seq);
  const results = entries.slice(0, TIMELINE_MAX).map(({ ms: _ms, rank: _rank, seq: _seq, ...e }) => e);
  return {
    application_id: applicationId,
    order: 'newest_first',
    count: results.length,
    truncated: entries.length > TIMELINE_MAX || cut,
    results,
  };
}
