/**
 * Page rendering: the page view renders first, then the layout wraps it with head, header and
 * footer. Views call `island(name, props)` to mount a React island; the layout then loads only
 * the bundles those islands need.
 */
import type { Request, Response } from 'express';
import { tokenCookie } from '../http/credentials.js';
import type { AssetManifest } from './assets.js';
import { islandMarkup } from './islands.js';
import { timeTag } from './formatters.js';

export interface PageMeta {
  title: string;
  description?: string;
  canonicalPath?: string;
  ogType?: string;
  jsonLd?: unknown;
  noindex?: boolean;
  /** The job feeds the page names for feed readers (`<link rel="alternate">`). */
  feeds?: { title: string; href: string; type: string }[];
  /** `embed`: the page alone, framed on another site (no header, footer or site script). */
  layout?: 'embed';
  status?: number;
}

/** This response clears the jwt cookie (a stale one on the login page): it will not exist after. */
function clearsSessionCookie(res: Response): boolean {
  const set = res.getHeader('Set-Cookie');
  const list = Array.isArray(set) ? set : set === undefined ? [] : [String(set)];
  return list.some((c) => /^jwt=;/.test(c));
}

/**
 * Spec 01 and 02: 'Paths beginning /hr use the HR header; other paths use the public header',
 * taken literally, so the login page /hrviewlogin has the HR header too. Express matches paths
 * case-insensitively, and so does this.
 */
function usesHrHeader(path: string): boolean {
  return path.toLowerCase().startsWith('/hr');
}

/** Renders a page (view, then the layout around it) to a string, without sending it. */
export function renderPageHtml(
  req: Request,
  res: Response,
  view: string,
  meta: PageMeta,
  locals: Record<string, unknown> = {},
): Promise<string> {
  const manifest = req.app.locals.assets as AssetManifest;
  const islands: string[] = [];
  const island = (name: string, props: unknown, fallbackHtml = '') => {
    if (!manifest[name]) throw new Error(`Unknown island "${name}": not in the asset manifest`);
    if (!islands.includes(name)) islands.push(name);
    return islandMarkup(name, props, fallbackHtml);
  };
  const isHr = usesHrHeader(req.path);
  // The header's Logout shows only while a jwt cookie exists (and is not being cleared right now).
  const hasSession = !!tokenCookie(req)?.raw && !clearsSessionCookie(res);
  // A header link is marked current only on the page it leads to: an error page (an unknown
  // /hr/applicants/x, a page past the last) is none of them, so it marks none.
  const currentPath = (meta.status ?? 200) < 400 ? req.path : '';
  const all = { ...locals, meta, island, isHr, hasSession, currentPath, time: timeTag };
  return new Promise((resolve, reject) => {
    res.render(view, all, (err: Error | null, body: string) => {
      if (err) return reject(err);
      const embed = meta.layout === 'embed';
      const scripts = (embed ? islands : ['site', ...islands]).map((n) => manifest[n]).filter(Boolean);
      res.render(embed ? 'layouts/embed' : 'layouts/main', { ...all, body, scripts }, (layoutErr: Error | null, html: string) =>
        layoutErr ? reject(layoutErr) : resolve(html),
      );
    });
  });
}

export function renderPage(req: Request, res: Response, view: string, meta: PageMeta, locals: Record<string, unknown> = {}): void {
  renderPageHtml(req, res, view, meta, locals).then(
    (html) =>
      res
        .status(meta.status ?? 200)
        .type('html')
        .send(html),
    req.next!,
  );
}
