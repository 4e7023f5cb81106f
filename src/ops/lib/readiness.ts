/**
 * Whether this process should get traffic (/readyz): the database answers a `select 1` within
 * 2 s, no migration is pending, and the process is not shutting down.
 */
import type { Db } from '../../db/knex.js';
import { migrationStatus } from '../../db/migrations.js';
import { pingDatabase } from '../queries.js';

/** A load balancer's probe should get its answer well inside its own timeout (commonly 5 s). */
export const READY_CHECK_TIMEOUT_MS = 2000;

/** `promise`, or a rejection once `ms` have passed (the promise itself runs on; its failure is handled). */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

export class Readiness {
  private stopping = false;
  /** Once every migration is applied it stays so: the migration list is compiled into this process. */
  private migrated = false;
  /** The check running now: probes arriving meanwhile share it, so a hung database never piles up queries. */
  private running: Promise<boolean> | null = null;

  constructor(private readonly db: Db) {}

  /** The process is shutting down: not ready from now on. */
  stop(): void {
    this.stopping = true;
  }

  get isStopping(): boolean {
    return this.stopping;
  }

  async ready(): Promise<boolean> {
    if (this.stopping) return false;
    this.running ??= withTimeout(this.check(), READY_CHECK_TIMEOUT_MS)
      .catch(() => false)
      .finally(() => {
        this.running = null;
      });
    const ok = await this.running;
    return ok && !this.stopping;
  }

  private async check(): Promise<boolean> {
    await pingDatabase(this.db);
    // Pending while another process (or `careers-admin migrate`) has not finished: checked again on each probe.
    if (!this.migrated) this.migrated = (await migrationStatus(this.db)).pending.length === 0;
    return this.migrated;
  }
}
