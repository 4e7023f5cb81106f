/**
 * The brand on every page, and the Site settings page (/hr/settings/site, admins only: app.ts
 * guards it) with its island.
 * `brandLocals` gives each rendered page `brand` (types.ts `Brand`) and `company` with the
 * configured name, so headers, footers, titles and the embed say what admins set.
 */
import { Router, type RequestHandler, type Response } from 'express';
import type { AppContext } from '../context.js';
import { isDatabaseUnavailable, logDatabaseUnavailable } from '../db/errors.js';
import { renderPage } from '../render/page.js';
import { BRANDING_LIMITS } from './schema.js';
import { brandOf, siteBrand, siteSettings } from './service.js';
import type { Brand } from './types.js';

/** Paths that never render a page with the brand: the JSON API and the brand's own assets. */
const NO_PAGE = /^\/(?:api|brand)\//;

function setBrand(ctx: AppContext, res: Response, brand: Brand): void {
  res.locals.brand = brand;
  res.locals.company = { ...ctx.config.company, name: brand.companyName };
}

/**
 * The brand read again, after the public pages' version a kept page is made with
 * (PUBLIC_CACHE_SECONDS=0): a save committed between brandLocals' read and that version's read
 * would otherwise be kept under the new version with the old brand.
 */
export async function rereadBrand(ctx: AppContext, res: Response): Promise<void> {
  setBrand(ctx, res, await siteBrand(ctx));
}

/** How long a page waits for the site settings before it shows the defaults (a database that hangs must not double a page's wait). */
const BRAND_WAIT_MS = 1000;

export function brandLocals(ctx: AppContext): RequestHandler {
  const fallback = brandOf(ctx.config, null);
  return (req, res, next) => {
    if (NO_PAGE.test(req.path)) return next();
    let settled = false;
    const showDefaults = () => {
      if (settled) return;
      settled = true;
      res.locals.brand = fallback;
      next();
    };
    const slow = setTimeout(showDefaults, BRAND_WAIT_MS);
    siteBrand(ctx).then(
      (brand) => {
        clearTimeout(slow);
        if (settled) return;
        settled = true;
        setBrand(ctx, res, brand);
        next();
      },
      (err: Error) => {
        clearTimeout(slow);
        // The database did not answer: the page (often the "unavailable" page) shows the defaults,
        // and the failure goes to the database's own throttled log (one line a second at most).
        if (isDatabaseUnavailable(err)) logDatabaseUnavailable(`${req.method} (the site settings of a page)`, err);
        else ctx.log.warn({ err }, 'site settings could not be read; the defaults are shown');
        showDefaults();
      },
    );
  };
}

export function brandingPages(ctx: AppContext): Router {
  const router = Router();
  router.get('/hr/settings/site', async (req, res) => {
    renderPage(
      req,
      res,
      'pages/hr/site-settings',
      { title: 'Site settings', noindex: true },
      {
        props: { settings: await siteSettings(ctx), limits: BRANDING_LIMITS },
      },
    );
  });
  return router;
}
