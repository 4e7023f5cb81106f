/**
 * The job feeds (issue 21): the open jobs of the public list, newest first, as a JSON Feed
 * (`/feeds/jobs.json`, jsonfeed.org version 1), RSS 2.0 (`/feeds/jobs.rss`), both written by the
 * `feed` library, and Indeed's XML job feed (`/feeds/indeed.xml`, every value in CDATA as Indeed
 * asks, written by xmlbuilder2). Each job link names its feed as its source
 * (`utm_source=<feed>&utm_medium=feed`), so applications through a feed are attributed to it.
 */
import { Feed } from 'feed';
import { create } from 'xmlbuilder2';
import type { Config } from '../../config/index.js';
import type { JobType, WorkMode } from '../shared/enums.js';
import { enumLabel } from '../shared/enums.js';
import { htmlToText, salaryDisplay } from '../shared/format.js';
import { parseLocation, postingHtml } from './seo.js';
import type { Job } from './types.js';

export const FEED_KINDS = ['json', 'rss', 'indeed'] as const;
export type FeedKind = (typeof FEED_KINDS)[number];

/** Each feed's path, media type and the source its links carry. */
export const FEEDS: Record<FeedKind, { path: string; contentType: string; source: string }> = {
  json: { path: '/feeds/jobs.json', contentType: 'application/feed+json; charset=utf-8', source: 'json-feed' },
  rss: { path: '/feeds/jobs.rss', contentType: 'application/rss+xml; charset=utf-8', source: 'rss' },
  indeed: { path: '/feeds/indeed.xml', contentType: 'application/xml; charset=utf-8', source: 'indeed' },
};

/** The most jobs a feed lists (the newest); a careers site's open jobs fit well within it. */
export const FEED_MAX_JOBS = 2000;

/** Characters of a job's text in the RSS and JSON Feed summary. */
const SUMMARY_LENGTH = 300;

type FeedConfig = Pick<Config, 'company' | 'publicBaseUrl'>;

/** Indeed's job types. */
const INDEED_JOB_TYPE: Record<JobType, string> = { FULL_TIME: 'fulltime', PART_TIME: 'parttime', CONTRACT: 'contract', INTERNSHIP: 'internship' };
/** Indeed's remote types; an on-site job has none. */
const INDEED_REMOTE_TYPE: Record<WorkMode, string | null> = { REMOTE: 'Fully remote', HYBRID: 'Hybrid remote', ONSITE: null };

/** Characters XML 1.0 does not allow, even escaped; stored texts should hold none, a feed never does. */
const NOT_XML = /[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;
const xmlText = (text: string) => text.replace(NOT_XML, '');

function jobLink(config: FeedConfig, job: Job, kind: FeedKind): string {
  const params = new URLSearchParams({ utm_source: FEEDS[kind].source, utm_medium: 'feed' });
  return `${config.publicBaseUrl}/careers/${encodeURIComponent(job.public_id)}?${params}`;
}

function syndicationFeed(config: FeedConfig, jobs: Job[], kind: 'json' | 'rss'): string {
  const company = config.company.name;
  const feed = new Feed({
    title: `Jobs at ${company}`,
    description: `Open positions at ${company}.`,
    id: `${config.publicBaseUrl}/careers`,
    link: `${config.publicBaseUrl}/careers`,
    language: 'en',
    updated: jobs.reduce<Date | undefined>((latest, j) => (!latest || j.updated_at > latest ? j.updated_at : latest), undefined),
    generator: `${company} Careers`,
    feedLinks: { rss: `${config.publicBaseUrl}${FEEDS.rss.path}`, json: `${config.publicBaseUrl}${FEEDS.json.path}` },
    ...(config.company.logoUrl ? { image: config.company.logoUrl } : {}),
    copyright: company,
  });
  for (const job of jobs) {
    const details = [job.department, job.location, enumLabel(job.job_type), enumLabel(job.work_mode), salaryDisplay(job.currency, job.min_salary, job.max_salary, job.salary_period)].filter(Boolean).join(' · ');
    const summary = htmlToText(job.description, SUMMARY_LENGTH);
    feed.addItem({
      title: xmlText(job.title),
      id: `${config.publicBaseUrl}/careers/${encodeURIComponent(job.public_id)}`,
      link: jobLink(config, job, kind),
      date: job.updated_at,
      published: job.created_at,
      description: xmlText(summary ? `${details}. ${summary}` : details),
      content: xmlText(postingHtml(job)),
      category: [...(job.department ? [{ name: job.department }] : []), { name: enumLabel(job.job_type) }, { name: enumLabel(job.work_mode) }],
    });
  }
  return kind === 'rss' ? feed.rss2() : feed.json1();
}

/** A CDATA section cannot hold its own end marker; a text with one is split around it. */
const cdata = (text: string) => xmlText(text).replaceAll(']]>', ']] >');

function indeedFeed(config: FeedConfig, jobs: Job[], now: Date): string {
  const root = create({ version: '1.0', encoding: 'utf-8' }).ele('source');
  root.ele('publisher').txt(`${config.company.name} Careers`);
  root.ele('publisherurl').txt(`${config.publicBaseUrl}/careers`);
  root.ele('lastBuildDate').txt(now.toUTCString());
  for (const job of jobs) {
    const place = parseLocation(job.location);
    const fields: [string, string | null][] = [
      ['title', job.title],
      ['date', job.created_at.toISOString()],
      ['referencenumber', job.public_id],
      ['requisitionid', job.public_id],
      ['url', jobLink(config, job, 'indeed')],
      ['company', config.company.name],
      ['sourcename', config.company.name],
      ['city', place.locality ?? null],
      ['state', place.region ?? null],
      ['country', place.country?.code ?? null],
      ['description', postingHtml(job)],
      ['salary', salaryDisplay(job.currency, job.min_salary, job.max_salary, job.salary_period)],
      ['jobtype', INDEED_JOB_TYPE[job.job_type] ?? null],
      ['category', job.department],
      ['expirationdate', job.closes_at ? job.closes_at.toISOString() : null],
      ['experience', job.experience_required || null],
      ['remotetype', INDEED_REMOTE_TYPE[job.work_mode]],
    ];
    const node = root.ele('job');
    for (const [name, value] of fields) if (value) node.ele(name).dat(cdata(value));
  }
  return root.end({ prettyPrint: true });
}

/** The feed of these jobs. */
export function renderFeed(kind: FeedKind, jobs: Job[], config: FeedConfig, now: Date): string {
  return kind === 'indeed' ? indeedFeed(config, jobs, now) : syndicationFeed(config, jobs, kind);
}
