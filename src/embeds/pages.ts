/**
 * Embeds (issue 21): `/embed.js`, a script a site in EMBED_ORIGINS puts on its page, frames
 * `/embed/jobs` (a light job list taking the list's filters) where the script stands, forwards the
 * host page's campaign parameters and sizes the frame to its content from the frame's
 * `postMessage`. Every other response forbids framing (`frame-ancestors 'none'`) and keeps its
 * resources same-origin; these two get their own headers: the list may be framed by the listed
 * origins only, and the script may be loaded from any page (`Cross-Origin-Resource-Policy:
 * cross-origin`; it only frames the list, which the CSP guards). With no origin listed, both are 404.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { Router, type Response } from 'express';
import type { AppContext } from '../context.js';
import { NotFound } from '../http/errors.js';
import { validate, validateQuery } from '../http/validate.js';
import { renderPage } from '../render/page.js';
import { FILTER_NAMES, jobFiltersSchema, listPublicJobs } from '../jobs/index.js';
import { CAMPAIGN_NAMES, campaignSchema } from './schema.js';

/** Jobs the framed list shows (the newest); "All jobs" links to the rest. */
const EMBED_PAGE_SIZE = 50;

const NOT_FOUND = 'Not found.';

function embedHeaders(res: Response, origins: string[]): void {
  const csp = String(res.getHeader('Content-Security-Policy') ?? '');
  res.setHeader('Content-Security-Policy', csp.replace(/frame-ancestors [^;]*/, `frame-ancestors ${origins.join(' ')}`));
  res.removeHeader('X-Frame-Options');
}

export function embedPages(ctx: AppContext): Router {
  const router = Router();
  const { config } = ctx;
  const origins = config.embedOrigins;
  const scriptFile = path.join(config.rootDir, 'public', 'embed', 'embed.js');
  let script: Promise<Buffer> | null = null;

  router.get('/embed.js', async (_req, res) => {
    if (!origins.length) throw new NotFound(NOT_FOUND);
    script ??= fs.readFile(scriptFile).catch((err: unknown) => {
      script = null;
      throw err;
    });
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.type('text/javascript; charset=utf-8').send(await script);
  });

  router.get('/embed/jobs', async (req, res) => {
    if (!origins.length) throw new NotFound(NOT_FOUND);
    const filters = validateQuery(req, jobFiltersSchema(true), FILTER_NAMES);
    const campaign = validate(
      campaignSchema,
      Object.fromEntries(CAMPAIGN_NAMES.map((n) => [n, typeof req.query[n] === 'string' ? req.query[n] : ''])),
    );
    const { count, jobs } = await listPublicJobs(ctx, filters, 1, EMBED_PAGE_SIZE);
    const linkQuery = new URLSearchParams({
      utm_source: campaign.utm_source || 'embed',
      utm_medium: campaign.utm_medium || 'embed',
      ...(campaign.utm_campaign ? { utm_campaign: campaign.utm_campaign } : {}),
    }).toString();
    const listQuery = new URLSearchParams(Object.entries(filters).filter(([, v]) => v)).toString();
    embedHeaders(res, origins);
    renderPage(
      req,
      res,
      'pages/public/embed-jobs',
      {
        title: `Jobs at ${(res.locals.company as { name: string } | undefined)?.name ?? config.company.name}`,
        noindex: true,
        layout: 'embed',
      },
      {
        jobs,
        count,
        origins,
        jobHref: (publicId: string) => `${config.publicBaseUrl}/careers/${encodeURIComponent(publicId)}?${linkQuery}`,
        allHref: `${config.publicBaseUrl}/careers?${listQuery ? `${listQuery}&` : ''}${linkQuery}`,
      },
    );
  });

  return router;
}
