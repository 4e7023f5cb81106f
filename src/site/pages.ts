/** Home redirect, legal pages, sitemap and robots.txt. */
import { Router, type Response } from 'express';
import type { AppContext } from '../context.js';
import { keptPageKey, listJobsForSitemap, publicPageVersion } from '../jobs/index.js';
import { freshPage, sendFreshPage } from '../http/sent-page.js';
import { renderPage } from '../render/page.js';

const LEGAL_EFFECTIVE_DATE = '1 October 2025';

function xmlEscape(s: string): string {
  return s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);
}

export function sitePages(ctx: AppContext): Router {
  const router = Router();
  const { config } = ctx;
  /** The company as the site settings name it (issue 35: brandLocals), else COMPANY_NAME. */
  const company = (res: Response): string => (res.locals.company as { name: string } | undefined)?.name ?? config.company.name;

  router.get('/', (_req, res) => res.redirect(302, '/careers'));

  router.get('/privacy', (req, res) =>
    renderPage(
      req,
      res,
      'pages/public/privacy',
      {
        title: `Privacy Policy — ${company(res)} Careers`,
        description: `How ${company(res)} collects, uses and protects the personal data of job applicants.`,
        canonicalPath: '/privacy',
      },
      { effectiveDate: LEGAL_EFFECTIVE_DATE },
    ),
  );

  router.get('/terms', (req, res) =>
    renderPage(
      req,
      res,
      'pages/public/terms',
      {
        title: `Terms of Use — ${company(res)} Careers`,
        description: `The terms that apply when you use the ${company(res)} careers site and apply for a job.`,
        canonicalPath: '/terms',
      },
      { effectiveDate: LEGAL_EFFECTIVE_DATE },
    ),
  );

  router.get('/robots.txt', (_req, res) => {
    res
      .type('text/plain')
      .send(
        [
          'User-agent: *',
          'Disallow: /hr',
          'Disallow: /hrviewlogin',
          'Disallow: /api/',
          `Sitemap: ${config.publicBaseUrl}/sitemap.xml`,
          '',
        ].join('\n'),
      );
  });

  // Kept like the job pages (cleared with the job data, answered before Express), since crawlers ask often.
  router.get('/sitemap.xml', async (req, res) => {
    const version = await publicPageVersion(ctx);
    const sitemap = await freshPage(ctx.cache, 'public-jobs:sitemap', () => sitemapXml(), 'application/xml; charset=utf-8');
    await sendFreshPage(req, res, ctx.cache, keptPageKey(req.originalUrl), sitemap, undefined, version);
  });

  async function sitemapXml(): Promise<string> {
    const jobs = await listJobsForSitemap(ctx.db);
    const urls = [
      { loc: `${config.publicBaseUrl}/careers`, lastmod: null as string | null },
      ...jobs.map((j) => ({
        loc: `${config.publicBaseUrl}/careers/${encodeURIComponent(j.public_id)}`,
        lastmod: j.updated_at.toISOString().slice(0, 10),
      })),
      { loc: `${config.publicBaseUrl}/privacy`, lastmod: null },
      { loc: `${config.publicBaseUrl}/terms`, lastmod: null },
    ];
    const body = urls
      .map((u) => `  <url><loc>${xmlEscape(u.loc)}</loc>${u.lastmod ? `<lastmod>${u.lastmod}</lastmod>` : ''}</url>`)
      .join('\n');
    return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</urlset>\n`;
  }

  return router;
}
