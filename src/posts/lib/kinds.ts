/**
 * The delivery kinds: job webhook posts (application_posts), form API posts (form_posts) and
 * email (email_posts).
 */
import type { Db } from '../../db/knex.js';
import type { Transporter } from 'nodemailer';
import { fromDbJson } from '../../db/codecs.js';
import type { Delivery, DeliveryKind, SendResult } from './engine.js';
import type { HttpSender } from './http-sender.js';
import type { ApplicationPostPayload, StoredApplicationPost } from '../types.js';
import { currentFormApis, currentWebhooks, type WebhookTarget } from '../queries.js';
import type { Claimed, EmailMessage } from '../repo.js';
import { parseRetryAfter } from './schedule.js';
import { webhookHeaders } from './signing.js';
import { withBrandHeader } from './mail.js';

export const WEBHOOK_OFF = "Not sent: the job's webhook is off.";
const FORM_API_OFF = "Not sent: the form's API posts are off.";

/** An HTTP answer as a send result: 410 stops the retries; 429 and 503 bring their Retry-After. */
function httpResult(r: Awaited<ReturnType<HttpSender['post']>>, now: Date): SendResult {
  const { retryAfter, ...outcome } = r;
  return {
    ...outcome,
    permanent: r.statusCode === 410,
    retryAfterSeconds: r.statusCode === 429 || r.statusCode === 503 ? parseRetryAfter(retryAfter, now) : null,
  };
}

/**
 * The body a job webhook receives: the stored payload's keys in the spec's order, then
 * `secret_key`, the job's current secret (the one the post is signed with), '' without one, then
 * `source` when the job had opted in.
 */
function sentApplicationPost(stored: Partial<StoredApplicationPost>, secret: string | null): ApplicationPostPayload {
  return {
    job_public_id: stored.job_public_id ?? '',
    email: stored.email ?? '',
    first_name: stored.first_name ?? '',
    second_name: stored.second_name ?? '',
    phone: stored.phone ?? '',
    secret_key: secret ?? '',
    // Stored only for a job that opted in when the application came (issue 21).
    ...('source' in stored ? { source: stored.source ?? null } : {}),
  };
}

/**
 * A kind of signed JSON post (job webhooks, form API posts): each attempt goes to the owner's URL
 * as it is now, signed with its current secret (Standard Webhooks), with the same `webhook-id`
 * every time; when the owner has turned posting off it is not sent (FAILED, `off`).
 */
function signedPostKind(opts: {
  name: string;
  table: 'application_posts' | 'form_posts';
  groupColumn: 'job_id' | 'form_id';
  off: string;
  targets: (ids: number[]) => Promise<Map<number, WebhookTarget>>;
  body: (row: Claimed['row'], secret: string | null) => string;
  sender: HttpSender;
  now: () => Date;
}): DeliveryKind {
  const { sender, now } = opts;
  return {
    name: opts.name,
    table: opts.table,
    groupColumn: opts.groupColumn,
    async prepare(rows: Claimed[]) {
      const targets = await opts.targets(rows.map((c) => Number(c.row[opts.groupColumn])));
      const out = new Map<number, Delivery | string>();
      for (const { row } of rows) {
        const target = targets.get(Number(row[opts.groupColumn]));
        if (!target?.enabled || !target.url) {
          out.set(Number(row.id), opts.off);
          continue;
        }
        const { url, secret } = target;
        const body = opts.body(row, secret);
        const id = String(row.message_id);
        out.set(Number(row.id), {
          origin: URL.canParse(url) ? new URL(url).origin : url,
          async send() {
            const at = now();
            const headers = secret
              ? webhookHeaders(secret, id, body, at)
              : { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)) };
            return httpResult(await sender.post(url, body, headers), at);
          },
        });
      }
      return out;
    },
  };
}

/** Job webhook posts: the stored payload with the job's current secret as `secret_key`. */
export function applicationPostKind(db: Db, sender: HttpSender, now: () => Date): DeliveryKind {
  return signedPostKind({
    name: 'application post',
    table: 'application_posts',
    groupColumn: 'job_id',
    off: WEBHOOK_OFF,
    targets: (ids) => currentWebhooks(db, ids),
    body: (row, secret) => {
      const stored = fromDbJson<Partial<StoredApplicationPost> & { event?: string }>(row.payload, {});
      // An application's event (enqueueApplicationEvent) is sent as stored; the application's own post gets its secret_key.
      return JSON.stringify(typeof stored.event === 'string' ? stored : sentApplicationPost(stored, secret));
    },
    sender,
    now,
  });
}

/** Form API posts: the payload fixed at submit, to the form's API URL. */
export function formPostKind(db: Db, sender: HttpSender, now: () => Date): DeliveryKind {
  return signedPostKind({
    name: 'form post',
    table: 'form_posts',
    groupColumn: 'form_id',
    off: FORM_API_OFF,
    targets: (ids) => currentFormApis(db, ids),
    body: (row) => (typeof row.payload === 'string' ? row.payload : JSON.stringify(row.payload)),
    sender,
    now,
  });
}

/** An SMTP failure: a 5xx answer is permanent; a 4xx or a connection failure is retried. */
function smtpResult(err: unknown, durationMs: number): SendResult {
  const e = err as { responseCode?: number; code?: string; message?: string };
  const code = typeof e?.responseCode === 'number' ? e.responseCode : null;
  return {
    ok: false,
    statusCode: code,
    // nodemailer's message may quote the recipient; the code and the server's reply code say enough.
    error: code ? `SMTP ${code}` : `SMTP connection failed${e?.code ? ` (${e.code})` : ''}`,
    durationMs,
    permanent: code !== null && code >= 500,
  };
}

/**
 * MAIL_FROM's address under the name an email carries (HR's emails: "Alice via Acme Careers",
 * made when it was written): the address stays MAIL_FROM's, so SPF and DKIM still hold.
 */
function namedFrom(from: string, name: string): { name: string; address: string } {
  const m = /<([^<>]+)>\s*$/.exec(from);
  return { name, address: m ? m[1].trim() : from.trim() };
}

/** Email, sent by nodemailer through SMTP_URL. */
export function emailKind(
  transport: Transporter,
  from: string,
  /** The company's name and logo for the HTML part's header (issue 35), read once per batch. */
  brand: () => Promise<{ name: string; logoUrl: string | null }>,
): DeliveryKind {
  return {
    name: 'email',
    table: 'email_posts',
    groupColumn: null,
    async prepare(rows: Claimed[]) {
      const out = new Map<number, Delivery | string>();
      const header = await brand();
      for (const { row } of rows) {
        const message = fromDbJson<EmailMessage | null>(row.payload, null);
        if (!message) {
          out.set(Number(row.id), 'Not sent: the message could not be read.');
          continue;
        }
        out.set(Number(row.id), {
          origin: 'smtp',
          async send() {
            const started = performance.now();
            try {
              await transport.sendMail({
                from: message.fromName ? namedFrom(from, message.fromName) : from,
                to: message.to,
                subject: message.subject,
                text: message.text,
                html: message.html && withBrandHeader(message.html, header),
                ...(message.replyTo ? { replyTo: message.replyTo } : {}),
                ...(message.headers ? { headers: message.headers } : {}),
                ...(message.calendar
                  ? { icalEvent: { method: message.calendar.method, filename: 'invite.ics', content: message.calendar.content } }
                  : {}),
              });
              return { ok: true, statusCode: 250, error: null, durationMs: performance.now() - started };
            } catch (err) {
              return smtpResult(err, performance.now() - started);
            }
          },
        });
      }
      return out;
    },
  };
}
