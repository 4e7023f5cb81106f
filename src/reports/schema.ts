/**
 * The Reports page's query (issue 31): a job or all jobs, and a period of whole UTC days. One
 * schema for the API, the export, the page and the island; Node-free. `today` ('YYYY-MM-DD', UTC)
 * fills what is left out: to = today, from = 89 days before `to` (the last 90 days).
 */
import * as z from 'zod/mini';
import { isRowId } from '../shared/input-rules.js';

export const REPORT_MESSAGES = {
  job: 'Select a job from the list, or all jobs.',
  jobNotFound: 'Job not found.',
  date: 'Enter a date as YYYY-MM-DD (from 2000-01-01 to 2099-12-31).',
  order: 'The start date must be on or before the end date.',
  range: 'The period can be at most 3660 days long.',
  forbidden: 'Reports are for admins and recruiters.',
} as const;

/** Longest period, in days (about ten years). */
const REPORT_MAX_DAYS = 3660;
/** Days in the default period, today included. */
const REPORT_DEFAULT_DAYS = 90;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Whether `s` is a real calendar day 'YYYY-MM-DD' from 2000 to 2099. */
function isDay(s: string): boolean {
  if (!DAY.test(s)) return false;
  const [y, m, d] = s.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d));
  return y >= 2000 && y <= 2099 && t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/** `day` moved by `n` days. */
export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both included. */
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** Text in, trimmed; anything else (a list from a repeated parameter, an object) is not text. */
const param = (message: string) =>
  z.pipe(
    z.transform((v: unknown) => (v === undefined || v === null ? '' : v)),
    z.string({ error: message }).check(z.overwrite((s) => s.trim())),
  );

const dayParam = () => param(REPORT_MESSAGES.date).check(z.refine((s) => s === '' || isDay(s), REPORT_MESSAGES.date));

export interface ReportQuery {
  /** null: all jobs. */
  job_id: number | null;
  from: string;
  to: string;
}

/** `?job_id=&from=&to=` (job_id blank or 'all': every job). */
export function reportQuerySchema(today: string) {
  return z.pipe(
    z.object({
      job_id: param(REPORT_MESSAGES.job).check(z.refine((s) => s === '' || s === 'all' || isRowId(s), REPORT_MESSAGES.job)),
      from: dayParam(),
      to: dayParam(),
    }),
    z.transform((v, ctx): ReportQuery => {
      const to = v.to || (v.from && v.from > today ? v.from : today);
      const from = v.from || addDays(to, -(REPORT_DEFAULT_DAYS - 1));
      if (from > to) ctx.issues.push({ code: 'custom', input: v, path: ['from'], message: REPORT_MESSAGES.order });
      else if (daysBetween(from, to) > REPORT_MAX_DAYS)
        ctx.issues.push({ code: 'custom', input: v, path: ['from'], message: REPORT_MESSAGES.range });
      return { job_id: v.job_id === '' || v.job_id === 'all' ? null : Number(v.job_id), from, to };
    }),
  );
}

/** The query's names, in the order its errors are listed. */
export const REPORT_QUERY_NAMES = ['job_id', 'from', 'to'] as const;
