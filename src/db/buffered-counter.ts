/**
 * Counts kept in memory per key and added to the database in batches, off the request path: every
 * few seconds after the first count, and when the process stops (closeContext). The feature that
 * counts supplies the key of a count and the writer (its atomic upserts, so any number of processes
 * may count the same key). A flush that fails because the database is unavailable keeps its counts
 * for the next flush (retried on the same timer), so counts made during an outage are not lost.
 * Job page views (src/jobs/) and the apply funnel (src/funnel/) count through it.
 */
import { isDatabaseUnavailable, logDatabaseUnavailable } from './errors.js';
import type { Logger } from '../log/logger.js';

/** A part of the context that holds counts until flushed (closeContext flushes it). */
export interface Flushable {
  flush(): Promise<void>;
}

export interface BufferedCounterOptions<T extends { count: number }> {
  /** What the log lines call it: 'view counter' writes "... in the view counter" and "view counter flush failed". */
  name: string;
  /** Counts with the same key are added together before they are written. */
  keyOf: (c: T) => string | number;
  /** Adds a batch to the database (each count added to what is stored, never overwriting it). */
  write: (batch: T[]) => Promise<void>;
  log: Logger;
  flushMs?: number;
}

export class BufferedCounter<T extends { count: number }> implements Flushable {
  private pending = new Map<string | number, T>();
  private timer: NodeJS.Timeout | null = null;
  constructor(private readonly opts: BufferedCounterOptions<T>) {}

  /** Adds `c.count` to what is held under `c`'s key. */
  add(c: T): void {
    const key = this.opts.keyOf(c);
    const held = this.pending.get(key);
    if (held) held.count += c.count;
    else this.pending.set(key, { ...c });
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush().catch((err) => this.failed(err)), this.opts.flushMs ?? 5000);
      this.timer.unref();
    }
  }

  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.pending.size) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    try {
      await this.opts.write(batch);
    } catch (err) {
      // Kept for the next flush while the database is down.
      if (isDatabaseUnavailable(err)) for (const c of batch) this.add(c);
      throw err;
    }
  }

  private failed(err: unknown): void {
    if (isDatabaseUnavailable(err)) logDatabaseUnavailable(`the ${this.opts.name}`, err);
    else this.opts.log.error({ err }, `${this.opts.name} flush failed`);
  }
}
