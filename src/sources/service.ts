/**
 * Where applicants come from (issue 21): tracking links HR makes (`/go/{slug}` keeps the first
 * touch in the visitor's cookie and leads to the link's job or the job list) and the Sources
 * report. The first touch itself is the kernel's (src/http/attribution.ts); the application
 * stores it when it is sent (applicants' insertApplication).
 */
import slugify from '@sindresorhus/slugify';
import type { Config } from '../../config/index.js';
import type { Db } from '../db/knex.js';
import { isUniqueViolation } from '../db/errors.js';
import { NotFound, ValidationError } from '../http/errors.js';
import { validate } from '../http/validate.js';
import { getPublicJob, requireJob } from '../jobs/index.js';
import type { Attribution } from '../shared/campaign.js';
import * as repo from './repo.js';
import { listTrackingLinks, slugExists, sourceCounts } from './queries.js';
import { SOURCE_MESSAGES, sourcesQuerySchema, trackingLinkSchema } from './schema.js';
import type { JobSources, SourceCount, SourcesReport, TrackingLink } from './types.js';

type SourcesDeps = { db: Db; config: Pick<Config, 'publicBaseUrl'> };

const byApplications = (a: SourceCount, b: SourceCount) =>
  b.applications - a.applications || String(a.source ?? '').localeCompare(String(b.source ?? ''));

export async function trackingLinks({ db, config }: SourcesDeps): Promise<TrackingLink[]> {
  return (await listTrackingLinks(db)).map((l) => ({
    id: l.id,
    slug: l.slug,
    url: `${config.publicBaseUrl}/go/${l.slug}`,
    name: l.name,
    source: l.source,
    medium: l.medium,
    campaign: l.campaign,
    job: l.job_id !== null && l.job_title !== null ? { id: l.job_id, title: l.job_title } : null,
    clicks: l.clicks,
    applications: l.applications,
    created_at: l.created_at.toISOString(),
  }));
}

/** A new tracking link; a slug not given is made from the name (`-2`, `-3` on a clash). */
export async function createTrackingLink(deps: SourcesDeps, body: unknown, userId: number | null, now = new Date()): Promise<TrackingLink> {
  const input = validate(trackingLinkSchema, body ?? {});
  if (input.job_id !== null) {
    const job = await requireJob(deps.db, input.job_id).catch(() => null);
    if (!job || job.status === 'REMOVED') throw new ValidationError({ job_id: [SOURCE_MESSAGES.job] });
  }
  const given = input.slug;
  const base = given || slugify(input.name).slice(0, 60).replace(/-+$/, '') || 'link';
  for (let n = 1; n <= 50; n++) {
    const slug = given || (n === 1 ? base : `${base}-${n}`);
    if (!given && (await slugExists(deps.db, slug))) continue;
    try {
      const id = await repo.insertTrackingLink(
        deps.db,
        {
          slug,
          name: input.name,
          source: input.source,
          medium: input.medium,
          campaign: input.campaign,
          job_id: input.job_id,
          created_by: userId,
        },
        now,
      );
      const link = (await trackingLinks(deps)).find((l) => l.id === id);
      if (link) return link;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      if (given) throw new ValidationError({ slug: [SOURCE_MESSAGES.slugTaken] });
    }
  }
  throw new ValidationError({ slug: [SOURCE_MESSAGES.slugTaken] });
}

export async function removeTrackingLink({ db }: SourcesDeps, id: number): Promise<void> {
  if (!(await repo.deleteTrackingLink(db, id))) throw new NotFound(SOURCE_MESSAGES.notFound);
}

/**
 * A visit through `/go/{slug}`: the attribution it gives and where it leads (the link's job while
 * it takes applications, else the job list); null for an unknown slug. `isClick` says whether the
 * visit counts as a click (the route's rule: a GET, and the client's first for this link in
 * CLICK_WINDOW_SECONDS); it is asked only for a link that exists.
 */
export async function followTrackingLink(
  { db }: SourcesDeps,
  slug: string,
  isClick: (linkId: number) => Promise<boolean>,
): Promise<{ attribution: Attribution; target: string } | null> {
  if (slug.length > 64) return null;
  const link = await repo.findTrackingLink(db, slug.toLowerCase());
  if (!link) return null;
  if (await isClick(link.id)) await repo.countTrackingLinkClick(db, link.id);
  let target = '/careers';
  if (link.job_id !== null) {
    const job = await requireJob(db, link.job_id).catch(() => null);
    if (job && (await getPublicJob(db, job.public_id, false)).availability === 'available')
      target = `/careers/${encodeURIComponent(job.public_id)}`;
  }
  return { attribution: { source: link.source, medium: link.medium, campaign: link.campaign, linkId: link.id }, target };
}

/** Applications per source per job in the last `days` days (all time without), with each job's views and conversion. */
export async function sourcesReport({ db }: SourcesDeps, query: unknown, now = new Date()): Promise<SourcesReport> {
  const { days: raw } = validate(sourcesQuerySchema, query);
  const days = raw ? Number(raw) : null;
  const since = days ? new Date(now.getTime() - days * 86_400_000) : null;
  // The funnel counts per UTC day: the last `days` days, today included (as the insights funnel reads them).
  const fromDay = days
    ? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1))).toISOString().slice(0, 10)
    : null;
  const { counts, jobs, visits } = await sourceCounts(db, since, fromDay);
  const visitsOf = new Map<string, number>(visits.map((v) => [`${v.job_id}:${v.step}`, v.n]));
  const perJob = new Map<number, SourceCount[]>();
  const totals = new Map<string | null, number>();
  for (const c of counts) {
    perJob.set(c.job_id, [...(perJob.get(c.job_id) ?? []), { source: c.source, applications: c.n }]);
    totals.set(c.source, (totals.get(c.source) ?? 0) + c.n);
  }
  const rows: JobSources[] = jobs
    .map((j) => {
      const sources = (perJob.get(j.id) ?? []).sort(byApplications);
      const applications = sources.reduce((sum, s) => sum + s.applications, 0);
      // Of the period's counted visits (the funnel's job page views), how many sent an application
      // from the wizard: the same visitors on both sides, so never above 100 %.
      const visited = visitsOf.get(`${j.id}:view`) ?? 0;
      const applied = visitsOf.get(`${j.id}:submitted`) ?? 0;
      const conversion = visited > 0 ? Math.min(100, Math.round((applied / visited) * 1000) / 10) : null;
      return {
        job_id: j.id,
        public_id: j.public_id,
        title: j.title,
        views: j.views,
        counted_views: visited,
        applications,
        conversion,
        sources,
      };
    })
    .filter((j) => j.applications > 0 || j.views > 0 || j.counted_views > 0)
    .sort((a, b) => b.applications - a.applications || b.views - a.views || a.title.localeCompare(b.title));
  return { days, totals: [...totals].map(([source, applications]) => ({ source, applications })).sort(byApplications), jobs: rows };
}
