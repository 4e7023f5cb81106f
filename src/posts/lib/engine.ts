/**
 * The delivery engine: one worker per process delivers every outbox kind (job webhook posts now,
 * email, later form API posts). A kind says which table it reads and how a claimed row is sent;
 * the worker claims due rows with a lease, sends them with a bounded number at once (and per
 * receiver origin), records each attempt and plans the next from POSTS_RETRY_SCHEDULE.
 *
 * It wakes when this process writes a post (OutboxSignal), at the earliest due time of what is
 * waiting, after each send, and on the cron sweep; several processes may run it on one database.
 */
import type { Db } from '../../db/knex.js';
import { describeDbError, isDatabaseUnavailable, logDatabaseUnavailable } from '../../db/errors.js';
import {
  claimDue,
  dueGroups,
  earliestDue,
  recordAttempts,
  releaseClaims,
  stopPost,
  type AttemptOutcome,
  type AttemptRecord,
  type Claimed,
  type OutboxTable,
} from '../repo.js';
import { retryDelayMs } from './schedule.js';

export interface SendResult extends AttemptOutcome {
  /** No retry whatever the schedule says (HTTP 410, an SMTP 5xx). */
  permanent?: boolean;
  /** The receiver's Retry-After (429, 503), in seconds. */
  retryAfterSeconds?: number | null;
}

export interface Delivery {
  /** Sends are limited per origin (a receiver), so one slow receiver cannot hold every slot. */
  origin: string;
  send(): Promise<SendResult>;
}

export interface DeliveryKind {
  /** For messages: 'application post', 'email'. */
  name: string;
  table: OutboxTable;
  /** The column that tells receivers apart before a row is read (job_id), or null. */
  groupColumn: string | null;
  /** Where each claimed row goes now; a string instead: it is not sent, for that reason. */
  prepare(rows: Claimed[]): Promise<Map<number, Delivery | string>>;
}

export interface WorkerDeps {
  db: Db;
  now: () => Date;
  kinds: DeliveryKind[];
  schedule: number[];
  random?: () => number;
  log: (line: string) => void;
}

export interface WorkerOptions {
  /** Sends at once in this process. */
  maxInFlight?: number;
  perOrigin?: number;
  batch?: number;
  /** How long a claimed row is this worker's; longer than a send can take (15 s). */
  leaseMs?: number;
  /** Longest sleep when nothing is due (posts written by other processes). */
  idleMs?: number;
}

/** How often a receiver that keeps failing is summarised. */
const SUMMARY_EVERY_MS = 60_000;

/** A send that throws is a failed attempt like any other. */
async function send(d: Delivery): Promise<SendResult> {
  try {
    return await d.send();
  } catch (err) {
    return { ok: false, statusCode: null, error: (err as Error)?.message?.slice(0, 200) ?? 'Send failed', durationMs: 0 };
  }
}

interface Queued {
  kind: DeliveryKind;
  c: Claimed;
  d: Delivery;
  /** Past this, the row is given back rather than sent: its lease could end during the send. */
  sendBy: number;
}

export class PostsWorker {
  private readonly opts: Required<WorkerOptions>;
  private running = false;
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  /** The timer's pass (a tick, then planning the next): stop() waits for it before the database closes. */
  private pass: Promise<void> | null = null;
  private again = false;
  private inFlight = 0;
  /** Claimed rows waiting for a connection to their origin, and sends under way, per origin. */
  private readonly queues = new Map<string, Queued[]>();
  private readonly originSends = new Map<string, number>();
  /** Per kind: groups (job ids) seen going to an origin that has enough work, with that origin. */
  private readonly busy = new Map<DeliveryKind, Map<number, string>>();
  private readonly sends = new Set<Promise<void>>();
  /** Finished attempts waiting to be saved: one write at a time, each taking all that waits. */
  private toRecord: { kind: DeliveryKind; record: AttemptRecord; done: (err?: unknown) => void }[] = [];
  private recording = false;
  /** Failed attempts per receiver origin since `since`, by cause, for the once-a-minute summary. */
  private readonly failures = new Map<string, { since: number; count: number; causes: Map<string, number> }>();

  constructor(
    private readonly deps: WorkerDeps,
    opts: WorkerOptions = {},
  ) {
    this.opts = { maxInFlight: 128, perOrigin: 8, batch: 100, leaseMs: 60_000, idleMs: 30_000, ...opts };
    for (const kind of deps.kinds) this.busy.set(kind, new Map());
  }

  start(): void {
    this.running = true;
    this.wake();
  }

  /** Something may be due now (a post was written, a send finished, the cron sweep). */
  wake(): void {
    if (!this.running) return;
    this.setTimer(0);
  }

  /** Stops claiming, gives back the rows still waiting, waits for the sends under way (each ends within 15 s). */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.pass;
    await this.ticking;
    const waiting = [...this.queues.values()].flat();
    this.queues.clear();
    for (const kind of this.deps.kinds)
      await releaseClaims(
        this.deps.db,
        kind.table,
        waiting.filter((q) => q.kind === kind).map((q) => q.c),
        this.deps.now(),
      ).catch(() => undefined);
    await Promise.all([...this.sends]);
  }

  /**
   * Delivers everything due now and waits for it (the CLI's retry, tests): claims until nothing
   * due is left, and waits for every send.
   */
  async runDue(): Promise<void> {
    do {
      await this.tick();
      while (this.sends.size) {
        await Promise.race([...this.sends]);
        await this.tick();
      }
    } while (await this.hasDue());
  }

  private async hasDue(): Promise<boolean> {
    const now = this.deps.now();
    for (const kind of this.deps.kinds) {
      const due = await earliestDue(this.deps.db, kind.table);
      if (due && due <= now) return true;
    }
    return false;
  }

  private setTimer(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.pass = this.tick().then(() => this.planNext());
    }, ms);
    this.timer.unref();
  }

  /** One pass over every kind, claiming while there is room; a pass asked for meanwhile runs after. */
  tick(): Promise<void> {
    if (this.ticking) {
      this.again = true;
      return this.ticking;
    }
    this.ticking = (async () => {
      try {
        do {
          this.again = false;
          for (const kind of this.deps.kinds) await this.claimKind(kind);
        } while (this.again);
      } catch (err) {
        // While the database is down this says so at most once a second, with every other [db] line.
        if (isDatabaseUnavailable(err)) logDatabaseUnavailable('the posts worker', err);
        else this.log(`[posts] claiming due posts failed: ${describeDbError(err)}`);
      } finally {
        this.ticking = null;
      }
    })();
    return this.ticking;
  }

  /** Sleeps until the earliest due row (or idleMs); a finishing send wakes it sooner. */
  private async planNext(): Promise<void> {
    if (!this.running || this.timer) return;
    let next: number = this.opts.idleMs;
    try {
      const now = this.deps.now();
      for (const kind of this.deps.kinds) {
        const busy = [...this.busy.get(kind)!.keys()];
        const due = kind.groupColumn
          ? ((await dueGroups(this.deps.db, kind.table, kind.groupColumn, null, busy, 1))[0]?.due ?? null)
          : await earliestDue(this.deps.db, kind.table);
        // Due now yet not claimed: this worker is full, and a finishing send wakes it.
        if (due) next = Math.min(next, due <= now ? (this.room() > 0 ? 50 : next) : due.getTime() - now.getTime());
      }
    } catch {
      next = 5_000; // the database is unreachable: try again soon
    }
    if (this.running && !this.timer) this.setTimer(Math.max(0, next));
  }

  /** Rows this worker may still claim: sends plus waiting rows stay within four times maxInFlight. */
  private room(): number {
    let waiting = 0;
    for (const q of this.queues.values()) waiting += q.length;
    return 4 * this.opts.maxInFlight - this.inFlight - waiting;
  }

  /** Work an origin has here: its sends and its waiting rows. */
  private originLoad(origin: string): number {
    return (this.originSends.get(origin) ?? 0) + (this.queues.get(origin)?.length ?? 0);
  }

  /**
   * Rows an origin may have here (sending and waiting): enough to keep its connections busy
   * between claims, few enough that a receiver that hangs holds only these.
   */
  private get originCap(): number {
    return this.opts.perOrigin * 8;
  }

  /**
   * Claims due rows of a kind while there is room: for a kind with groups, group by group (job by
   * job), leaving out groups whose receiver has enough work here, so their waiting rows are not
   * even read; the others go on.
   */
  private async claimKind(kind: DeliveryKind): Promise<void> {
    if (!kind.groupColumn) {
      while (this.room() > 0 && (await this.claimBatch(kind, undefined))) {
        /* until nothing is due or the receiver is full */
      }
      return;
    }
    const busy = this.busy.get(kind)!;
    while (this.room() > 0) {
      const groups = await dueGroups(this.deps.db, kind.table, kind.groupColumn, this.deps.now(), [...busy.keys()], 50);
      if (!groups.length) return;
      let claimed = false;
      for (const { group } of groups) {
        if (this.room() <= 0) return;
        if (await this.claimBatch(kind, { column: kind.groupColumn, value: group })) claimed = true;
      }
      if (!claimed) return;
    }
  }

  /** Claims one batch (of one group) and queues it per origin; false when it took nothing to send. */
  private async claimBatch(kind: DeliveryKind, group: { column: string; value: number } | undefined): Promise<boolean> {
    const busy = this.busy.get(kind)!;
    const limit = Math.min(this.opts.batch, this.room(), this.originCap);
    const claimed = await claimDue(this.deps.db, kind.table, { now: this.deps.now(), limit, leaseMs: this.opts.leaseMs, group });
    if (!claimed.length) return false;
    const deliveries = await kind.prepare(claimed);
    const giveBack: Claimed[] = [];
    const sendBy = Date.now() + this.opts.leaseMs / 2;
    let queued = 0;
    for (const c of claimed) {
      const d = deliveries.get(Number(c.row.id));
      if (d === undefined) continue;
      if (typeof d === 'string') {
        await stopPost(this.deps.db, kind.table, c, d, this.deps.now());
        continue;
      }
      if (this.originLoad(d.origin) >= this.originCap) {
        // This receiver has enough work here: its rows wait in the database, the others go on.
        if (group) busy.set(group.value, d.origin);
        giveBack.push(c);
        continue;
      }
      const queue = this.queues.get(d.origin) ?? [];
      queue.push({ kind, c, d, sendBy });
      this.queues.set(d.origin, queue);
      queued += 1;
      this.pump(d.origin);
    }
    await releaseClaims(this.deps.db, kind.table, giveBack, this.deps.now());
    return queued > 0 && !giveBack.length;
  }

  /** Starts waiting rows of an origin while it has free connections. */
  private pump(origin: string): void {
    const queue = this.queues.get(origin);
    while (queue?.length && (this.originSends.get(origin) ?? 0) < this.opts.perOrigin && this.inFlight < this.opts.maxInFlight) {
      const q = queue.shift()!;
      if (Date.now() > q.sendBy) {
        void releaseClaims(this.deps.db, q.kind.table, [q.c], this.deps.now()).catch(() => undefined);
        continue;
      }
      this.launch(q);
    }
    if (queue && !queue.length) this.queues.delete(origin);
  }

  private launch({ kind, c, d }: Queued): void {
    this.inFlight += 1;
    this.originSends.set(d.origin, (this.originSends.get(d.origin) ?? 0) + 1);
    const p = (async () => {
      const result = await send(d);
      this.sent(kind, d.origin);
      await this.save(kind, c, result, d.origin);
    })().finally(() => this.sends.delete(p));
    this.sends.add(p);
  }

  /** A send ended: its connection serves the next waiting row; claim again when the origin has room. */
  private sent(kind: DeliveryKind, origin: string): void {
    this.inFlight -= 1;
    const n = (this.originSends.get(origin) ?? 1) - 1;
    if (n > 0) this.originSends.set(origin, n);
    else this.originSends.delete(origin);
    this.pump(origin);
    for (const [other, pending] of this.queues) if (other !== origin && pending.length) this.pump(other);
    // Claim again once this origin has room for a good batch, not after every send.
    if (this.originLoad(origin) <= this.originCap / 2) {
      for (const [group, o] of this.busy.get(kind)!) if (o === origin) this.busy.get(kind)!.delete(group);
      this.wake();
    }
  }

  /** Saves the attempt and plans the next one. */
  private async save(kind: DeliveryKind, c: Claimed, result: SendResult, origin: string): Promise<void> {
    const attempts = Number(c.row.attempts) + 1;
    let next: Date | null = null;
    if (!result.ok && !result.permanent) {
      const delay = retryDelayMs(attempts, this.deps.schedule, this.deps.random);
      // A receiver may ask for a longer wait, never a shorter one than the schedule's step.
      if (delay !== null) next = new Date(this.deps.now().getTime() + Math.max(delay, (result.retryAfterSeconds ?? 0) * 1000));
    }
    try {
      await this.record(kind, { c, outcome: result, nextAttemptAt: next });
    } catch (err) {
      // The lease runs out and the post is sent again, with the same webhook-id.
      if (isDatabaseUnavailable(err)) logDatabaseUnavailable('the posts worker', err);
      else this.log(`[posts] could not save attempt ${attempts} of ${kind.name} ${c.row.id}: ${describeDbError(err)}`);
      return;
    }
    if (!result.ok) {
      // A status names itself; otherwise the sender's cause (never the receiver's answer, which may quote people).
      const cause = result.statusCode ? `status ${result.statusCode}` : (result.error ?? 'no answer');
      this.log(
        `[posts] ${kind.name} ${c.row.id}: attempt ${attempts} failed (${cause}); ${next ? `next at ${next.toISOString()}` : 'no more attempts'}`,
      );
      this.countFailure(origin, cause);
    }
  }

  /**
   * Failed attempts per receiver origin: once a minute has passed since an origin's first counted
   * failure, the next one logs a summary of that minute (how many, by cause) and starts a new count.
   */
  private countFailure(origin: string, cause: string): void {
    const now = this.deps.now().getTime();
    const w = this.failures.get(origin) ?? { since: now, count: 0, causes: new Map<string, number>() };
    this.failures.set(origin, w);
    w.count += 1;
    w.causes.set(cause, (w.causes.get(cause) ?? 0) + 1);
    if (now - w.since < SUMMARY_EVERY_MS) return;
    const causes = [...w.causes].map(([text, n]) => `${n} ${text}`).join(', ');
    this.log(`[posts] ${origin}: ${w.count} failed attempts in the last ${Math.round((now - w.since) / 60_000)} min (${causes})`);
    this.failures.delete(origin);
  }

  /**
   * Saves an attempt together with the others that finished meanwhile: one write at a time,
   * each taking everything that came in while the previous one ran.
   */
  private record(kind: DeliveryKind, record: AttemptRecord): Promise<void> {
    return new Promise((resolve, reject) => {
      this.toRecord.push({ kind, record, done: (err) => (err ? reject(err) : resolve()) });
      if (this.recording) return;
      this.recording = true;
      setImmediate(() => void this.writeRecords());
    });
  }

  private async writeRecords(): Promise<void> {
    while (this.toRecord.length) {
      const batch = this.toRecord.splice(0, 500);
      for (const kind of new Set(batch.map((b) => b.kind))) {
        const mine = batch.filter((b) => b.kind === kind);
        await recordAttempts(
          this.deps.db,
          kind.table,
          mine.map((b) => b.record),
          this.deps.now(),
        ).then(
          (skipped) => {
            if (skipped)
              this.log(`[posts] ${skipped} ${kind.name} attempt(s) not saved: their posts were removed meanwhile (purge or erase)`);
            for (const b of mine) b.done();
          },
          (err) => {
            for (const b of mine) b.done(err);
          },
        );
      }
    }
    this.recording = false;
  }

  private log(line: string): void {
    this.deps.log(line);
  }
}
