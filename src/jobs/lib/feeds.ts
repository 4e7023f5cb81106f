/**
 * The job feeds (issue 21): the open jobs of the public list, newest first, as a JSON Feed
 * (`/feeds/jobs.json`, jsonfeed.org version 1, written by the `feed` library), RSS 2.0
 * (`/feeds/jobs.rss`) and Indeed's XML job feed (`/feeds/indeed.xml`, every value in CDATA as
 * Indeed asks), both written by xmlbuilder2 and well-formed XML 1.0 whatever the stored texts hold. Each job link names its feed as its source
 * (`utm_source=<feed>&utm_medium=feed`), so applications through a feed are attributed to it.
 */
import { Feed } from 'feed';
import { create } from 'xmlbuilder2';
import type { Config } from '../../../config/index.js';
import type { JobType, WorkMode } from '../../shared/enums.js';
import { enumLabel } from '../../shared/enums.js';
import { htmlToText, salaryDisplay } from '../../shared/format.js';
import { parseLocation, postingHtml, remoteCountry } from './seo.js';
import type { Job } from '../types.js';

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
const INDEED_JOB_TYPE: Record<JobType, string> = {
  FULL_TIME: 'fulltime',
  PART_TIME: 'parttime',
  CONTRACT: 'contract',
  INTERNSHIP: 'internship',
};
/** Indeed's remote types; an on-site job has none. */
const INDEED_REMOTE_TYPE: Record<WorkMode, string | null> = { REMOTE: 'Fully remote', HYBRID: 'Hybrid remote', ONSITE: null };

/**
 * Characters a feed never carries: those XML 1.0 does not allow even escaped (C0 controls but tab
 * and line breaks, lone surrogates, U+FFFE, U+FFFF) and the other non-characters (U+FDD0-U+FDEF,
 * U+nFFFE/U+nFFFF), which XML 1.0 discourages. Saved texts refuse them (src/shared/input-rules.ts),
 * but texts stored before that rule may hold some, so every value is cleaned as it is written.
 */
const NOT_XML = /[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]|\p{Noncharacter_Code_Point}/gu;
const xmlText = (text: string) => text.replace(NOT_XML, '');

/** An XML element being written (xmlbuilder2's builder). */
type XmlNode = ReturnType<typeof create>;

/**
 * A CDATA section cannot hold its own end marker, so every `]]>` of a text is split across two
 * sections (`]]` ends one, `>` starts the next), which a reader joins back into the same text.
 * xmlbuilder2 refuses `]]>` in a section, so the text goes in with U+FFFF where the splits go (a
 * character xmlText has removed from every text, so it stands for nothing else) and the written
 * document gets the splits in its place (writeXml).
 */
const CDATA_SPLIT = '\uffff';
function cdata(node: XmlNode, text: string): XmlNode {
  return node.dat(xmlText(text).replaceAll(']]>', CDATA_SPLIT));
}
const writeXml = (root: XmlNode) => root.end({ prettyPrint: true }).replaceAll(CDATA_SPLIT, ']]]]><![CDATA[>');

/** A text element, escaped. */
const textElement = (parent: XmlNode, name: string, value: string, attributes?: Record<string, string>) =>
  parent.ele(name, attributes).txt(xmlText(value));

function jobLink(config: FeedConfig, job: Job, kind: FeedKind): string {
  const params = new URLSearchParams({ utm_source: FEEDS[kind].source, utm_medium: 'feed' });
  return `${config.publicBaseUrl}/careers/${encodeURIComponent(job.public_id)}?${params}`;
}

const jobId = (config: FeedConfig, job: Job) => `${config.publicBaseUrl}/careers/${encodeURIComponent(job.public_id)}`;
const latestUpdate = (jobs: Job[]) =>
  jobs.reduce<Date | undefined>((latest, j) => (!latest || j.updated_at > latest ? j.updated_at : latest), undefined);

/** A job's details and the start of its text, the feeds' summary. */
function jobSummary(job: Job): string {
  const details = [
    job.department,
    job.location,
    enumLabel(job.job_type),
    enumLabel(job.work_mode),
    salaryDisplay(job.currency, job.min_salary, job.max_salary, job.salary_period),
  ]
    .filter(Boolean)
    .join(' · ');
  const summary = htmlToText(job.description, SUMMARY_LENGTH);
  return summary ? `${details}. ${summary}` : details;
}

const jobCategories = (job: Job) => [...(job.department ? [job.department] : []), enumLabel(job.job_type), enumLabel(job.work_mode)];

/** The JSON Feed, written by the `feed` library (JSON cannot be broken by a text). */
function jsonFeed(config: FeedConfig, jobs: Job[]): string {
  const company = config.company.name;
  const feed = new Feed({
    title: `Jobs at ${company}`,
    description: `Open positions at ${company}.`,
    id: `${config.publicBaseUrl}/careers`,
    link: `${config.publicBaseUrl}/careers`,
    language: 'en',
    updated: latestUpdate(jobs),
    generator: `${company} Careers`,
    feedLinks: { rss: `${config.publicBaseUrl}${FEEDS.rss.path}`, json: `${config.publicBaseUrl}${FEEDS.json.path}` },
    ...(config.company.logoUrl ? { image: config.company.logoUrl } : {}),
    copyright: company,
  });
  for (const job of jobs) {
    feed.addItem({
      title: xmlText(job.title),
      id: jobId(config, job),
      link: jobLink(config, job, 'json'),
      date: job.updated_at,
      published: job.created_at,
      description: xmlText(jobSummary(job)),
      content: xmlText(postingHtml(job)),
      category: jobCategories(job).map((name) => ({ name: xmlText(name) })),
    });
  }
  return feed.json1();
}

/**
 * RSS 2.0, written with xmlbuilder2 (the `feed` library's RSS writer splits only the first `]]>`
 * of a CDATA text, so a second one closed the section and the rest was read as markup).
 */
function rssFeed(config: FeedConfig, jobs: Job[], now: Date): string {
  const company = config.company.name;
  const careers = `${config.publicBaseUrl}/careers`;
  const rss = create({ version: '1.0', encoding: 'utf-8' }).ele('rss', {
    version: '2.0',
    'xmlns:dc': 'http://purl.org/dc/elements/1.1/',
    'xmlns:content': 'http://purl.org/rss/1.0/modules/content/',
    'xmlns:atom': 'http://www.w3.org/2005/Atom',
  });
  const channel = rss.ele('channel');
  textElement(channel, 'title', `Jobs at ${company}`);
  textElement(channel, 'link', careers);
  textElement(channel, 'description', `Open positions at ${company}.`);
  textElement(channel, 'lastBuildDate', (latestUpdate(jobs) ?? now).toUTCString());
  textElement(channel, 'docs', 'https://validator.w3.org/feed/docs/rss2.html');
  textElement(channel, 'generator', `${company} Careers`);
  textElement(channel, 'language', 'en');
  if (config.company.logoUrl) {
    const image = channel.ele('image');
    textElement(image, 'title', `Jobs at ${company}`);
    textElement(image, 'url', config.company.logoUrl);
    textElement(image, 'link', careers);
  }
  textElement(channel, 'copyright', company);
  channel.ele('atom:link', { href: `${config.publicBaseUrl}${FEEDS.rss.path}`, rel: 'self', type: 'application/rss+xml' });
  for (const job of jobs) {
    const item = channel.ele('item');
    cdata(item.ele('title'), job.title);
    textElement(item, 'link', jobLink(config, job, 'rss'));
    textElement(item, 'guid', jobId(config, job), { isPermaLink: 'false' });
    textElement(item, 'pubDate', job.created_at.toUTCString());
    cdata(item.ele('description'), jobSummary(job));
    cdata(item.ele('content:encoded'), postingHtml(job));
    for (const name of jobCategories(job)) textElement(item, 'category', name);
  }
  return writeXml(rss);
}

/** Indeed's location fields, written even when empty. */
const ALWAYS_THERE = new Set(['state', 'country']);

function indeedFeed(config: FeedConfig, jobs: Job[], now: Date): string {
  const root = create({ version: '1.0', encoding: 'utf-8' }).ele('source');
  textElement(root, 'publisher', `${config.company.name} Careers`);
  textElement(root, 'publisherurl', `${config.publicBaseUrl}/careers`);
  textElement(root, 'lastBuildDate', now.toUTCString());
  for (const job of jobs) {
    const place = parseLocation(job.location);
    // A fully remote job: the country its location names ('Remote — United States'), else the
    // first of the countries its applicants may live in; its location text is no city.
    const remote = job.work_mode === 'REMOTE';
    const remoteWhere = remote && !place.country ? (remoteCountry(job.location)?.code ?? job.applicant_countries[0] ?? null) : null;
    const country = place.country?.code ?? remoteWhere;
    const city = remote && !place.country ? null : (place.locality ?? null);
    const fields: [string, string | null][] = [
      ['title', job.title],
      ['date', job.created_at.toISOString()],
      ['referencenumber', job.public_id],
      ['requisitionid', job.public_id],
      ['url', jobLink(config, job, 'indeed')],
      ['company', config.company.name],
      ['sourcename', config.company.name],
      ['city', city],
      // Always there (Indeed reads the location from city, state and country): empty when the
      // location names no region or no country.
      ['state', place.region ?? ''],
      ['country', country ?? ''],
      ['description', postingHtml(job)],
      ['salary', salaryDisplay(job.currency, job.min_salary, job.max_salary, job.salary_period)],
      ['jobtype', INDEED_JOB_TYPE[job.job_type] ?? null],
      ['category', job.department],
      ['expirationdate', job.closes_at ? job.closes_at.toISOString() : null],
      ['experience', job.experience_required || null],
      ['remotetype', INDEED_REMOTE_TYPE[job.work_mode]],
    ];
    const node = root.ele('job');
    for (const [name, value] of fields) if (value || (value === '' && ALWAYS_THERE.has(name))) cdata(node.ele(name), value);
  }
  return writeXml(root);
}

/** The feed of these jobs. */
export function renderFeed(kind: FeedKind, jobs: Job[], config: FeedConfig, now: Date): string {
  return kind === 'indeed' ? indeedFeed(config, jobs, now) : kind === 'rss' ? rssFeed(config, jobs, now) : jsonFeed(config, jobs);
}
