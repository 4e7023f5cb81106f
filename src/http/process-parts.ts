/**
 * The per-process parts of the context that features implement (the app shell wires them,
 * src/wiring.ts): the kernel and the context know them only by these interfaces, so the context
 * imports no feature.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Flushable } from '../db/buffered-counter.js';
import type { Db } from '../db/knex.js';
import type { Logger } from '../log/logger.js';

/** Job page views of this process (src/jobs/), added to each job's count in batches. */
export interface JobViewCounts extends Flushable {
  count(jobId: number): void;
}

/** The requests the apply funnel counts: the job page, the Apply page, an accepted application (from the wizard or not). */
export type FunnelRequestStage = 'view' | 'apply' | 'submitted' | 'submitted_direct';

/** The apply funnel's counts of this process (src/funnel/), flushed like the job views. */
export interface FunnelCounts extends Flushable {
  /** A request counted under the device class of its User-Agent; nothing when it says DNT: 1 or Sec-GPC: 1. */
  countRequest(jobId: number, stage: FunnelRequestStage, headers: IncomingHttpHeaders): void;
  /** Several events of one wizard beacon (steps, events and device as src/funnel/types.ts names them), counted under one day. */
  countAll(jobId: number, events: readonly { step: string; event: string }[], device: string): void;
}

/** Wakes this process's delivery worker (src/posts/) when a post is written. */
export interface OutboxSignal {
  notify(): void;
  /** Calls `listener` on each notify; answers the function that stops it. */
  subscribe(listener: () => void): () => void;
}

/** What /readyz answers (src/ops/); the server marks it stopping on SIGTERM/SIGINT. */
export interface Readiness {
  stop(): void;
  readonly isStopping: boolean;
  ready(): Promise<boolean>;
}

export interface ProcessParts {
  views: JobViewCounts;
  funnel: FunnelCounts;
  outbox: OutboxSignal;
  readiness: Readiness;
}

/** Makes the process parts from the context's kernel parts (the app shell's wiring). */
export type ProcessPartsFactory = (kernel: { db: Db; log: Logger; now: () => Date }) => ProcessParts;
