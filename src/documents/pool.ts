/**
 * Untrusted documents are parsed outside the server's process (DESIGN.md §3, issue 28): a bounded
 * pool of child processes runs `worker.ts`, each with a V8 heap cap, and a parse that passes its
 * deadline has its process killed. A crafted file that loops or grows without end costs one
 * child, never the server: the caller gets null (no text) and the file stays downloadable.
 *
 * Written here rather than taken from a pool library, on purpose: with worker threads (piscina)
 * a thread reaching its heap cap inside some V8 runtime calls (a growing array) aborted the whole
 * server; workerpool's process pool cancels a task by messaging the child first, and a child that
 * died at that moment left its pool waiting for ever. Here a deadline is one SIGKILL, and a child's
 * exit, however it comes, settles its task.
 */
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { fork, type ChildProcess } from 'node:child_process';
import type { Logger } from '../log/logger.js';
import type { LogoResult } from './logo-image.js';
import type { DocumentText, WordKind } from './word-text.js';
import { builtBundle } from './thread.js';

export type { DocumentText, LogoResult, WordKind };

export interface ParserLimits {
  /** Milliseconds a parse may run, from when its child starts it. */
  deadlineMs: number;
  /** Each child's V8 heap (old generation), in MB. */
  heapMb: number;
  /** Children at most. */
  processes: number;
  /** Parses waiting for a child at most; past that, `ParsersBusy`. */
  queue: number;
}

const DEFAULT_PARSER_LIMITS: ParserLimits = {
  deadlineMs: 2000,
  heapMb: 128,
  processes: Math.min(2, availableParallelism()),
  queue: 8,
};

/** An idle child is let go after this long. */
const IDLE_MS = 60_000;

/** Every child is busy and the queue is full: ask again shortly. */
export class ParsersBusy extends Error {}

type Request = { method: string; params: unknown[] };
type Reply = { type: 'started' } | { type: 'done'; result: unknown } | { type: 'failed'; message: string };

/** The child's side (`worker.ts`): answers each request with `handlers[method](...params)`, saying first that it started. */
export function serveParsers(handlers: Record<string, (...params: never[]) => unknown>): void {
  const reply = (message: Reply) => process.send?.(message);
  process.on('message', async ({ method, params }: Request) => {
    reply({ type: 'started' });
    try {
      reply({ type: 'done', result: await handlers[method](...(params as never[])) });
    } catch (err) {
      reply({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
    }
  });
}

const here = import.meta.url;
// Beside the running source (tsx) the worker is worker.ts (or the test rig's fresh bundle, thread.ts); in the bundle, dist/document-worker.js.
const WORKER_URL = here.endsWith('.ts')
  ? (builtBundle('document-worker') ?? new URL('./worker.ts', here))
  : new URL('./document-worker.js', here);

export class DocumentParsers {
  private readonly live = new Set<ChildProcess>();
  private readonly idle: ChildProcess[] = [];
  private readonly idleTimers = new Map<ChildProcess, NodeJS.Timeout>();
  private readonly waiting: ((child: ChildProcess | null) => void)[] = [];
  private closed = false;

  constructor(
    private readonly log: Logger,
    private readonly limits: ParserLimits = DEFAULT_PARSER_LIMITS,
    /** Another worker entry (tests of the pool itself). */
    private readonly workerUrl: URL = WORKER_URL,
  ) {}

  /** The text of a Word document, or null when it cannot be read within the limits. */
  wordText(kind: WordKind, bytes: Buffer): Promise<DocumentText | null> {
    return this.run('wordText', [kind, new Uint8Array(bytes)]);
  }

  /** A logo upload checked, cleaned and sized (logo-image.ts), or null when it cannot be within the limits. */
  logoImage(bytes: Buffer): Promise<LogoResult | null> {
    return this.run('logoImage', [new Uint8Array(bytes)]);
  }

  /**
   * Runs `method` of the worker in a child; null when the parser fails, overruns its deadline
   * (its child is killed) or dies (its heap cap). Throws ParsersBusy when the queue is full.
   */
  async run<T>(method: string, params: unknown[]): Promise<T | null> {
    const child = await this.acquire();
    if (!child) return null;
    return new Promise<T | null>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      let began = 0;
      const settle = (result: T | null, stopped?: string) => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        child.off('error', onError);
        if (stopped) {
          this.log.warn({ reason: stopped, ms: began ? Date.now() - began : 0 }, 'document parser stopped');
          child.kill('SIGKILL');
        } else {
          this.release(child);
        }
        resolve(result);
      };
      const onMessage = (reply: Reply) => {
        if (reply.type === 'started') {
          began = Date.now();
          timer = setTimeout(() => settle(null, 'deadline'), this.limits.deadlineMs);
        } else if (reply.type === 'done') settle(reply.result as T);
        else settle(null, `failed: ${reply.message}`);
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => settle(null, `died (${signal ?? code})`);
      const onError = (err: Error) => settle(null, `failed: ${err.message}`);
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.once('error', onError);
      child.send({ method, params } satisfies Request);
    });
  }

  /** Kills every child (server shutdown); parses still waiting get null. */
  async close(): Promise<void> {
    this.closed = true;
    for (const wake of this.waiting.splice(0)) wake(null);
    for (const child of this.live) child.kill('SIGKILL');
  }

  /** An idle child, a new one while there are fewer than `processes`, or a place in the queue. */
  private async acquire(): Promise<ChildProcess | null> {
    if (this.closed) return null;
    let idle = this.idle.pop();
    // One let go (its idle time ran out) may not have exited yet.
    while (idle && (idle.killed || !idle.connected)) idle = this.idle.pop();
    if (idle) {
      clearTimeout(this.idleTimers.get(idle));
      this.idleTimers.delete(idle);
      idle.ref();
      idle.channel?.ref();
      return idle;
    }
    if (this.live.size < this.limits.processes) return this.spawn();
    if (this.waiting.length >= this.limits.queue) throw new ParsersBusy('Every document parser is busy.');
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(child: ChildProcess): void {
    const next = this.waiting.shift();
    if (next) {
      next(child);
      return;
    }
    this.idle.push(child);
    this.idleTimers.set(child, setTimeout(() => child.kill('SIGKILL'), IDLE_MS).unref());
    // An idle child does not keep the server (or a CLI run) alive.
    child.unref();
    child.channel?.unref();
  }

  private spawn(): ChildProcess {
    const ts = this.workerUrl.pathname.endsWith('.ts');
    const child = fork(fileURLToPath(this.workerUrl), [], {
      execArgv: [...(ts ? ['--import', 'tsx'] : []), `--max-old-space-size=${this.limits.heapMb}`],
      // From source, tsx is found from the project folder (two up from the worker's file).
      ...(ts ? { cwd: fileURLToPath(new URL('../..', this.workerUrl)) } : {}),
      // Buffers cross as bytes, not as JSON arrays of numbers.
      serialization: 'advanced',
      // A dying child's report (V8's, when it reaches its heap cap) is not the server's log.
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    this.live.add(child);
    const gone = () => {
      this.live.delete(child);
      const i = this.idle.indexOf(child);
      if (i !== -1) this.idle.splice(i, 1);
      clearTimeout(this.idleTimers.get(child));
      this.idleTimers.delete(child);
      // A place freed: the first parse waiting gets a new child.
      const next = this.waiting.shift();
      if (next) next(this.closed ? null : this.spawn());
    };
    child.once('exit', gone);
    // One that could not even start (no pid) never exits: its place is freed here.
    child.on('error', (err) => {
      this.log.warn({ reason: err.message }, 'document parser stopped');
      if (child.pid === undefined && this.live.has(child)) gone();
    });
    return child;
  }
}
