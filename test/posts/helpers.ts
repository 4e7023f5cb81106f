/**
 * Posts test kit: a real HTTP receiver on 127.0.0.1 that records every request and answers as a
 * test tells it, the Standard Webhooks check a receiver would run, and posts seeded the way the
 * apply transaction writes them.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';
import { insertApplications } from '../helpers/applications.js';
import { makeJob } from '../helpers/factories.js';
import { applicationPostPayload, enqueueApplicationPost } from '../../src/posts/index.js';
import type { Job } from '../../src/jobs/types.js';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
  path: string;
}

/** What the receiver answers; `hang` never answers (until the receiver closes). */
export type Answer = { status?: number; headers?: Record<string, string>; body?: string; hang?: boolean; delayMs?: number };

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  answer: (req: Received) => Answer;
  close: () => Promise<void>;
}

export async function startReceiver(answer: (req: Received) => Answer = () => ({ status: 200, body: 'ok' })): Promise<Receiver> {
  const r = { received: [] as Received[], answer } as Receiver;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const got: Received = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now(), path: req.url ?? '' };
      r.received.push(got);
      const a = r.answer(got);
      if (a.hang) return;
      const reply = () => {
        res.writeHead(a.status ?? 200, a.headers ?? {});
        res.end(a.body ?? '');
      };
      if (a.delayMs) setTimeout(reply, a.delayMs);
      else reply();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  r.port = (server.address() as AddressInfo).port;
  r.url = `http://127.0.0.1:${r.port}/hook`;
  r.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return r;
}

/**
 * The receiver's side of Standard Webhooks, written from the standard (not from src/): the
 * signed content is `{webhook-id}.{webhook-timestamp}.{body}`, the key the secret's bytes
 * (`whsec_` + base64: the decoded bytes), each space-separated `v1,<base64>` signature compared
 * in constant time, and the timestamp within 5 minutes.
 */
export function verifyStandardWebhook(
  secret: string,
  headers: http.IncomingHttpHeaders,
  body: string,
  nowSeconds = Date.now() / 1000,
): boolean {
  const id = String(headers['webhook-id'] ?? '');
  const ts = String(headers['webhook-timestamp'] ?? '');
  const sigs = String(headers['webhook-signature'] ?? '').split(' ');
  if (!id || !/^\d+$/.test(ts) || Math.abs(nowSeconds - Number(ts)) > 300) return false;
  const key = secret.startsWith('whsec_') ? Buffer.from(secret.slice('whsec_'.length), 'base64') : Buffer.from(secret, 'utf8');
  const expected = createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest();
  return sigs.some((s) => {
    const [version, value] = s.split(',');
    if (version !== 'v1' || !value) return false;
    const got = Buffer.from(value, 'base64');
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
}

/** A job whose webhook posts to `url` (written straight to the row: the save-time check refuses 127.0.0.1). */
export async function webhookJob(
  db: Knex,
  url: string,
  secret: string | null = 's3cret',
  extra: Record<string, unknown> = {},
): Promise<Job> {
  const job = await makeJob(db, { webhook_enabled: true, webhook_url: 'https://hooks.example.com/x', ...extra });
  // Written directly: a local receiver's URL, and short secrets as jobs saved before the secret rule have.
  await db('jobs').where('id', job.id).update({ webhook_url: url, webhook_secret: secret });
  return { ...job, webhook_url: url, webhook_secret: secret };
}

/** `n` applications to `job`, each with its PENDING post written as the apply transaction writes it. */
export async function seedPosts(db: Knex, job: Job, n: number, now = new Date(), tag = 'p'): Promise<number[]> {
  const apps = Array.from({ length: n }, (_, i) => ({
    first_name: `First${i}`,
    last_name: `Last${i}`,
    email: `${tag}${i}-${job.id}@example.com`,
    phone: `+91900000${String(i).padStart(4, '0')}`,
    resume_name: null,
  }));
  await insertApplications(db, job.id, apps, [], { now });
  const rows: { id: number; email: string; first_name: string; last_name: string; phone: string }[] = await db('applications')
    .select('id', 'email', 'first_name', 'last_name', 'phone')
    .where('job_id', job.id)
    .whereIn(
      'email',
      apps.map((a) => a.email.toLowerCase()),
    )
    .orderBy('id');
  await db.transaction(async (trx) => {
    for (const a of rows) {
      await enqueueApplicationPost(trx, {
        applicationId: a.id,
        jobId: job.id,
        targetUrl: job.webhook_url!,
        payload: applicationPostPayload(job, a),
        now,
      });
    }
  });
  return (
    await db('application_posts')
      .select('id')
      .whereIn(
        'application_id',
        rows.map((r) => r.id),
      )
      .orderBy('id')
  ).map((r: { id: number }) => Number(r.id));
}

export const silent = () => undefined;
