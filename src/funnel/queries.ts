/** Read model of the funnel: one job's counts over a range of days, summed per step, event and device. */
import type { Knex } from 'knex';
import type { Device, FunnelEvent } from './types.js';

export interface FunnelSum {
  step: string;
  event: FunnelEvent;
  device: Device;
  count: number;
}

/** Days `from` to `to` ('YYYY-MM-DD', both included), over the table's key (job_id, day, ...). */
export async function funnelSums(db: Knex, jobId: number, from: string, to: string): Promise<FunnelSum[]> {
  const rows: { step: string; event: FunnelEvent; device: Device; total: unknown }[] = await db('job_funnel_counts')
    .select('step', 'event', 'device')
    .sum({ total: 'count' })
    .where('job_id', jobId)
    .whereBetween('day', [from, to])
    .groupBy('step', 'event', 'device');
  // MySQL answers SUM as a decimal string.
  return rows.map((r) => ({ step: r.step, event: r.event, device: r.device, count: Number(r.total ?? 0) }));
}
