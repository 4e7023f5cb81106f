/**
 * Builds the Express app from a context, and the server's listener in front of it (`createSite`:
 * kept public pages answered from memory first, src/http/kept-pages.ts); server.ts starts it,
 * tests start it on a free port.
 */
import type { RequestListener } from 'node:http';
import path from 'node:path';
import express, { type Express } from 'express';
import compression from 'compression';
import type { AppContext } from './context.js';
import { errorHandler, lastResortHandler, notFoundHandler } from './http/error-handler.js';
import { requestLog, type TrustProxyFn } from './http/request-log.js';
import { keptPagesFirst } from './http/kept-pages.js';
import { VersionReads, readPublicVersion } from './db/public-version.js';
import { securityHeaders } from './http/security.js';
import { firstTouchFromLinks } from './http/attribution.js';
import { isSentPage } from './http/sent-page.js';
import { drainUnreadBodies } from './http/unread-body.js';
import { loadManifest } from './render/assets.js';
import { safeJson } from './render/islands.js';
import { viewEngine } from './render/views.js';
import { applicantCounts, applicantsRoutes, insertApplicationAudit } from './applicants/index.js';
import { emailsRoutes } from './emails/index.js';
import { notesRoutes } from './notes/index.js';
import { jobStages, listStageNames, pipelineRoutes, rejectionReasons } from './pipeline/index.js';
import { timelineRoutes } from './timeline/index.js';
import { formsRoutes } from './forms/index.js';
import { opsRoutes } from './ops/index.js';
import { jobsRoutes, keptPageKey } from './jobs/index.js';
import { postsRoutes } from './posts/index.js';
import { siteRoutes } from './site/index.js';
import { brandLocals, brandOf, brandingRoutes } from './branding/index.js';
import { alertsLocals, alertsRoutes } from './alerts/index.js';
import { embedRoutes } from './embeds/index.js';
import { sourcesRoutes } from './sources/index.js';
import { reportsRoutes } from './reports/index.js';
import { funnelRoutes } from './funnel/index.js';
import { scorecardsRoutes } from './scorecards/index.js';
import { interviewsRoutes } from './interviews/index.js';
import { accessGate, teamsRoutes } from './teams/index.js';
import { publishingPolicy, publishingRoutes } from './publishing/index.js';
import { peopleRoutes } from './people/index.js';
import { candidatesRoutes } from './candidates/index.js';
import { importsRoutes } from './imports/index.js';
import { poolsRoutes } from './pools/index.js';
import { offersRoutes } from './offers/index.js';
import { ADMIN_API_PATHS, ADMIN_PAGE_PATHS, requireAdmin, requireHrApi, requireHrPage, usersRoutes } from './users/index.js';

/** The Express app alone (every request through it; route listings in tests). */
export function createApp(ctx: AppContext): Express {
  return buildApp(ctx).app;
}

/**
 * The server's request listener: a GET or HEAD for a public page the app kept is answered from
 * memory before the app (src/http/kept-pages.ts), with the app's headers, request log and metrics;
 * everything else goes to the app. `app` is the Express app behind it.
 */
export function createSite(ctx: AppContext): { app: Express; listener: RequestListener } {
  const { app, ops } = buildApp(ctx);
  const versions = new VersionReads(() => readPublicVersion(ctx.db));
  const listener = keptPagesFirst(app, {
    cache: ctx.cache,
    urlKey: keptPageKey,
    log: ctx.log,
    trustProxy: app.get('trust proxy fn') as TrustProxyFn,
    timeAs: ops.timeKept,
    stopping: () => ctx.readiness.isStopping,
    version: () => versions.read(),
  });
  return { app, listener };
}

function buildApp(ctx: AppContext): { app: Express; ops: ReturnType<typeof opsRoutes> } {
  const { config } = ctx;
  const app = express();
  app.disable('x-powered-by');
  // Off, a hop count or proxy addresses (config parses TRUST_PROXY; `true` is one hop there):
  // never Express's own `true`, which takes the left-most X-Forwarded-For entry, the client's.
  app.set('trust proxy', config.trustProxy);
  app.engine('ejs', viewEngine(config.env !== 'development'));
  app.set('view engine', 'ejs');
  app.set('views', path.join(config.rootDir, 'views'));
  app.set('view cache', config.env !== 'development');
  app.locals.assets = loadManifest(config.rootDir);
  app.locals.company = config.company;
  // The defaults; brandLocals (below) gives each page what admins set on /hr/settings/site.
  app.locals.brand = brandOf(config, null);
  app.locals.publicBaseUrl = config.publicBaseUrl;
  Object.defineProperty(app.locals, 'year', { enumerable: true, get: () => new Date().getUTCFullYear() }); // per render (footer)
  app.locals.safeJson = safeJson;
  // The job alert form under the careers list (issue 35): whether alerts are on, and the consent it asks.
  app.locals.jobAlerts = alertsLocals(ctx);

  const ops = opsRoutes(ctx);
  // Every request gets its id and its one log line, whatever answers it, and is timed for /metrics.
  app.use(requestLog(ctx.log));
  app.use(ops.track);
  // The first touch of a visitor arriving through a campaign link: a cookie, never kept with a page.
  // (Kept public pages are answered before the app, createSite; campaign links always come here.)
  app.use(firstTouchFromLinks(ctx.serverKey, config.publicBaseUrl.startsWith('https:')));
  // Next, so every early answer (a refusal before the body is read) still reaches a client that is sending.
  app.use(drainUnreadBodies);
  app.use(securityHeaders(config));
  // The wizard's beacons, the most frequent public call, answer here: with the security headers,
  // without the compression, static files, guards and routers below, none of which they need.
  const funnel = funnelRoutes(ctx);
  app.use(funnel.beacons);
  // Public pages are sent with the compressed bodies kept beside them, never compressed again.
  app.use(compression({ filter: (req, res) => !isSentPage(res) && compression.filter(req, res) }));
  // Probes and metrics, before sessions, rate limits and body parsing: cheap.
  app.use(ops.routes);
  // Static files are mounted on their own paths, so page requests never touch the disk for them.
  // Hashed bundle names change with their content, so browsers may keep them for a year.
  app.use('/assets', express.static(path.join(config.rootDir, 'public', 'assets'), { index: false, immutable: true, maxAge: '365d' }));
  app.get('/favicon.svg', (_req, res) => res.sendFile(path.join(config.rootDir, 'public', 'favicon.svg'), { maxAge: '1d' }));
  app.use(
    '/og',
    express.static(path.join(config.rootDir, 'public', 'og'), { index: false, redirect: false, immutable: true, maxAge: '365d' }),
  ); // Open Graph images: a new picture gets a new file name
  app.use('/api', (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  // The site's branding (issue 35) for every page, the error pages too.
  app.use(brandLocals(ctx));
  // The /api/hr guard (see below) runs before the body parser: a signed-out caller gets 401 even
  // with a malformed or oversized body, and bodies are parsed only for signed-in callers.
  app.use('/api/hr', requireHrApi(ctx));
  // Admin-only areas (users, settings): after the session guards, before any body is read.
  app.use(ADMIN_API_PATHS, requireAdmin);
  // HR bodies may be larger: Remove sends a whole job back, whose stored, sanitised rich texts can be
  // several times what was typed. Only signed-in callers get this far (the guard runs first).
  app.use('/api/hr', express.json({ limit: '16mb' }));
  app.use('/api', express.json({ limit: '1mb' }));
  // Access by role (issue 31, src/teams/access.service.ts): after the body parser, which the bulk
  // routes' checks read; hiring managers and interviewers reach only their jobs and applications.
  app.use('/api/hr', accessGate(ctx, false));

  // The HR area is guarded here, once, before any feature router: every path under /api/hr (known
  // or not) answers 401 and every /hr page redirects to /hrviewlogin without a valid session, so a
  // signed-out visitor learns nothing about which HR routes exist. Routers do not repeat it.
  app.use('/hr', requireHrPage(ctx));
  app.use(ADMIN_PAGE_PATHS, requireAdmin);
  app.use('/hr', accessGate(ctx, true));

  // Feature routes: one line per feature.
  app.use(usersRoutes(ctx));
  app.use(siteRoutes(ctx));
  app.use(brandingRoutes(ctx));
  app.use(alertsRoutes(ctx));
  // Every HR save of a job passes the publishing rules (issue 34): the jobs feature's port.
  app.use(jobsRoutes(ctx, { applicantCounts, policy: publishingPolicy(ctx) }));
  app.use(publishingRoutes(ctx));
  app.use(teamsRoutes(ctx));
  // Before applicants and pipeline: their `/api/hr/applications/:id/` would take `emails` for an application id.
  app.use(emailsRoutes(ctx));
  app.use(scorecardsRoutes(ctx));
  app.use(interviewsRoutes(ctx));
  // Before the applicants' routes: /hr/applicants/duplicates and /erasure-requests are not applications' pages.
  // Merges write their timeline lines as the applicants feature does (people sits below applicants: a port).
  app.use(peopleRoutes(ctx, { timeline: insertApplicationAudit }));
  app.use(candidatesRoutes(ctx));
  app.use(importsRoutes(ctx));
  app.use(poolsRoutes(ctx));
  app.use(offersRoutes(ctx));
  app.use(applicantsRoutes(ctx, { jobStages, listStageNames, rejectionReasons }));
  app.use(pipelineRoutes(ctx));
  app.use(notesRoutes(ctx));
  app.use(timelineRoutes(ctx));
  app.use(postsRoutes(ctx));
  app.use(formsRoutes(ctx));
  app.use(embedRoutes(ctx));
  app.use(sourcesRoutes(ctx));
  app.use(reportsRoutes(ctx));
  app.use(funnel.routes);

  app.use(notFoundHandler);
  app.use(errorHandler(ctx.log));
  app.use(lastResortHandler(ctx.log));
  return { app, ops };
}
