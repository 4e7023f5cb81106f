/**
 * The apply funnel (issue 21): counts per job, stage, UTC day and device class, kept in memory
 * like the view counter and added to the database in batches; the wizard's beacons; and the HR
 * read with the drop at each stage.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Db } from '../db/knex.js';
import type { ReadCache } from '../db/read-cache.js';
import { BufferedCounter } from '../db/buffered-counter.js';
import type { FunnelCounts, FunnelRequestStage } from '../http/process-parts.js';
import { NotFound } from '../http/errors.js';
import type { Logger } from '../log/logger.js';
import { cachedPublicJob, requireJob } from '../jobs/index.js';
import { funnelDevice } from './lib/device.js';
import * as repo from './repo.js';
import type { FunnelBeacon } from './schema.js';
import { funnelSums, type FunnelSum } from './queries.js';
import {
  DEVICES,
  WIZARD_STEPS,
  WIZARD_STEP_LABELS,
  type Device,
  type FunnelEvent,
  type FunnelFigures,
  type FunnelLine,
  type FunnelStage,
  type JobFunnel,
  type WizardStep,
} from './types.js';

const utcDay = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Funnel counts of this process, kept in memory and written every few seconds (and when the
 * process stops: closeContext), off the request path (src/db/buffered-counter.ts). Each flush adds
 * to the stored counts (repo.addFunnelCounts), so any number of processes may count the same job.
 */
export class FunnelCounter implements FunnelCounts {
  private readonly counter: BufferedCounter<repo.FunnelCount>;
  constructor(
    db: Db,
    log: Logger,
    private readonly now: () => Date = () => new Date(),
    flushMs = 5000,
  ) {
    this.counter = new BufferedCounter({
      name: 'funnel counter',
      keyOf: (c) => `${c.jobId}|${c.day}|${c.step}|${c.event}|${c.device}`,
      write: (batch) => repo.addFunnelCounts(db, batch),
      log,
      flushMs,
    });
  }

  count(jobId: number, step: FunnelStage, event: FunnelEvent, device: Device): void {
    this.countAll(jobId, [{ step, event }], device);
  }

  /** Several events of one request (a beacon), counted under one day. */
  countAll(jobId: number, events: readonly { step: FunnelStage; event: FunnelEvent }[], device: Device): void {
    const day = utcDay(this.now());
    for (const { step, event } of events) this.counter.add({ jobId, day, step, event, device, count: 1 });
  }

  /**
   * A page served or an application accepted, counted under the device class of the request's
   * User-Agent; nothing when the request says DNT: 1 or Sec-GPC: 1.
   */
  countRequest(jobId: number, stage: FunnelRequestStage, headers: IncomingHttpHeaders): void {
    const device = funnelDevice(headers);
    if (device) this.count(jobId, stage, 'reached', device);
  }

  flush(): Promise<void> {
    return this.counter.flush();
  }
}

interface FunnelDeps {
  db: Db;
  cache: ReadCache;
  funnel: FunnelCounts;
  now: () => Date;
}

/** A wizard beacon: each event counted for a job applicants can see (an unknown or removed one is a 404). */
export async function recordBeacon(deps: FunnelDeps, publicId: string, beacon: FunnelBeacon, device: Device): Promise<void> {
  const { job, availability } = await cachedPublicJob(deps, publicId, false);
  if (!job || availability === 'not_found') throw new NotFound('Not found.');
  deps.funnel.countAll(job.id, beacon.events, device);
}

/**
 * Each line with what was lost since the line before it. A line may count more than the one
 * before it (a visitor counted on a step but not on the one before, counts from before the wizard
 * counted its own submissions apart): that is no loss, so the drop is never below 0.
 */
function withDrops(lines: { key: string; label: string; count: number }[]): FunnelLine[] {
  return lines.map((line, i) => {
    if (i === 0) return { ...line, drop: null, drop_percent: null };
    const before = lines[i - 1].count;
    const drop = Math.max(0, before - line.count);
    return { ...line, drop, drop_percent: before > 0 ? Math.round((drop / before) * 1000) / 10 : null };
  });
}

function figures(sums: FunnelSum[], steps: readonly WizardStep[]): FunnelFigures {
  const total = (step: string, event: FunnelEvent) =>
    sums.filter((s) => s.step === step && s.event === event).reduce((n, s) => n + s.count, 0);
  const views = total('view', 'reached');
  const applyClicks = total('apply', 'reached');
  const submitted = total('submitted', 'reached');
  const submittedDirect = total('submitted_direct', 'reached');
  const stepFigures = steps.map((step) => ({
    step,
    label: WIZARD_STEP_LABELS[step],
    reached: total(step, 'reached'),
    completed: total(step, 'completed'),
  }));
  const lines = withDrops([
    { key: 'views', label: 'Job page views', count: views },
    { key: 'apply_clicks', label: 'Apply clicks', count: applyClicks },
    ...stepFigures.flatMap((s) => [
      { key: `${s.step}.reached`, label: `${s.label}: reached`, count: s.reached },
      { key: `${s.step}.completed`, label: `${s.label}: completed`, count: s.completed },
    ]),
    { key: 'submitted', label: 'Submitted', count: submitted },
  ]);
  return { views, apply_clicks: applyClicks, steps: stepFigures, submitted, submitted_direct: submittedDirect, lines };
}

/**
 * A job's funnel over the last `days` UTC days (today included), overall and per device. The
 * Questions step is listed when the job has questions now or had beacons for it in the period.
 */
export async function loadJobFunnel(deps: { db: Db; now: () => Date }, jobId: number, days: number): Promise<JobFunnel> {
  const job = await requireJob(deps.db, jobId);
  const today = deps.now();
  const to = utcDay(today);
  const from = utcDay(new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - (days - 1))));
  const sums = await funnelSums(deps.db, job.id, from, to);
  const steps = WIZARD_STEPS.filter((s) => s !== 'questions' || job.questions.length > 0 || sums.some((x) => x.step === 'questions'));
  return {
    job_id: job.id,
    days,
    from,
    to,
    overall: figures(sums, steps),
    devices: Object.fromEntries(
      DEVICES.map((d) => [
        d,
        figures(
          sums.filter((s) => s.device === d),
          steps,
        ),
      ]),
    ) as Record<Device, FunnelFigures>,
  };
}
