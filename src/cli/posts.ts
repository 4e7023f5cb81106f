/**
 * careers-admin posts list | retry, and careers-admin cron: the outbound posts (job webhooks and
 * email) by hand. `retry` makes failed posts due and delivers what is due right away; `cron` runs
 * the delivery worker and the POSTS_SWEEP_CRON sweep without HTTP, for hosts whose web processes
 * run with POSTS_WORKER=off.
 */
import type { Command } from 'commander';
import type { Db } from '../db/knex.js';
import { postIdSchema, postStatusSchema, sinceSchema } from '../posts/schema.js';
import { jobIdFor, jobOption } from './jobs.js';
import { printable, table } from './print.js';
import { CliError, cliOption, withDb } from './context.js';

async function requireSchema(db: Db): Promise<void> {
  const { hasSchema } = await import('../db/migrations.js');
  if (!(await hasSchema(db, 'post_attempts'))) throw new CliError('The database is not up to date: run "careers-admin migrate" first.');
}

const when = (iso: string | null) => (iso ? iso.slice(0, 19).replace('T', ' ') : '-');
const posts = (n: number) => (n === 1 ? '1 post' : `${n} posts`);

export function registerPosts(program: Command): void {
  const group = program.command('posts').description('outbound job webhook posts');

  group
    .command('list')
    .description('list posts, newest first')
    .option('--status <status>', 'SUCCESS, FAILED or PENDING')
    .option('--job <id>', 'only posts of this job (its numeric id or public id)')
    .option('--limit <n>', 'at most this many', '50')
    .action(async (opts: { status?: string; job?: string; limit: string }) => {
      const parsed = opts.status === undefined ? undefined : postStatusSchema.safeParse(opts.status);
      if (parsed && !parsed.success) throw new CliError('--status must be SUCCESS, FAILED or PENDING', 2);
      const status = parsed?.data;
      const job = jobOption(opts.job);
      if (!/^\d{1,5}$/.test(opts.limit) || Number(opts.limit) < 1) throw new CliError('--limit must be a whole number from 1 to 99999', 2);
      await withDb(async (db) => {
        await requireSchema(db);
        const { cliPostList } = await import('../posts/index.js');
        const rows = await cliPostList(db, { status, jobId: await jobIdFor(db, job), limit: Number(opts.limit) });
        if (!rows.length) {
          console.log('No posts.');
          return;
        }
        console.log(
          table([
            ['ID', 'STATUS', 'CODE', 'ATTEMPTS', 'JOB', 'CREATED (UTC)', 'NEXT ATTEMPT (UTC)', 'ERROR'],
            ...rows.map((p) => [
              String(p.id),
              p.status,
              String(p.status_code ?? '-'),
              String(p.attempts),
              printable(p.job_public_id),
              when(p.created_at),
              when(p.next_attempt_at),
              printable((p.error_message ?? '').slice(0, 80)),
            ]),
          ]),
        );
      });
    });

  group
    .command('retry')
    .description('make failed posts due now and deliver what is due')
    .option('--id <n>', 'this post')
    .option('--all-failed', 'every failed post')
    .option('--since <date>', 'with --all-failed: only posts created since this date (YYYY-MM-DD or ISO date and time)')
    .option('--dry-run', 'only say which posts would be retried')
    .action(async (opts: { id?: string; allFailed?: boolean; since?: string; dryRun?: boolean }) => {
      const id = cliOption(postIdSchema, '--id', opts.id);
      const since = cliOption(sinceSchema, '--since', opts.since);
      if ((id === undefined) === !opts.allFailed) throw new CliError('Give either --id N or --all-failed.', 2);
      if (since && !opts.allFailed) throw new CliError('--since goes with --all-failed.', 2);
      await withDb(async (db, config) => {
        await requireSchema(db);
        const { cliPostList, createDelivery, retryPosts } = await import('../posts/index.js');
        const now = () => new Date();
        const ids = await retryPosts({ db, now }, { id, allFailed: opts.allFailed, since, dryRun: opts.dryRun });
        if (!ids.length) {
          console.log(id ? `Post ${id} is not a failed post whose job has its webhook on: nothing to retry.` : 'No failed posts to retry.');
          return;
        }
        if (opts.dryRun) {
          console.log(`Would retry ${posts(ids.length)}: ${ids.join(', ')}`);
          return;
        }
        const delivery = createDelivery({ db, config, now, log: (line) => console.warn(printable(line)) });
        try {
          await delivery.worker.runDue();
        } finally {
          await delivery.close();
        }
        const states = await cliPostList(db, { limit: 100_000 }).then((rows) => rows.filter((r) => ids.includes(r.id)));
        const ok = states.filter((r) => r.status === 'SUCCESS').length;
        console.log(`Retried ${posts(ids.length)}: ${ok} delivered, ${ids.length - ok} failed.`);
      });
    });

  program
    .command('cron')
    .description('deliver posts and run the POSTS_SWEEP_CRON sweep, without HTTP, until stopped')
    .action(async () => {
      await withDb(async (db, config) => {
        await requireSchema(db);
        const [
          { startDelivery },
          { exitAfter, onStopSignal },
          { createStorage },
          { scheduleUploadSweeps },
          { processLog },
          { remindOverdueScorecards },
          { remindUpcomingInterviews },
          { scheduleAlerts },
          { ServerKey },
          { expireOffers },
        ] = await Promise.all([
          import('../posts/index.js'),
          import('../ops/index.js'),
          import('../storage/create.js'),
          import('../storage/sweep.js'),
          import('../log/logger.js'),
          import('../scorecards/index.js'),
          import('../interviews/index.js'),
          import('../alerts/index.js'),
          import('../db/server-key.js'),
          import('../offers/index.js'),
        ]);
        const now = () => new Date();
        const onSweep = () =>
          remindOverdueScorecards({ db, config, now })
            .then(() => remindUpcomingInterviews({ db, config, now, log: processLog() }))
            .then(() => expireOffers({ db, now }))
            .then(() => undefined);
        const running = startDelivery({ db, config, now, log: (line) => console.warn(printable(line)), onSweep }, null);
        const uploadSweeps = scheduleUploadSweeps(db, createStorage(config), processLog(), { log: (line) => console.log(printable(line)) });
        // The job alert digests (issue 35): queued here, sent by the delivery worker's next sweep.
        const alerts = scheduleAlerts(
          {
            db,
            config,
            now,
            serverKey: new ServerKey(db),
            outbox: { notify: () => running.delivery.worker.wake(), subscribe: () => () => undefined },
          },
          (line) => console.warn(printable(line)),
        );
        console.log(
          `Delivering posts (sweep: ${config.postsSweepCron ?? 'off'}), job alert digests (${config.alertsCron ?? 'off'}) and sweeping orphaned uploads daily. Stop with Ctrl-C.`,
        );
        const keepAlive = setInterval(() => undefined, 1 << 30);
        // A second signal exits at once (130 for SIGINT, 143 for SIGTERM).
        const signal = await new Promise<string>((resolve) => onStopSignal(processLog(), resolve));
        clearInterval(keepAlive);
        const seconds = config.shutdownTimeoutSeconds;
        console.log(`${signal}: stopping (waiting up to ${seconds} s for posts being sent; send it again to exit now)`);
        // A send cut off here is not lost: its post stays claimed until its lease ends, then it is sent again.
        exitAfter(
          processLog(),
          seconds * 1000,
          `SHUTDOWN_TIMEOUT_SECONDS (${seconds} s) reached with posts still being sent: exiting (they are sent again once their claim ends)`,
        );
        await Promise.all([running.stop(), uploadSweeps.stop(), alerts?.stop()]);
      });
    });
}
