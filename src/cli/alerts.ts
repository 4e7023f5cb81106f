/**
 * careers-admin alerts send: the job alert digests due now (issue 35), queued in the email outbox
 * at once rather than at the next ALERTS_CRON; the delivery worker (the server's, or
 * `careers-admin cron`) sends them. Alerts already sent today (daily) or this week (weekly) are
 * not due, so running it twice sends nothing twice. Also removes alerts past their retention.
 */
import type { Command } from 'commander';
import { CliError, withDb } from './context.js';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function registerAlerts(program: Command): void {
  const group = program.command('alerts').description('job alerts of the careers site');

  group
    .command('send')
    .description('queue the job alert digests due now (new matching jobs), as ALERTS_CRON does')
    .action(async () => {
      await withDb(async (db, config) => {
        const { hasSchema } = await import('../db/migrations.js');
        if (!(await hasSchema(db, 'job_alerts'))) throw new CliError('The database is not up to date: run "careers-admin migrate" first.');
        if (!config.mail.smtpUrl) throw new CliError('Job alerts need email: set SMTP_URL.');
        const [{ sendDigests }, { ServerKey }] = await Promise.all([import('../alerts/index.js'), import('../db/server-key.js')]);
        const run = await sendDigests({ db, config, now: () => new Date(), serverKey: new ServerKey(db) });
        console.log(
          `${plural(run.checked, 'alert was', 'alerts were')} due: queued ${plural(run.queued, 'digest', 'digests')} with ${plural(run.jobs, 'job', 'jobs')} (alerts with nothing new get none).`,
        );
        if (run.purged) console.log(`Removed ${plural(run.purged, 'alert', 'alerts')} past retention (never confirmed, or expired).`);
      });
    });
}
