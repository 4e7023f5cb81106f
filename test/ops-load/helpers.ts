/**
 * Kit of the operations load tests (`npm run test:ops`): a steady load of applicants, each
 * sending a resume of its own (so its bytes can be found again on disk), what each client was
 * answered, and the checks that nothing a client was told is saved went missing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import type { Knex } from 'knex';
import { expect } from 'chai';
import { listFiles, sha256, toFormData, validFields } from '../fixtures/apply.js';
import { pdfBytes } from '../fixtures/resumes.js';
import type { ChildServer } from '../helpers/child-server.js';
import type { Receiver } from '../posts/helpers.js';
import { CLI_ENTRY } from '../helpers/child-server.js';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A PDF of `size` bytes carrying `tag` in its padding: every application's file is different. */
function taggedPdf(tag: string, size: number): Buffer {
  const b = pdfBytes(size);
  b.write(` ${tag} `, 200, 'latin1');
  return b;
}

/** One apply request as its client saw it. */
export interface Sent {
  email: string;
  sha256: string;
  status: number | null;
  retryAfter: string | null;
  body: string;
  /** The request failed without an answer (connection refused or cut). */
  error: string | null;
  startedAt: number;
  endedAt: number;
}

export interface ApplyLoad {
  sent: Sent[];
  /** Answers with this status so far. */
  count(status: number): number;
  /** Resolves once `n` answers with `status` came in after `since` (request start). */
  waitFor(status: number, n: number, since?: number, ms?: number): Promise<void>;
  /** Stops starting requests; resolves with every outcome once those in flight ended. */
  stop(): Promise<Sent[]>;
}

/**
 * `clients` applicants applying one after another without pause to `publicId` at `baseUrl`, each
 * with its own email and a `resumeBytes` PDF, until stopped. A client whose request fails without
 * an answer (the server is gone) waits 100 ms and goes on.
 */
export function startApplyLoad(opts: { baseUrl: string; publicId: string; clients: number; resumeBytes: number; tag: string }): ApplyLoad {
  const sent: Sent[] = [];
  let stopped = false;
  let seq = 0;
  const client = async () => {
    while (!stopped) {
      const n = seq++;
      const email = `${opts.tag}-${n}@example.com`;
      const resume = taggedPdf(email, opts.resumeBytes);
      const s: Sent = {
        email,
        sha256: sha256(resume),
        status: null,
        retryAfter: null,
        body: '',
        error: null,
        startedAt: Date.now(),
        endedAt: 0,
      };
      try {
        const res = await fetch(`${opts.baseUrl}/api/jobs/${opts.publicId}/apply/`, {
          method: 'POST',
          body: toFormData(validFields({ email, resume: { data: resume, filename: `cv-${n}.pdf`, type: 'application/pdf' } })),
          signal: AbortSignal.timeout(60_000),
        });
        s.status = res.status;
        s.retryAfter = res.headers.get('retry-after');
        s.body = await res.text();
      } catch (err) {
        const cause = (err as { cause?: { code?: string; message?: string } }).cause;
        s.error = cause?.code ?? cause?.message ?? (err as Error).message;
      }
      s.endedAt = Date.now();
      sent.push(s);
      if (s.error) await sleep(100);
    }
  };
  const running = Promise.all(Array.from({ length: opts.clients }, client));
  const count = (status: number) => sent.filter((s) => s.status === status).length;
  return {
    sent,
    count,
    waitFor: async (status, n, since = 0, ms = 60_000) => {
      const until = Date.now() + ms;
      while (sent.filter((s) => s.status === status && s.startedAt >= since).length < n) {
        if (Date.now() > until) throw new Error(`fewer than ${n} answers ${status} in ${ms} ms: ${summary(sent)}`);
        await sleep(50);
      }
    },
    stop: async () => {
      stopped = true;
      await running;
      return sent;
    },
  };
}

/** "1234 requests: 201 x1200, 503 x30, no answer x4 (ECONNRESET, ECONNREFUSED)", for assertion messages. */
export function summary(sent: Sent[]): string {
  const by = new Map<string, number>();
  const errors = new Set<string>();
  for (const s of sent) {
    const key = s.status === null ? 'no answer' : String(s.status);
    by.set(key, (by.get(key) ?? 0) + 1);
    if (s.error) errors.add(s.error);
  }
  const parts = [...by].map(([k, n]) => `${k} x${n}`).join(', ');
  return `${sent.length} requests: ${parts}${errors.size ? ` (${[...errors].join(', ')})` : ''}`;
}

const KEY = /^[a-f0-9]{2}\/[a-f0-9]{32}$/;

/**
 * What a client was told is saved, is: every 201 has its application row, its stored_files row
 * and its file, whose bytes hash to what was sent; no application points at a missing file; each
 * application has its outbox row (whole or nothing, when the job's webhook is on); and the
 * uploads folder holds only stored files (no temporary or partial files of another name).
 * Returns the committed applications by email.
 */
export async function expectNothingLost(
  db: Knex,
  uploads: string,
  jobId: number,
  sent: Sent[],
  opts: { webhook: boolean },
): Promise<Map<string, { id: number; storage_key: string }>> {
  const rows: { id: number; email: string; storage_key: string | null; sha256: string | null; posts: number | string }[] = await db(
    'applications as a',
  )
    .leftJoin('stored_files as f', 'f.id', 'a.resume_file_id')
    .where('a.job_id', jobId)
    .select(
      'a.id',
      'a.email',
      'f.storage_key',
      'f.sha256',
      db('application_posts as p').whereRaw('p.application_id = a.id').count('*').as('posts'),
    );
  const byEmail = new Map(rows.map((r) => [r.email, r]));
  const sentEmails = new Set(sent.map((s) => s.email));
  for (const s of sent.filter((x) => x.status === 201)) {
    const row = byEmail.get(s.email);
    expect(row, `a 201 without its application: ${s.email}`).to.not.equal(undefined);
    expect(row!.sha256, `stored sha256 of ${s.email}`).to.equal(s.sha256);
  }
  for (const r of rows) {
    expect(sentEmails.has(r.email), `an application nobody sent: ${r.email}`).to.equal(true);
    expect(r.storage_key, `application ${r.id} has no file row`).to.be.a('string');
    const file = path.join(uploads, r.storage_key!);
    expect(fs.existsSync(file), `application ${r.id} points at a missing file ${r.storage_key}`).to.equal(true);
    expect(sha256(fs.readFileSync(file)), `bytes on disk of ${r.email}`).to.equal(r.sha256);
    expect(Number(r.posts), `outbox rows of application ${r.id}`).to.equal(opts.webhook ? 1 : 0);
  }
  const strays = listFiles(uploads).filter((f) => !KEY.test(f));
  expect(strays, 'files in DATA_DIR/uploads that are not stored files').to.deep.equal([]);
  return new Map(rows.map((r) => [r.email, { id: r.id, storage_key: r.storage_key! }]));
}

/** After `careers-admin files sweep --older-than-minutes 0`: the uploads folder holds exactly the files rows point at. */
export async function expectFilesMatchRows(db: Knex, uploads: string): Promise<void> {
  const keys = (await db('stored_files').select('storage_key')).map((r: { storage_key: string }) => r.storage_key).sort();
  expect(listFiles(uploads)).to.deep.equal(keys);
}

/**
 * The receiver's view of the job's posts: every post was delivered, each under its own
 * webhook-id with the application's email; a webhook-id seen more than once carried the same body
 * each time (a repeat, never a new message). Returns how many requests were repeats.
 */
export async function expectPostsDelivered(db: Knex, receiver: Receiver, jobId: number): Promise<number> {
  const posts: { message_id: string; status: string; email: string }[] = await db('application_posts as p')
    .join('applications as a', 'a.id', 'p.application_id')
    .where('p.job_id', jobId)
    .select('p.message_id', 'p.status', 'a.email');
  expect(
    posts.filter((p) => p.status !== 'SUCCESS'),
    'posts not delivered',
  ).to.deep.equal([]);
  const bodies = new Map<string, string[]>();
  for (const r of receiver.received) {
    const id = String(r.headers['webhook-id']);
    bodies.set(id, [...(bodies.get(id) ?? []), r.body]);
  }
  expect([...bodies.keys()].sort()).to.deep.equal(posts.map((p) => p.message_id).sort());
  for (const p of posts) {
    const got = bodies.get(p.message_id)!;
    expect(JSON.parse(got[0]).email, p.message_id).to.equal(p.email);
    expect(new Set(got).size, `webhook-id ${p.message_id} sent with different bodies`).to.equal(1);
  }
  return receiver.received.length - bodies.size;
}

/** careers-admin in a child process, `stdin` written to it (for --password-stdin). */
export function admin(args: string[], env: Record<string, string>, stdin = ''): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI_ENTRY, ...args], {
      env: { ...process.env, NODE_ENV: 'test', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.stdin.end(stdin);
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** SIGTERM (an orderly stop, exit code 0), or SIGKILL for a process already being killed. */
export async function stopServer(
  server: ChildServer | null,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<{ code: number | null; signal: NodeJS.Signals | null } | null> {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return null;
  server.child.kill(signal);
  return server.exited;
}
