/** Starts the HTTP server: configuration, migrations, demo data in development, graceful shutdown (SHUTDOWN_TIMEOUT_SECONDS). */
import fs from 'node:fs';
import v8 from 'node:v8';
import type { Server } from 'node:http';
import { ConfigError, loadConfig, type Config, type TrustProxy } from '../config/index.js';
import { createSite } from './app.js';
import { signInUrl, users } from './users/index.js';
import { listenHttp } from './http/listen.js';
import { closeContext, configuredLogger, type AppContext } from './context.js';
import { createAppContext } from './wiring.js';
import { migrateLatest } from './db/migrations.js';
import { countJobs, seedDemoJobs } from './jobs/index.js';
import { startDelivery } from './posts/index.js';
import { exitAfter, onStopSignal } from './ops/index.js';
import { isSweepable } from './storage/storage.js';
import { checkStorage, describeStorage } from './storage/create.js';
import { scheduleUploadSweeps } from './storage/sweep.js';
import { type Logger, processLog } from './log/logger.js';
import { remindOverdueScorecards } from './scorecards/index.js';
import { expireOffers } from './offers/index.js';
import { remindUpcomingInterviews } from './interviews/index.js';
import { scheduleAlerts } from './alerts/index.js';

/** Where the data lives, for messages: the MySQL URL without its credentials, or the SQLite folder. */
function describeDatabase(config: Config): string {
  return config.databaseUrl
    ? `DATABASE_URL=${config.databaseUrl.replace(/\/\/[^@/]*@/, '//***@')}`
    : `the SQLite file in DATA_DIR=${config.dataDir}`;
}

/** The start-up line saying whose address the rate limits see (TRUST_PROXY); null when off. */
export function describeTrustProxy(trustProxy: TrustProxy): string | null {
  if (trustProxy === false) return null;
  if (trustProxy === 1) {
    return 'TRUST_PROXY: 1 hop (what `true` means here): the client address is the one the proxy in front of this server saw. With a CDN or another proxy in front of that one, set TRUST_PROXY to the number of proxies (2) or to their addresses/CIDRs.';
  }
  if (typeof trustProxy === 'number') {
    return `TRUST_PROXY: ${trustProxy} hops: the client address is the one the farthest of ${trustProxy} proxies saw; clients must not reach this server without passing all of them.`;
  }
  return `TRUST_PROXY: proxies at ${trustProxy.join(', ')}: the client address is the right-most X-Forwarded-For entry that is not one of them.`;
}

function openContext(config: Config, log: Logger): AppContext {
  try {
    fs.mkdirSync(config.dataDir, { recursive: true });
    fs.accessSync(config.dataDir, fs.constants.W_OK);
  } catch (err) {
    throw new Error(`DATA_DIR=${config.dataDir} must be a folder this process can write to (${(err as Error).message})`);
  }
  return createAppContext(config, { log });
}

export async function startServer(
  config: Config,
  log: Logger = configuredLogger(config),
): Promise<{ ctx: AppContext; server: Server; close: () => Promise<void> }> {
  const ctx = openContext(config, log);
  let applied: string[];
  try {
    applied = (await migrateLatest(ctx.db)).names;
  } catch (err) {
    await ctx.db.destroy().catch(() => undefined);
    throw new Error(`Cannot open the database (${describeDatabase(config)}): ${(err as Error).message}`);
  }
  // A bucket that does not answer (wrong name, endpoint or key) stops the start, not the first upload.
  try {
    await checkStorage(ctx.storage);
  } catch (err) {
    await ctx.db.destroy().catch(() => undefined);
    throw err;
  }
  if (applied.length) log.info(`Applied migrations: ${applied.join(', ')}`);
  if (config.env === 'development' && (await countJobs(ctx.db)) === 0) {
    const n = await seedDemoJobs(ctx.db);
    log.info(`Empty database: added ${n} demo jobs.`);
  }
  if ((await users.countUsers(ctx.db)) === 0) {
    log.warn('No HR user yet. Create one with: npx careers-admin user create --username <name>');
  }
  const server = await listenHttp(createSite(ctx).listener, { port: config.port });
  log.info(
    `Careers site on ${config.publicBaseUrl} (listening on port ${config.port}, ${config.databaseUrl ? 'MySQL' : 'SQLite in ' + config.dataDir})`,
  );
  log.info(`HR sign-in: ${signInUrl(config)}`);
  if (config.storage.kind === 's3') log.info(`Uploads in ${describeStorage(ctx.storage)}`);
  const proxyNote = describeTrustProxy(config.trustProxy);
  if (proxyNote) log.info(proxyNote);
  // Background work runs where POSTS_WORKER is on (or in `careers-admin cron`), not in every web
  // process: outbound posts and email with the POSTS_SWEEP_CRON sweep, and the upload sweep
  // (files a crash left without a row: now in the background, then daily).
  const delivery = config.postsWorker
    ? startDelivery(
        {
          ...ctx,
          log: (line) => ctx.log.warn(line),
          onSweep: () =>
            remindOverdueScorecards(ctx)
              .then(() => remindUpcomingInterviews(ctx))
              .then(() => expireOffers(ctx))
              .then(() => undefined),
        },
        ctx.outbox,
      )
    : null;
  const uploadSweeps = config.postsWorker && isSweepable(ctx.storage) ? scheduleUploadSweeps(ctx.db, ctx.storage, ctx.log) : null;
  // The job alert digests (issue 35) on ALERTS_CRON, where background work runs; the outbox wakes the worker.
  const alerts = config.postsWorker ? scheduleAlerts(ctx, (line) => ctx.log.warn(line)) : null;
  if (!delivery) log.info('POSTS_WORKER=off: this process sends no posts and sweeps no uploads (run `careers-admin cron` elsewhere).');
  /**
   * The orderly stop: /readyz answers 503 at once, no new connections are taken, and requests,
   * uploads and post deliveries in flight get SHUTDOWN_TIMEOUT_SECONDS; then the connections still
   * open are cut (a cut upload removes its file and never wrote its row), file work in flight
   * settles, and the database closes.
   */
  const close = async () => {
    ctx.readiness.stop();
    const deadline = config.shutdownTimeoutSeconds * 1000;
    await Promise.all([
      closeHttp(server, deadline, ctx.log),
      settleWithin(ctx.log, delivery?.stop(), deadline, 'posts still being sent are left to their claim (sent again when it ends)'),
      uploadSweeps?.stop(),
      alerts?.stop(),
    ]);
    await ctx.storage.idle();
    await closeContext(ctx);
  };
  return { ctx, server, close };
}

/**
 * Stops taking connections and closes each as it goes idle; after `ms`, cuts the ones still busy.
 * (server.close() closes only the connections idle at that moment: a kept-alive one that finishes
 * its request later would otherwise stay open until its keep-alive timeout.)
 */
async function closeHttp(server: Server, ms: number, log: Logger): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  const idle = setInterval(() => server.closeIdleConnections(), 200);
  const cut = setTimeout(() => {
    log.warn(`SHUTDOWN_TIMEOUT_SECONDS (${ms / 1000} s) reached: closing the connections still open`);
    server.closeAllConnections();
  }, ms);
  await closed;
  clearInterval(idle);
  clearTimeout(cut);
}

/** Waits for `work`, but not longer than `ms`; says what is left behind when it takes longer. */
async function settleWithin(log: Logger, work: Promise<void> | undefined, ms: number, leftBehind: string): Promise<void> {
  if (!work) return;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
  });
  const outcome = await Promise.race([work.then(() => 'done' as const), late]);
  clearTimeout(timer);
  if (outcome === 'late') log.warn(`SHUTDOWN_TIMEOUT_SECONDS (${ms / 1000} s) reached: ${leftBehind}`);
}

/** What a stop that hangs past SHUTDOWN_TIMEOUT_SECONDS gets to finish before the process exits with code 1. */
const STOP_GRACE_MS = 5000;

/**
 * V8 lets the old generation grow to up to four times what survived the last full collection
 * while a process allocates fast, as the apply API does (each application's streams, parsers and
 * query builders live across several young-generation collections). Growing it by at most 2.5x
 * kept bench/apply.ts's memory growth well below the default's at the same throughput, while 2x
 * saved a little more memory but cost throughput (figures in bench/README.md).
 * A `--heap-growing-percent` given on the command line wins.
 */
export const HEAP_GROWING_PERCENT = 150;

function tuneHeap(): void {
  if (process.execArgv.some((a) => a.startsWith('--heap-growing-percent') || a.startsWith('--heap_growing_percent'))) return;
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

async function main(): Promise<void> {
  tuneHeap();
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      processLog().error(err.message);
      process.exit(1);
    }
    throw err;
  }
  // The handlers are in place before the server says it listens, so a signal that comes right
  // after that line still closes it cleanly; one that comes during start-up waits for it.
  // A second signal exits at once (130 for SIGINT, 143 for SIGTERM).
  // Made before the context (which is given it), so a signal during start-up is logged by it too.
  const log = configuredLogger(config);
  const started = startServer(config, log);
  onStopSignal(log, (signal) => {
    const seconds = config.shutdownTimeoutSeconds;
    log.info(`${signal}: closing (waiting up to ${seconds} s for requests in flight; send it again to exit now)`);
    exitAfter(
      log,
      seconds * 1000 + STOP_GRACE_MS,
      `Still closing ${STOP_GRACE_MS / 1000} s after SHUTDOWN_TIMEOUT_SECONDS (${seconds} s): exiting`,
    );
    started
      .then(({ close }) => close())
      .then(
        () => process.exit(0),
        (err) => {
          log.error(`Failed to close: ${err instanceof Error ? err.message : String(err)}`);
          process.exit(1);
        },
      );
  });
  await started;
}

const isEntry = process.argv[1] && /(server\.(ts|js))$/.test(process.argv[1]);
if (isEntry) {
  main().catch((err) => {
    processLog().error(`Failed to start: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
