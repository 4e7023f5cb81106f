/**
 * Prometheus metrics (/metrics), one registry per app context so several apps in one process
 * (tests) never share or clash. Request durations are labelled by route pattern, never by the raw
 * URL: no personal data in labels and a bounded number of series. The database figures are read
 * at scrape time, one bounded query per table.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../../db/knex.js';
import { describeDbError } from '../../db/errors.js';
import type { Logger } from '../../log/logger.js';
import { arrivedAt, routePattern } from '../../http/request-log.js';
import { countApplications, outboxStats, poolInUse, type OutboxStats } from '../queries.js';
import { READY_CHECK_TIMEOUT_MS, withTimeout } from './readiness.js';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export class Metrics {
  readonly registry = new Registry();
  private readonly durations: Histogram<'method' | 'route' | 'status'>;
  private readonly applications: Gauge;
  private readonly posts: Gauge<'kind' | 'status'>;
  private readonly oldestDue: Gauge<'kind'>;

  constructor(
    private readonly db: Db,
    private readonly now: () => Date,
    private readonly log: Logger,
  ) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.durations = new Histogram({
      name: 'careers_http_request_duration_seconds',
      help: 'HTTP requests by method, route pattern and status code (aborted: the client or shutdown cut the connection)',
      labelNames: ['method', 'route', 'status'],
      // Up to a minute: uploads on slow links take that long.
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    });
    this.applications = new Gauge({
      name: 'careers_applications',
      help: 'Applications in the database (NaN when the database could not be read)',
      registers,
    });
    this.posts = new Gauge({
      name: 'careers_outbox_posts',
      help: 'Outbound posts by kind (application, email, form) and status',
      labelNames: ['kind', 'status'],
      registers,
    });
    this.oldestDue = new Gauge({
      name: 'careers_outbox_oldest_due_seconds',
      help: 'Age of the oldest due post (PENDING, next attempt reached) by kind; 0 when none is due',
      labelNames: ['kind'],
      registers,
    });
    new Gauge({
      name: 'careers_db_pool_connections_in_use',
      help: 'Database connections of this process lent out right now',
      registers,
      collect() {
        this.set(poolInUse(db));
      },
    });
  }

  /** Times the request from its arrival to its end, under the route that answered it. */
  track(req: Request, res: Response): void {
    this.timeAs(req, res, () => routePattern(req));
  }

  /** The same for an answer made outside the app (a kept public page, src/http/kept-pages.ts), under the route that made it. */
  timeAs(req: IncomingMessage, res: ServerResponse, route: () => string): void {
    const start = arrivedAt(req);
    res.once('close', () => {
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      const status = res.writableFinished ? String(res.statusCode) : 'aborted';
      const method = req.method ?? '';
      this.durations.observe({ method: METHODS.has(method) ? method : 'other', route: route(), status }, seconds);
    });
  }

  /** The text exposition, with the database figures read now. */
  async render(): Promise<string> {
    await this.readDatabase();
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private async readDatabase(): Promise<void> {
    const now = this.now();
    let figures: [number, OutboxStats[]] | null = null;
    try {
      figures = await withTimeout(Promise.all([countApplications(this.db), outboxStats(this.db, now)]), READY_CHECK_TIMEOUT_MS);
    } catch (err) {
      // The process figures are still worth a scrape; the database ones are left out, not stale.
      this.log.warn(`[metrics] database figures left out: ${describeDbError(err)}`);
    }
    // Set in one synchronous step, so a scrape running beside this one never sees half of them.
    this.posts.reset();
    this.oldestDue.reset();
    // A gauge without labels cannot be left out: NaN says "unknown", never a wrong count.
    this.applications.set(Number.NaN);
    if (!figures) return;
    const [applications, outboxes] = figures;
    this.applications.set(applications);
    for (const o of outboxes) {
      for (const { status, count } of o.byStatus) this.posts.set({ kind: o.kind, status }, count);
      this.oldestDue.set({ kind: o.kind }, o.oldestDueAt ? Math.max(0, (now.getTime() - o.oldestDueAt.getTime()) / 1000) : 0);
    }
  }
}
