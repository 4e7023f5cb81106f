/**
 * Which open jobs an alert's filters match, as the careers list matches its filters: the
 * department whole and the location contained, both in any case; the work mode exactly; and every
 * keyword found in the title (any case, whole words not required: "engineer" finds "Engineering").
 */
import type { AlertFilters } from '../types.js';

export interface OpenJob {
  id: number;
  public_id: string;
  title: string;
  department: string | null;
  location: string;
  work_mode: string;
  created_at: Date;
}

const fold = (s: string) => s.toLocaleLowerCase('en');

/** A matcher for one alert's filters (made once per alert, run over every open job). */
export function matcher(f: AlertFilters): (job: OpenJob) => boolean {
  const department = fold(f.department);
  const location = fold(f.location);
  const words = fold(f.keywords).split(' ').filter(Boolean);
  return (job) =>
    (!department || fold(job.department ?? '') === department) &&
    (!location || fold(job.location).includes(location)) &&
    (!f.work_mode || job.work_mode === f.work_mode) &&
    (!words.length || words.every((w) => fold(job.title).includes(w)));
}

/** The filters in words, for emails and pages: "Engineering · Berlin · Remote · “backend”", or "all jobs". */
export function describeFilters(f: AlertFilters, workModeLabel: (v: string) => string): string {
  const parts = [f.department, f.location, f.work_mode ? workModeLabel(f.work_mode) : '', f.keywords ? `“${f.keywords}”` : ''].filter(
    Boolean,
  );
  return parts.length ? parts.join(' · ') : 'all jobs';
}
