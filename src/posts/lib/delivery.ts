/**
 * Wiring of the delivery engine for a process: the HTTP sender, the kinds (email only when
 * SMTP_URL is set), the worker, and the node-cron sweep (POSTS_SWEEP_CRON) that wakes the worker
 * as a safety net and, hourly, removes attempts past their retention (POSTS_ATTEMPT_RETENTION_DAYS)
 * and rate-limit windows that have ended (their rows hold only keyed hashes, but none is kept longer
 * than it counts).
 * With HR_NOTIFY_DIGEST=hourly|daily the sweep also writes HR's notification digest (digest.ts).
 * The server runs it unless POSTS_WORKER=off; `careers-admin cron` runs it without HTTP.
 */
import type { Db } from '../../db/knex.js';
import nodeCron from 'node-cron';
import { describeDbError } from '../../db/errors.js';
import { deleteExpiredWindows } from '../../db/rate-limit-store.js';
import type { Config } from '../../../config/index.js';
import { PostsWorker, type DeliveryKind, type WorkerOptions } from './engine.js';
import { createHttpSender, type LookupAll } from './http-sender.js';
import { applicationPostKind, emailKind, formPostKind } from './kinds.js';
import { queueDueDigest } from './digest.js';
import { createMailTransport } from './mail.js';
import { emailBrand } from '../../branding/index.js';
import { purgeAttempts } from '../repo.js';
import type { OutboxSignal } from './signal.js';

export interface DeliveryDeps {
  db: Db;
  config: Config;
  now: () => Date;
  /** Name resolution for the send-time address check (tests); dns.lookup by default. */
  lookup?: LookupAll;
  random?: () => number;
  log: (line: string) => void;
  /** Other features' work on each sweep that may queue posts (issue 31: scorecard reminders); the worker is woken after it. */
  onSweep?: () => Promise<unknown>;
}

export interface Delivery {
  worker: PostsWorker;
  /** Removes attempts older than the retention; answers how many. */
  purge(): Promise<number>;
  /** Queues HR's digest of the period that ended last (HR_NOTIFY_DIGEST), once across processes; answers whether this call did. */
  digest(): Promise<boolean>;
  close(): Promise<void>;
}

export function createDelivery(deps: DeliveryDeps, opts: WorkerOptions = {}): Delivery {
  const { config } = deps;
  const sender = createHttpSender({ allowPrivate: config.webhookAllowPrivate, lookup: deps.lookup, connectionsPerOrigin: opts.perOrigin });
  const kinds: DeliveryKind[] = [applicationPostKind(deps.db, sender, deps.now), formPostKind(deps.db, sender, deps.now)];
  const transport = config.mail.smtpUrl ? createMailTransport(config.mail.smtpUrl) : null;
  if (transport) kinds.push(emailKind(transport, config.mail.from, () => emailBrand(deps.db, config)));
  const worker = new PostsWorker(
    { db: deps.db, now: deps.now, kinds, schedule: config.postsRetrySchedule, random: deps.random, log: deps.log },
    opts,
  );
  return {
    worker,
    purge: () => purgeAttempts(deps.db, new Date(deps.now().getTime() - config.postsAttemptRetentionDays * 86_400_000)),
    digest: () => queueDueDigest(deps),
    async close() {
      await worker.stop();
      await sender.close();
      transport?.close();
    },
  };
}

const PURGE_EVERY_MS = 3_600_000;

/**
 * Starts delivery in this process: the worker (woken by `signal` when this process writes a
 * post) and the cron sweep. Answers how to stop both.
 */
export function startDelivery(
  deps: DeliveryDeps,
  signal: OutboxSignal | null,
  opts: WorkerOptions = {},
): { delivery: Delivery; stop: () => Promise<void> } {
  const delivery = createDelivery(deps, opts);
  delivery.worker.start();
  const unsubscribe = signal?.subscribe(() => delivery.worker.wake());
  let lastPurge = 0;
  const task = deps.config.postsSweepCron
    ? nodeCron.schedule(
        deps.config.postsSweepCron,
        () => {
          delivery.worker.wake();
          deps.onSweep?.().then(
            () => delivery.worker.wake(),
            (err) => deps.log(`[posts] a sweep task failed: ${describeDbError(err)}`),
          );
          // HR's digest: its period's row makes it once whichever process asks first; queued, it wakes the worker.
          if (deps.config.mail.hrNotifyDigest !== 'off') {
            delivery.digest().then(
              (made) => made && delivery.worker.wake(),
              (err) => deps.log(`[posts] the HR digest failed: ${describeDbError(err)}`),
            );
          }
          if (Date.now() - lastPurge < PURGE_EVERY_MS) return;
          lastPurge = Date.now();
          delivery.purge().catch((err) => deps.log(`[posts] removing old attempts failed: ${describeDbError(err)}`));
          deleteExpiredWindows(deps.db, deps.now()).catch((err) =>
            deps.log(`[rate-limit] removing expired windows failed: ${describeDbError(err)}`),
          );
        },
        { noOverlap: true },
      )
    : null;
  return {
    delivery,
    async stop() {
      unsubscribe?.();
      await task?.stop();
      await delivery.close();
    },
  };
}
