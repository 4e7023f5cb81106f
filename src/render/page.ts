/**
 * Page rendering: the page view renders first, then the layout wraps it with head, header and
 * footer. Views call `island(name, props)` to mount a React island; the layout then loads only
 * the bundles those islands need.
 */
import type { Request, Response } from 'express';
import type { AssetManifest } from './assets.js';
import { islandMarkup } from './islands.js';

export interface PageMeta {
  title: string;
  description?: string;
  canonicalPath?: string;
  ogType?: string;
  jsonLd?: unknown;
  noindex?: boolean;
  status?: number;
}

export function hasSessionCookie(req: Request): boolean {
  return /(?:^|;\s*)jwt=[^;]+/.test(req.headers.cookie ?? '');
}

export function renderPage(req: Request, res: Response, view: string, meta: PageMeta, locals: Record<string, unknown> = {}): void {
  const manifest = req.app.locals.assets as AssetManifest;
  const islands: string[] = [];
  const island = (name: string, props: unknown, fallbackHtml = '') => {
    if (!manifest[name]) throw new Error(`Unknown island "${name}": not in the asset manifest`);
    if (!islands.includes(name)) islands.push(name);
    return islandMarkup(name, props, fallbackHtml);
  };
  // The HR area is /hr and below; /hrviewlogin (no session yet) keeps the public header.
  const isHr = req.path === '/hr' || req.path.startsWith('/hr/');
  const all = { ...locals, meta, island, isHr, hasSession: hasSessionCookie(req), currentPath: req.path };
  res.render(view, all, (err: Error | null, body: string) => {
    if (err) return req.next!(err);
    const scripts = ['site', ...islands].map((n) => manifest[n]).filter(Boolean);
    res.status(meta.status ?? 200);
    res.render('layouts/main', { ...all, body, scripts }, (layoutErr: Error | null, html: string) => {
      if (layoutErr) return req.next!(layoutErr);
      res.type('html').send(html);
    });
  });
}
