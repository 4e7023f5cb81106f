/**
 * The digests' schedule (ALERTS_CRON, default daily at 08:00): node-cron runs `sendDigests` in a
 * process that does background work (the server with POSTS_WORKER on, or `careers-admin cron`).
 * Two processes on the same schedule send each digest once: a run claims its alerts in the
 * database (service.ts).
 */
import nodeCron from 'node-cron';
import { describeDbError } from '../../db/errors.js';
import type { AppContext } from '../../context.js';
import { sendDigests, type DigestRun } from '../service.js';

export function scheduleAlerts(
  deps: Pick<AppContext, 'db' | 'config' | 'now' | 'serverKey'> & { outbox?: AppContext['outbox'] },
  log: (line: string) => void,
  done?: (run: DigestRun) => void,
): { stop: () => Promise<void> } | null {
  const cron = deps.config.alertsCron;
  if (!cron) return null;
  const task = nodeCron.schedule(
    cron,
    async () => {
      try {
        const run = await sendDigests(deps);
        done?.(run);
      } catch (err) {
        log(`[alerts] the job alert digests failed: ${describeDbError(err)}`);
      }
    },
    { noOverlap: true },
  );
  return {
    async stop() {
      await task.stop();
    },
  };
}
