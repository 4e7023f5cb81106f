/**
 * Untrusted documents are parsed off the main thread (DESIGN.md §3, issue 28): a bounded pool of
 * worker threads (piscina) runs `worker.ts`, each with a memory cap, and a parse that passes its
 * deadline has its worker stopped. A crafted file that loops or grows without end costs one
 * worker, never the server: the caller gets null (no text) and the file stays downloadable.
 */
import { availableParallelism } from 'node:os';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { Logger } from '../log/logger.js';
import type { DocumentText, WordKind } from './word-text.js';
import type { ParseTask } from './worker.js';

export type { DocumentText, WordKind };

export interface ParserLimits {
  /** Milliseconds a parse may run (from when a worker starts it). */
  deadlineMs: number;
  /** Each worker's V8 heap, in MB. */
  heapMb: number;
  /** Workers at most. */
  threads: number;
  /** Parses waiting for a worker at most; past that, `ParsersBusy`. */
  queue: number;
}

const DEFAULT_PARSER_LIMITS: ParserLimits = {
  deadlineMs: 2000,
  heapMb: 128,
  threads: Math.min(2, availableParallelism()),
  queue: 8,
};

/** Every worker is busy and the queue is full: ask again shortly. */
export class ParsersBusy extends Error {}

// Beside the running source (tsx) the worker is worker.ts; in the bundle, dist/document-worker.js.
const WORKER_URL = import.meta.url.endsWith('.ts') ? new URL('./worker.ts', import.meta.url) : new URL('./document-worker.js', import.meta.url);

export class DocumentParsers {
  private pool: Piscina | null = null;

  constructor(
    private readonly log: Logger,
    private readonly limits: ParserLimits = DEFAULT_PARSER_LIMITS,
    /** Another worker entry (tests of the pool itself). */
    private readonly workerUrl: URL = WORKER_URL,
  ) {}

  /** The text of a Word document, or null when it cannot be read within the limits. */
  wordText(kind: WordKind, bytes: Buffer): Promise<DocumentText | null> {
    return this.run((started) => ({ kind, bytes: new Uint8Array(bytes), started }) satisfies ParseTask);
  }

  /**
   * Runs one task in a worker; null when the parser fails, overruns its deadline or its memory,
   * or dies. The task carries the port the worker tells when it starts: the deadline runs from then.
   */
  async run<T>(task: (started: MessagePort) => object): Promise<T | null> {
    const pool = this.started();
    if (pool.queueSize >= this.limits.queue) throw new ParsersBusy('Every document parser is busy.');
    const { port1, port2 } = new MessageChannel();
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    let began = 0;
    port1.once('message', () => {
      began = Date.now();
      timer = setTimeout(() => abort.abort(), this.limits.deadlineMs);
    });
    try {
      return (await pool.run(task(port2), { signal: abort.signal, transferList: [port2] })) as T | null;
    } catch (err) {
      const reason = abort.signal.aborted ? 'deadline' : ((err as { code?: string }).code ?? (err as Error).message);
      this.log.warn({ reason, ms: began ? Date.now() - began : 0 }, 'document parser stopped');
      return null;
    } finally {
      clearTimeout(timer);
      port1.close();
    }
  }

  /** Stops every worker (server shutdown). */
  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    await pool?.destroy();
  }

  private started(): Piscina {
    this.pool ??= new Piscina({
      filename: this.workerUrl.href,
      minThreads: 0,
      maxThreads: this.limits.threads,
      maxQueue: this.limits.queue,
      // Kept a while for the next preview (review walks through applicants), then let go.
      idleTimeout: 30_000,
      resourceLimits: { maxOldGenerationSizeMb: this.limits.heapMb, maxYoungGenerationSizeMb: Math.min(32, this.limits.heapMb / 4) },
    });
    // A worker that dies after its task was settled (out of memory while being stopped at the
    // deadline) is reported here; without a listener the 'error' event would end the process.
    this.pool.on('error', (err: Error & { code?: string }) => this.log.warn({ reason: err.code ?? err.message }, 'document parser stopped'));
    return this.pool;
  }
}
