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

export function pageResponse<T>(req: Request, baseUrl: string, paging: Paging, count: number, results: T[]) {
  const lastPage = Math.max(1, Math.ceil(count / paging.pageSize));
  if (paging.page > lastPage) throw new NotFound('Invalid page.');
  const link = (page: number) => {
    const url = new URL(req.originalUrl, baseUrl);
    if (page === 1) url.searchParams.delete('page');
    else url.searchParams.set('page', String(page));
    return url.toString();
  };
  return {
    count,
    next: paging.page < lastPage ? link(paging.page + 1) : null,
    previous: paging.page > 1 ? link(paging.page - 1) : null,
    results,
  };
}
