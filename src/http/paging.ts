/** `page` / `page_size` paging (default 25, max 100) answered as {count, next, previous, results}. */
import type { Request } from 'express';
import { NotFound, ValidationError } from './errors.js';

export interface Paging {
  page: number;
  pageSize: number;
}

export function queryString(req: Request, name: string): string {
  const v = (req.query as Record<string, unknown>)[name];
  const first = Array.isArray(v) ? v[0] : v;
  return typeof first === 'string' ? first.trim() : '';
}

/**
 * `?page=` of an HTML list page, read leniently: anything but a positive number is the first page;
 * a number of more than 9 digits is a 404 (no list is that long).
 */
export function htmlPageNumber(req: Request): number {
  const raw = queryString(req, 'page');
  if (!/^\d+$/.test(raw) || Number(raw) < 1) return 1;
  if (raw.length > 9) throw new NotFound('Page not found');
  return Number(raw);
}

/** What views/partials/pager.ejs shows. */
export interface Pager {
  page: number;
  pages: number;
  prevLink: string | null;
  nextLink: string | null;
}

/**
 * The pager of an HTML list page; a page past the last is a 404 (an empty list at every number
 * would be endless thin pages). `link(n)` is the URL of page n.
 */
export function htmlPager(page: number, count: number, pageSize: number, link: (n: number) => string): Pager {
  const pages = Math.max(1, Math.ceil(count / pageSize));
  if (page > pages) throw new NotFound('Page not found');
  return { page, pages, prevLink: page > 1 ? link(page - 1) : null, nextLink: page < pages ? link(page + 1) : null };
}

export function parsePaging(req: Request, defaults = { pageSize: 25, maxPageSize: 100 }): Paging {
  const rawPage = queryString(req, 'page');
  const rawSize = queryString(req, 'page_size');
  const errors: Record<string, string[]> = {};
  let page = 1;
  let pageSize = defaults.pageSize;
  if (rawPage) {
    if (/^\d{1,9}$/.test(rawPage) && Number(rawPage) >= 1) page = Number(rawPage);
    else errors.page = ['A valid page number is required.'];
  }
  if (rawSize) {
    if (/^\d{1,9}$/.test(rawSize) && Number(rawSize) >= 1) pageSize = Math.min(Number(rawSize), defaults.maxPageSize);
    else errors.page_size = ['A valid page size is required.'];
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return { page, pageSize };
}

/**
 * The link to another page of this list: PUBLIC_BASE_URL + the path the route matched + the
 * request's own query with `page` replaced. Only the path and query of the request are used, so
 * an absolute-form request target (`GET http://evil.example/api/jobs/ HTTP/1.1`) or a Host header
 * can never point the links at another origin.
 */
export function pageLink(req: Request, baseUrl: string, page: number): string {
  const raw = req.originalUrl;
  const q = raw.indexOf('?');
  const params = new URLSearchParams(q === -1 ? '' : raw.slice(q + 1));
  if (page === 1) params.delete('page');
  else params.set('page', String(page));
  const qs = params.toString();
  return `${baseUrl}${req.baseUrl}${req.path}${qs ? `?${qs}` : ''}`;
}

export function pageResponse<T>(req: Request, baseUrl: string, paging: Paging, count: number, results: T[]) {
  const lastPage = Math.max(1, Math.ceil(count / paging.pageSize));
  if (paging.page > lastPage) throw new NotFound('Invalid page.');
  return {
    count,
    next: paging.page < lastPage ? pageLink(req, baseUrl, paging.page + 1) : null,
    previous: paging.page > 1 ? pageLink(req, baseUrl, paging.page - 1) : null,
    results,
  };
}
