/**
 * Typed configuration read from environment variables (DESIGN.md section 3a), and from a `.env`
 * file under them (the working folder's, or CAREERS_ENV_FILE): the real environment wins.
 * Every value is checked at boot: a bad value stops the process with a message naming the
 * variable, what it got and what it expects, instead of failing later in a request.
 */
import path from 'node:path';
import dotenv from 'dotenv';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import nodeCron from 'node-cron';
import { PHONE_RULES, type PhoneRule } from '../src/shared/phone-rule-names.js';
import { DEFAULT_BLOCKING_CHECKS, JOB_CHECK_KEYS, type JobCheckKey } from '../src/shared/job-checks.js';
import { OIDC_SETTINGS, type OidcSetting, parseOidc } from './oidc.js';

export type { OidcSetting } from './oidc.js';

type NodeEnv = 'development' | 'production' | 'test';

export interface RateLimitSetting {
  /** Requests allowed per window; 0 turns the limit off. */
  limit: number;
  windowSeconds: number;
}

/**
 * What Express's `trust proxy` setting gets: off, a hop count, or the proxies' addresses, CIDRs
 * and Express's names for ranges (loopback, linklocal, uniquelocal).
 */
export type TrustProxy = false | number | string[];

/** Express's names for address ranges, usable in a TRUST_PROXY list. */
const TRUST_PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'] as const;
const MAX_PROXY_HOPS = 10;

/**
 * TRUST_PROXY read as Express's `trust proxy` syntax, except that `true` means one hop: Express's
 * own `true` trusts every X-Forwarded-For entry and takes the left-most, which the client wrote.
 * Each list entry is checked here, so a typo stops the server at boot instead of silently
 * trusting nothing or the wrong range. Throws an Error naming TRUST_PROXY for a bad value.
 */
function parseTrustProxy(raw: string | undefined): TrustProxy {
  const v = (raw ?? '').trim();
  const lower = v.toLowerCase();
  if (v === '' || ['false', 'no', 'off'].includes(lower)) return false;
  if (['true', 'yes', 'on'].includes(lower)) return 1;
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    if (hops > MAX_PROXY_HOPS)
      throw new Error(
        `TRUST_PROXY must be a hop count from 0 to ${MAX_PROXY_HOPS}, true (one hop) or a comma-separated list of proxy addresses/CIDRs (got "${raw}")`,
      );
    return hops === 0 ? false : hops;
  }
  const entries = v.split(',').map((e) => e.trim());
  const bad = entries.filter((e) => !isProxyEntry(e));
  if (bad.length) {
    throw new Error(
      `TRUST_PROXY must be false, true (one hop), a hop count, or a comma-separated list of proxy IP addresses, CIDRs (10.0.0.0/8, 2001:db8::/32) and ${TRUST_PROXY_NAMES.join(', ')} (got "${raw}"; not understood: ${bad.map((b) => `"${b}"`).join(', ')})`,
    );
  }
  return [...new Set(entries.map((e) => (TRUST_PROXY_NAMES.includes(e.toLowerCase() as never) ? e.toLowerCase() : e)))];
}

/** One TRUST_PROXY list entry: a range name, an IPv4/IPv6 address, or either with a /prefix (IPv4 also /netmask). */
function isProxyEntry(entry: string): boolean {
  if (TRUST_PROXY_NAMES.includes(entry.toLowerCase() as never)) return true;
  const [address, range, ...rest] = entry.split('/');
  if (rest.length || !net.isIP(address) || address.includes('%')) return false;
  if (range === undefined) return true;
  const max = net.isIPv4(address) ? 32 : 128;
  if (/^\d{1,3}$/.test(range)) return Number(range) <= max;
  // A dotted netmask (255.255.255.0), as Express also takes, for IPv4 only.
  return net.isIPv4(address) && net.isIPv4(range) && ipaddr.IPv4.parse(range).prefixLengthFromSubnetMask() !== null;
}

/** The longest APPLY_CONSENT_TEXT: a sentence or two beside a checkbox, not a policy. */
const APPLY_CONSENT_TEXT_MAX = 2000;

/** LOG_LEVEL's values (pino's levels). */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
const HR_NOTIFY_DIGESTS = ['hourly', 'daily', 'off'] as const;
/** HR_NOTIFY_DIGEST: off = one notification per application (as before); hourly or daily = one digest per period. */
type HrNotifyDigest = (typeof HR_NOTIFY_DIGESTS)[number];

/** Where uploads go: a folder (DATA_DIR/uploads), or an S3-compatible bucket (STORAGE_URL). */
type StorageSetting = { kind: 'local'; root: string } | S3Setting;

export interface S3Setting {
  kind: 's3';
  bucket: string;
  /** '' or a folder-like prefix ending in '/': every key is stored as prefix + key. */
  prefix: string;
  /** null: AWS itself (the region's endpoint). */
  endpoint: string | null;
  region: string;
  forcePathStyle: boolean;
  /** From AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (/ AWS_SESSION_TOKEN); null: the SDK's default chain. */
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } | null;
}

const STORAGE_URL_EXAMPLE = 's3://bucket/prefix?endpoint=https://s3.example.com&region=us-east-1';
const STORAGE_URL_PARAMS = ['endpoint', 'region', 'force_path_style'];

/** S3's rules for bucket names (general purpose buckets). */
function isBucketName(name: string): boolean {
  return (
    /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(name) &&
    !name.includes('..') &&
    !net.isIPv4(name) &&
    !/^(xn--|sthree-|amzn-s3-demo-)/.test(name) &&
    !/(-s3alias|--ol-s3|--x-s3|--table-s3|\.mrap)$/.test(name)
  );
}

/**
 * STORAGE_URL read as s3://bucket/prefix?endpoint=...&region=...&force_path_style=...; returns the
 * problems found (each naming STORAGE_URL) or the bucket's place. Credentials never come from the
 * URL: a URL is printed in logs and `careers-admin config`, the AWS variables are masked.
 */
function parseStorageUrl(raw: string): { problems: string[]; s3?: Omit<S3Setting, 'credentials'> } {
  // What the messages quote: never a password.
  const shown = raw.replace(/\/\/[^@/?#]*@/, '//***@');
  const fail = (why: string) => ({ problems: [`STORAGE_URL ${why} (got "${shown}"); leave it unset to keep uploads in DATA_DIR/uploads`] });
  if (!URL.canParse(raw)) return fail(`must be an s3:// URL such as ${STORAGE_URL_EXAMPLE}`);
  const u = new URL(raw);
  if (u.protocol !== 's3:') return fail(`must start with s3:// (an S3-compatible bucket), such as ${STORAGE_URL_EXAMPLE}`);
  if (u.username || u.password)
    return fail('must not contain a user name or password: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY instead');
  if (u.port || u.hash) return fail('must be s3://bucket/prefix with no port or #fragment (the server goes in ?endpoint=)');
  const bucket = u.hostname;
  if (!isBucketName(bucket))
    return fail(
      'must name a valid bucket: 3 to 63 lower-case letters, digits, dots and hyphens, starting and ending with a letter or digit',
    );
  const path = decodeURIComponent(u.pathname).replace(/^\/+|\/+$/g, '');
  // URL resolves . and .. segments (s3://b/a/../c is s3://b/c): refuse them as written.
  const dotSegment = /\/(\.|%2e){1,2}(\/|$)/i.test(raw.split(/[?#]/)[0]);
  if (
    dotSegment ||
    (path &&
      (path.length > 512 ||
        !/^[A-Za-z0-9!_.*'()-]+(\/[A-Za-z0-9!_.*'()-]+)*$/.test(path) ||
        path.split('/').some((p) => p === '.' || p === '..')))
  ) {
    return fail(
      "must have a prefix of letters, digits and ! _ . * ' ( ) - separated by single slashes, without . or .. parts, at most 512 characters",
    );
  }
  const params = u.searchParams;
  const unknown = [...params.keys()].filter((k) => !STORAGE_URL_PARAMS.includes(k));
  if (unknown.length)
    return fail(`has unknown parameters ${unknown.map((k) => `"${k}"`).join(', ')} (it takes ${STORAGE_URL_PARAMS.join(', ')})`);
  let endpoint: string | null = null;
  const rawEndpoint = params.get('endpoint');
  if (rawEndpoint !== null) {
    const e = URL.canParse(rawEndpoint) ? new URL(rawEndpoint) : null;
    if (!e || (e.protocol !== 'http:' && e.protocol !== 'https:') || e.pathname !== '/' || e.search || e.hash) {
      return fail('must have an endpoint that is an http:// or https:// URL of the server alone, such as endpoint=http://127.0.0.1:9000');
    }
    if (e.username || e.password)
      return fail('must not have a user name or password in its endpoint: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY instead');
    endpoint = e.origin;
  }
  const region = params.get('region') ?? 'us-east-1';
  if (!/^[a-z0-9-]{1,32}$/.test(region))
    return fail('must have a region of lower-case letters, digits and hyphens, such as region=eu-west-1');
  const style = params.get('force_path_style')?.toLowerCase();
  if (style !== undefined && !['true', 'false'].includes(style)) return fail('must have force_path_style=true or force_path_style=false');
  // S3-compatible servers (MinIO, R2...) are usually reached by path; AWS by bucket host name.
  const forcePathStyle = style === undefined ? endpoint !== null : style === 'true';
  return { problems: [], s3: { kind: 's3', bucket, prefix: path ? `${path}/` : '', endpoint, region, forcePathStyle } };
}

/** POSTS_RETRY_SCHEDULE's default: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
/** The read cache's stamped spaces (src/db/read-cache.ts), which STAMPED_CACHE_OFF may name. */
const STAMPED_SPACES = ['insights', 'applicant-totals', 'board'] as const;
type StampedSpace = (typeof STAMPED_SPACES)[number];

export const DEFAULT_RETRY_SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 36000];

export interface Config {
  env: NodeEnv;
  port: number;
  /** Unset means the embedded SQLite database in dataDir. */
  databaseUrl: string | null;
  /** DATABASE_POOL_MAX: MySQL connections this process may open at once (SQLite has one). */
  databasePoolMax: number;
  /**
   * DATABASE_ACQUIRE_TIMEOUT_SECONDS: how long a query waits for a connection (a free one of the
   * pool, or a new one) before it fails and the request answers 503; both databases.
   */
  databaseAcquireTimeoutSeconds: number;
  /** DATABASE_CONNECT_TIMEOUT_SECONDS: how long opening a MySQL connection may take (unused with SQLite). */
  databaseConnectTimeoutSeconds: number;
  /**
   * DATABASE_STATEMENT_TIMEOUT_SECONDS: how long one MySQL statement may wait for its answer before
   * its connection is given up (a partitioned network otherwise hangs a request for minutes);
   * 0 = no limit. Not for streamed reads (exports) nor migrations. SQLite runs statements in process.
   */
  databaseStatementTimeoutSeconds: number;
  /** SQLITE_CACHE_MB: the SQLite connection's page cache in MB (unused with MySQL). */
  sqliteCacheMb: number;
  dataDir: string;
  publicBaseUrl: string;
  /**
   * SESSION_IDLE_MINUTES: an HR session ends this long after its last request (each authenticated
   * request renews it; SESSION_TTL_SECONDS is read as its older name, in seconds).
   */
  sessionIdleMinutes: number;
  /** SESSION_MAX_HOURS: however busy, a session ends this long after sign-in. */
  sessionMaxHours: number;
  /** Seconds public job reads may be served from this process's memory; 0 = off. */
  publicCacheSeconds: number;
  /** EMBED_ORIGINS: the origins of sites that may embed the job list (/embed.js, /embed/jobs); none = embeds off. */
  embedOrigins: string[];
  /** STAMPED_CACHE_OFF: spaces of stamped reads never kept, recomputed on every request (for measuring them). */
  stampedCacheOff: StampedSpace[];
  trustProxy: TrustProxy;
  rateLimits: {
    apply: RateLimitSetting;
    /** The wizard's funnel beacons (src/funnel/). */
    funnel: RateLimitSetting;
    form: RateLimitSetting;
    /** Candidates' status page: asking for a new link, withdrawing, asking for erasure (issue 35). */
    candidate: RateLimitSetting;
    /** Answers on the candidates' offer pages and the approvers' links (issue 34). */
    offer: RateLimitSetting;
    login: RateLimitSetting;
    /** The job alert form (issue 35): subscriptions per client address. */
    alerts: RateLimitSetting;
    /** IPv6 clients are counted per network of this prefix length (32-64), not per address. */
    ipv6Subnet: number;
  };
  webhookAllowPrivate: boolean;
  /** CALENDAR_CACHE_SECONDS: how long an interviewer's calendar feed, once read, is kept in memory (issue 32); 0 = read every time. */
  calendarCacheSeconds: number;
  postsSweepCron: string | null;
  /** ALERTS_CRON: when the job alert digests are sent (issue 35); null = never in this process ("off"). */
  alertsCron: string | null;
  /** false: this process sends no posts (another runs `careers-admin cron`). */
  postsWorker: boolean;
  /** Seconds between attempts after the first (each ±20 %); its length is the number of retries. */
  postsRetrySchedule: number[];
  /** Days an attempt of a post is kept (attempts also go with their post). */
  postsAttemptRetentionDays: number;
  /**
   * replyTo: MAIL_REPLY_TO, the Reply-To of emails to candidates (null: none); replyToSender:
   * MAIL_REPLY_TO_SENDER, the sending HR user's own address instead when they have one;
   * hrNotifyDigest: HR_NOTIFY_DIGEST, one HR notification per hour or day instead of one per application.
   */
  mail: {
    smtpUrl: string | null;
    from: string;
    hrNotifyEmail: string | null;
    replyTo: string | null;
    replyToSender: boolean;
    hrNotifyDigest: HrNotifyDigest;
  };
  /** logoUrl: the company logo in JobPosting JSON-LD (`hiringOrganization.logo`); null = none. */
  company: { name: string; aboutUrl: string; networkUrl: string; careersEmail: string; logoUrl: string | null };
  /** PHONE_RULE: the spec's dial code + 10 digits ('ten-digits'), or any number valid for its country, stored in E.164 ('international'). */
  phoneRule: PhoneRule;
  /** APPLY_CONSENT_TEXT: what an applicant must agree to on the wizard's review step; null = no consent asked. */
  applyConsentText: string | null;
  /**
   * APPLICATION_RETENTION_DAYS: how long applications are kept (the privacy notice's promise);
   * `careers-admin applicants purge` without `--older-than` purges those older; null = none set
   * (the job checklist warns).
   */
  applicationRetentionDays: number | null;
  /** CANDIDATE_LINK_DAYS: how long the link to a candidate's status page works (issue 35); a new one can be asked for. */
  candidateLinkDays: number;
  /** POOL_CONSENT_DAYS: how long a candidate's consent to be kept in talent pools lasts before it must be renewed (issue 35). */
  poolConsentDays: number;
  /** JOB_APPROVAL: a recruiter's new or changed job waits for its hiring manager or an admin before it can be active (issue 34). */
  jobApproval: boolean;
  /**
   * OFFER_PDF_FONT, OFFER_PDF_FONT_BOLD: TrueType or OpenType fonts for offer PDFs (issue 34), so
   * names and letters outside Latin-1 are written as they are; null: the PDF standard fonts.
   */
  offerPdfFonts: { regular: string | null; bold: string | null };
  /** JOB_CHECKS_BLOCK: the publishing checks that refuse a job's activation (issue 34); the others only warn. */
  jobChecksBlock: JobCheckKey[];
  /** LOG_LEVEL: the least severe level written (default info; warn in tests, so request lines stay out of test output). */
  logLevel: LogLevel;
  /** Seconds a stopping process waits for requests, uploads and post deliveries in flight before it cuts them. */
  shutdownTimeoutSeconds: number;
  /** Bearer token that opens /metrics; null = no /metrics (it is the app's 404). */
  metricsToken: string | null;
  /** Uploaded files: DATA_DIR/uploads unless STORAGE_URL names a bucket (src/storage/create.ts). */
  storage: StorageSetting;
  /** Company sign-in (OIDC_*, config/oidc.ts); null = off. */
  oidc: OidcSetting | null;
  /** Project root: where views/, public/ and migrations live. */
  rootDir: string;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

/** Finds the folder holding package.json, whether we run from src/ (tsx) or dist/ (bundled). */
function findRootDir(start = path.dirname(fileURLToPath(import.meta.url))): string {
  let dir = start;
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'views'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
}

type Env = Record<string, string | undefined>;

/** The environment the server and the CLI read: the real one, over the `.env` file's values. */
export interface Settings {
  env: Env;
  /** The settings file read (absolute), or null when there is none. */
  file: string | null;
  /** Names whose value came from the file. */
  fromFile: Set<string>;
}

/** The settings file of an installed site: the systemd unit's EnvironmentFile, read by the CLI too (README "systemd"). */
const SYSTEM_SETTINGS_FILE = '/etc/careers/careers.env';

/** The file's text, or null when it does not exist; any other failure throws. */
function readIfThere(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * Reads the settings file under `env`, without touching process.env: a variable set in the
 * environment, even to '', is never replaced. One file is read, the first of: CAREERS_ENV_FILE
 * (a named file that cannot be read is an error), `.env` in `cwd`, SYSTEM_SETTINGS_FILE (what the
 * systemd unit reads, so `careers-admin` over SSH needs no extra flag); none is no problem.
 */
export function readSettings(env: Env = process.env, cwd = process.cwd(), systemFile = SYSTEM_SETTINGS_FILE): Settings {
  const named = env.CAREERS_ENV_FILE?.trim();
  let file = path.resolve(cwd, named || '.env');
  let text: string | null;
  try {
    text = readIfThere(file);
    if (text === null && named) throw Object.assign(new Error('not found'), { code: 'ENOENT' });
    if (text === null) {
      file = systemFile;
      text = readIfThere(file);
      if (text === null) return { env, file: null, fromFile: new Set() };
    }
  } catch (err) {
    const what = named ? 'CAREERS_ENV_FILE: cannot read the settings file' : 'cannot read the settings file';
    throw new ConfigError([`${what} ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`]);
  }
  const fromFile = new Set<string>();
  const merged: Env = { ...env };
  for (const [name, value] of Object.entries(dotenv.parse(text))) {
    if (env[name] !== undefined) continue;
    merged[name] = value;
    fromFile.add(name);
  }
  return { env: merged, file, fromFile };
}

/**
 * Every setting `loadConfig` reads, with its default as `careers-admin config` shows it. `secret`:
 * 'url' masks a URL's password, 'all' the whole value.
 */
export const SETTINGS: { name: string; default: string; secret?: 'url' | 'all' }[] = [
  { name: 'NODE_ENV', default: 'development' },
  { name: 'PORT', default: '3000' },
  { name: 'DATABASE_URL', default: '(unset: SQLite file in DATA_DIR)', secret: 'url' },
  { name: 'DATABASE_POOL_MAX', default: '10' },
  { name: 'DATABASE_ACQUIRE_TIMEOUT_SECONDS', default: '5' },
  { name: 'DATABASE_CONNECT_TIMEOUT_SECONDS', default: '5' },
  { name: 'DATABASE_STATEMENT_TIMEOUT_SECONDS', default: '10' },
  { name: 'SQLITE_CACHE_MB', default: '64' },
  { name: 'DATA_DIR', default: './data' },
  { name: 'PUBLIC_BASE_URL', default: 'http://localhost:PORT' },
  { name: 'SESSION_IDLE_MINUTES', default: '60' },
  { name: 'SESSION_MAX_HOURS', default: '12' },
  { name: 'PUBLIC_CACHE_SECONDS', default: '2' },
  { name: 'STAMPED_CACHE_OFF', default: '(unset: every stamped read kept)' },
  { name: 'EMBED_ORIGINS', default: '(unset: embeds off)' },
  { name: 'TRUST_PROXY', default: 'false' },
  { name: 'APPLY_RATE_LIMIT', default: '10' },
  { name: 'APPLY_RATE_WINDOW_SECONDS', default: '600' },
  { name: 'FUNNEL_RATE_LIMIT', default: '300' },
  { name: 'FUNNEL_RATE_WINDOW_SECONDS', default: '600' },
  { name: 'FORM_RATE_LIMIT', default: '10' },
  { name: 'FORM_RATE_WINDOW_SECONDS', default: '600' },
  { name: 'CANDIDATE_RATE_LIMIT', default: '10' },
  { name: 'CANDIDATE_RATE_WINDOW_SECONDS', default: '600' },
  { name: 'OFFER_RATE_LIMIT', default: '20' },
  { name: 'OFFER_RATE_WINDOW_SECONDS', default: '600' },
  { name: 'LOGIN_RATE_LIMIT', default: '10' },
  { name: 'LOGIN_RATE_WINDOW_SECONDS', default: '900' },
  { name: 'ALERTS_RATE_LIMIT', default: '5' },
  { name: 'ALERTS_RATE_WINDOW_SECONDS', default: '3600' },
  { name: 'RATE_LIMIT_IPV6_SUBNET', default: '56' },
  { name: 'WEBHOOK_ALLOW_PRIVATE', default: 'false' },
  { name: 'CALENDAR_CACHE_SECONDS', default: '300' },
  { name: 'POSTS_SWEEP_CRON', default: '* * * * *' },
  { name: 'POSTS_WORKER', default: 'on' },
  { name: 'ALERTS_CRON', default: '0 8 * * *' },
  { name: 'POSTS_RETRY_SCHEDULE', default: DEFAULT_RETRY_SCHEDULE.join(',') },
  { name: 'POSTS_ATTEMPT_RETENTION_DAYS', default: '90' },
  { name: 'SMTP_URL', default: '(unset: no email)', secret: 'url' },
  { name: 'MAIL_FROM', default: 'careers@example.com' },
  { name: 'HR_NOTIFY_EMAIL', default: '(unset)' },
  { name: 'HR_NOTIFY_DIGEST', default: 'off' },
  { name: 'MAIL_REPLY_TO', default: '(unset)' },
  { name: 'MAIL_REPLY_TO_SENDER', default: 'false' },
  { name: 'COMPANY_NAME', default: 'Acme Corporation' },
  { name: 'COMPANY_ABOUT_URL', default: 'https://www.example.com/about' },
  { name: 'COMPANY_NETWORK_URL', default: 'https://www.linkedin.com/company/example' },
  { name: 'CAREERS_EMAIL', default: 'careers@example.com' },
  { name: 'COMPANY_LOGO_URL', default: '(unset)' },
  { name: 'APPLY_CONSENT_TEXT', default: '(unset: no consent asked)' },
  { name: 'APPLICATION_RETENTION_DAYS', default: '(unset: no retention period declared)' },
  { name: 'CANDIDATE_LINK_DAYS', default: '30' },
  { name: 'POOL_CONSENT_DAYS', default: '365' },
  { name: 'JOB_APPROVAL', default: 'off' },
  { name: 'OFFER_PDF_FONT', default: '(unset: the PDF standard fonts, Latin-1 only)' },
  { name: 'OFFER_PDF_FONT_BOLD', default: '(unset: OFFER_PDF_FONT)' },
  { name: 'JOB_CHECKS_BLOCK', default: DEFAULT_BLOCKING_CHECKS.join(',') },
  { name: 'PHONE_RULE', default: 'ten-digits' },
  { name: 'STORAGE_URL', default: '(unset: DATA_DIR/uploads)', secret: 'url' },
  { name: 'AWS_ACCESS_KEY_ID', default: "(unset: the AWS SDK's default credentials)" },
  { name: 'AWS_SECRET_ACCESS_KEY', default: '(unset)', secret: 'all' },
  { name: 'AWS_SESSION_TOKEN', default: '(unset)', secret: 'all' },
  { name: 'SHUTDOWN_TIMEOUT_SECONDS', default: '30' },
  { name: 'METRICS_TOKEN', default: '(unset: no /metrics)', secret: 'all' },
  { name: 'LOG_LEVEL', default: 'info (warn when NODE_ENV=test)' },
  { name: 'CAREERS_ENV_FILE', default: './.env' },
  ...OIDC_SETTINGS,
];

/**
 * EMBED_ORIGINS: origins (`https://www.example.com`, a port if not the default) separated by commas
 * or spaces, each as the browser names it; a path, query, credentials or a scheme other than http
 * and https is refused, as a page on another site could then frame the list.
 */
function embedOriginList(raw: string, problems: string[]): string[] {
  const origins = new Set<string>();
  for (const entry of raw.split(/[\s,]+/).filter(Boolean)) {
    let u: URL | null = null;
    try {
      u = new URL(entry);
    } catch {
      /* named below */
    }
    if (!u || !['http:', 'https:'].includes(u.protocol) || u.username || u.password || u.pathname !== '/' || u.search || u.hash) {
      problems.push(`EMBED_ORIGINS must list origins such as https://www.example.com, separated by commas (got "${entry}")`);
      continue;
    }
    origins.add(u.origin);
  }
  return [...origins];
}

/** The longest idle timeout (a day) and absolute limit (30 days) a session may have. */
const SESSION_IDLE_MINUTES_MAX = 24 * 60;
const SESSION_MAX_HOURS_MAX = 30 * 24;

/**
 * SESSION_IDLE_MINUTES and SESSION_MAX_HOURS. SESSION_TTL_SECONDS, the older name of the idle
 * timeout (from when a session simply ended that long after sign-in), still counts when
 * SESSION_IDLE_MINUTES is unset, in whole minutes, so an existing settings file keeps working.
 */
function sessionTimes(
  env: Env,
  int: (name: string, fallback: number, min: number, max: number) => number,
  problems: string[],
): Pick<Config, 'sessionIdleMinutes' | 'sessionMaxHours'> {
  const set = (name: string) => env[name] !== undefined && env[name]!.trim() !== '';
  let idle = int('SESSION_IDLE_MINUTES', 60, 1, SESSION_IDLE_MINUTES_MAX);
  if (set('SESSION_TTL_SECONDS')) {
    if (set('SESSION_IDLE_MINUTES')) {
      problems.push('SESSION_TTL_SECONDS is the older name of SESSION_IDLE_MINUTES (in seconds): set only SESSION_IDLE_MINUTES');
    } else {
      const seconds = int('SESSION_TTL_SECONDS', 3600, 60, SESSION_IDLE_MINUTES_MAX * 60);
      if (seconds % 60)
        problems.push(
          `SESSION_TTL_SECONDS must be a whole number of minutes in seconds (got "${env.SESSION_TTL_SECONDS}"); better, set SESSION_IDLE_MINUTES instead`,
        );
      else idle = seconds / 60;
    }
  }
  const max = int('SESSION_MAX_HOURS', 12, 1, SESSION_MAX_HOURS_MAX);
  if (max * 60 < idle) problems.push(`SESSION_MAX_HOURS (${max}) must be at least as long as SESSION_IDLE_MINUTES (${idle} minutes)`);
  return { sessionIdleMinutes: idle, sessionMaxHours: max };
}

/** The SQLite file of a configuration without DATABASE_URL. */
export function sqliteFile(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'careers.sqlite');
}

export function loadConfig(env: Env = readSettings().env, overrides: Partial<Config> = {}): Config {
  const problems: string[] = [];
  const rootDir = overrides.rootDir ?? findRootDir();

  const str = (name: string, fallback: string): string => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? fallback : v.trim();
  };
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') return fallback;
    if (!/^\d+$/.test(raw.trim()) || Number(raw) < min || Number(raw) > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return Number(raw);
  };
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') return fallback;
    const v = raw.trim().toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(v)) return true;
    if (['0', 'false', 'no', 'off'].includes(v)) return false;
    problems.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  };
  const url = (name: string, fallback: string, protocols: string[]): string => {
    const v = str(name, fallback);
    try {
      const u = new URL(v);
      if (!protocols.includes(u.protocol)) throw new Error('protocol');
    } catch {
      problems.push(`${name} must be a ${protocols.join(' or ')} URL (got "${v}")`);
    }
    return v;
  };
  const email = (name: string, fallback: string): string => {
    const v = str(name, fallback);
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v)) problems.push(`${name} must be an email address (got "${v}")`);
    return v;
  };

  const rawEnv = str('NODE_ENV', 'development');
  let nodeEnv: NodeEnv = 'development';
  if (rawEnv === 'development' || rawEnv === 'production' || rawEnv === 'test') nodeEnv = rawEnv;
  else problems.push(`NODE_ENV must be development, production or test (got "${rawEnv}")`);

  const rawPhoneRule = str('PHONE_RULE', 'ten-digits').toLowerCase();
  const phoneRule: PhoneRule = (PHONE_RULES as readonly string[]).includes(rawPhoneRule) ? (rawPhoneRule as PhoneRule) : 'ten-digits';
  if (phoneRule !== rawPhoneRule) problems.push(`PHONE_RULE must be one of ${PHONE_RULES.join(', ')} (got "${rawPhoneRule}")`);
  const rawLevel = str('LOG_LEVEL', nodeEnv === 'test' ? 'warn' : 'info').toLowerCase();
  const logLevel: LogLevel = (LOG_LEVELS as readonly string[]).includes(rawLevel) ? (rawLevel as LogLevel) : 'info';
  if (logLevel !== rawLevel) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${rawLevel}")`);

  const port = int('PORT', 3000, 0, 65535);
  const databaseUrl = env.DATABASE_URL?.trim() ? env.DATABASE_URL.trim() : null;
  if (databaseUrl && !/^mysql2?:\/\//.test(databaseUrl)) {
    problems.push(
      `DATABASE_URL must start with mysql:// (got "${databaseUrl.replace(/\/\/[^@]*@/, '//***@')}"); leave it unset for the embedded SQLite database`,
    );
  }
  const dataDir = path.resolve(rootDir, str('DATA_DIR', './data'));
  const embedOrigins = embedOriginList(str('EMBED_ORIGINS', ''), problems);
  const publicBaseUrl = url('PUBLIC_BASE_URL', `http://localhost:${port || 3000}`, ['http:', 'https:']).replace(/\/+$/, '');
  // Absolute links are the base plus a root-relative path, so the base must be just an origin.
  if (URL.canParse(publicBaseUrl)) {
    const base = new URL(publicBaseUrl);
    if (base.pathname !== '/' || base.search || base.hash || base.username || base.password) {
      problems.push(
        `PUBLIC_BASE_URL must be only a scheme, host and optional port, such as https://careers.example.com (got "${publicBaseUrl}"); the site is served from the root of its host`,
      );
    }
  }

  const rate = (prefix: string, limit: number, windowSeconds: number): RateLimitSetting => ({
    limit: int(`${prefix}_RATE_LIMIT`, limit, 0, 1_000_000),
    windowSeconds: int(`${prefix}_RATE_WINDOW_SECONDS`, windowSeconds, 1, 86_400 * 30),
  });

  // Off only to measure what the cache saves (bench/hr.ts --fresh): results are never stale either way.
  const stampedCacheOff = str('STAMPED_CACHE_OFF', '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean) as StampedSpace[];
  const unknownSpaces = stampedCacheOff.filter((p) => !(STAMPED_SPACES as readonly string[]).includes(p));
  if (unknownSpaces.length)
    problems.push(`STAMPED_CACHE_OFF must be a comma-separated list of ${STAMPED_SPACES.join(', ')} (got "${env.STAMPED_CACHE_OFF}")`);

  let trustProxy: TrustProxy = false;
  try {
    trustProxy = parseTrustProxy(env.TRUST_PROXY);
  } catch (err) {
    problems.push((err as Error).message);
  }

  const cron = str('POSTS_SWEEP_CRON', '* * * * *');
  if (cron !== 'off' && !nodeCron.validate(cron)) {
    problems.push(
      `POSTS_SWEEP_CRON must be a cron expression node-cron accepts (5 or 6 fields, e.g. "* * * * *"), or "off" (got "${cron}")`,
    );
  }
  const alertsCron = str('ALERTS_CRON', '0 8 * * *');
  if (alertsCron !== 'off' && !nodeCron.validate(alertsCron)) {
    problems.push(
      `ALERTS_CRON must be a cron expression node-cron accepts (5 or 6 fields, e.g. "0 8 * * *"), or "off" (got "${alertsCron}")`,
    );
  }
  const rawSchedule = str('POSTS_RETRY_SCHEDULE', DEFAULT_RETRY_SCHEDULE.join(','));
  const schedule = rawSchedule.split(',').map((p) => p.trim());
  if (schedule.length > 20 || schedule.some((p) => !/^\d{1,7}$/.test(p) || Number(p) < 1 || Number(p) > 7 * 86_400)) {
    problems.push(
      `POSTS_RETRY_SCHEDULE must be up to 20 comma-separated numbers of seconds from 1 to 604800, e.g. "${DEFAULT_RETRY_SCHEDULE.join(',')}" (got "${rawSchedule}")`,
    );
  }
  const smtpUrl = env.SMTP_URL?.trim() ? url('SMTP_URL', '', ['smtp:', 'smtps:']) : null;
  // An address, or a display name with the address in angle brackets: "Acme Careers <jobs@acme.com>".
  const mailFrom = str('MAIL_FROM', 'careers@example.com');
  if (!/^(?:[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+)$/.test(mailFrom)) {
    problems.push(`MAIL_FROM must be an email address, optionally with a name: "Careers <careers@example.com>" (got "${mailFrom}")`);
  }
  const hrNotify = env.HR_NOTIFY_EMAIL?.trim() ? email('HR_NOTIFY_EMAIL', '') : null;
  const replyTo = env.MAIL_REPLY_TO?.trim() ? email('MAIL_REPLY_TO', '') : null;
  const rawDigest = str('HR_NOTIFY_DIGEST', 'off').toLowerCase();
  const hrNotifyDigest: HrNotifyDigest = (HR_NOTIFY_DIGESTS as readonly string[]).includes(rawDigest)
    ? (rawDigest as HrNotifyDigest)
    : 'off';
  if (hrNotifyDigest !== rawDigest) problems.push(`HR_NOTIFY_DIGEST must be hourly, daily or off (got "${env.HR_NOTIFY_DIGEST}")`);
  // Published in every job page: an address with a user name or password would publish those too.
  const logoUrl = env.COMPANY_LOGO_URL?.trim() ? url('COMPANY_LOGO_URL', '', ['http:', 'https:']) : null;
  if (logoUrl && URL.canParse(logoUrl) && (new URL(logoUrl).username || new URL(logoUrl).password)) {
    problems.push(`COMPANY_LOGO_URL must not contain a user name or password (got "${logoUrl.replace(/\/\/[^@/]*@/, '//***@')}")`);
  }

  // Shown beside a checkbox and kept with every application: one plain line of text.
  const consentText = env.APPLY_CONSENT_TEXT?.trim() ? env.APPLY_CONSENT_TEXT.trim().replace(/\s+/g, ' ') : null;
  if (consentText !== null && consentText.length > APPLY_CONSENT_TEXT_MAX) {
    problems.push(
      `APPLY_CONSENT_TEXT must be at most ${APPLY_CONSENT_TEXT_MAX} characters (got ${consentText.length}); leave it unset to ask no consent`,
    );
  }

  // Issue 34: which publishing checks refuse an activation (`none`: only warnings).
  const rawBlock = str('JOB_CHECKS_BLOCK', DEFAULT_BLOCKING_CHECKS.join(','));
  const blockList = rawBlock.toLowerCase() === 'none' ? [] : rawBlock.split(',').map((p) => p.trim().toLowerCase());
  const unknownChecks = blockList.filter((p) => !(JOB_CHECK_KEYS as readonly string[]).includes(p));
  if (unknownChecks.length)
    problems.push(`JOB_CHECKS_BLOCK must be "none" or a comma-separated list of ${JOB_CHECK_KEYS.join(', ')} (got "${rawBlock}")`);
  const jobChecksBlock = unknownChecks.length ? [...DEFAULT_BLOCKING_CHECKS] : [...new Set(blockList as JobCheckKey[])];
  const retentionDays = env.APPLICATION_RETENTION_DAYS?.trim() ? int('APPLICATION_RETENTION_DAYS', 0, 1, 36_500) : null;

  // Issue 34: fonts for offer PDFs, read at start so a wrong path stops the start, not a send.
  const fontFile = (name: string): string | null => {
    const v = env[name]?.trim();
    if (!v) return null;
    const file = path.resolve(v);
    if (!/\.(ttf|otf)$/i.test(file)) problems.push(`${name} must name a .ttf or .otf font file (got "${v}")`);
    else if (!fs.existsSync(file) || !fs.statSync(file).isFile()) problems.push(`${name} names no readable file (got "${v}")`);
    else return file;
    return null;
  };
  const offerPdfFonts = { regular: fontFile('OFFER_PDF_FONT'), bold: fontFile('OFFER_PDF_FONT_BOLD') };
  if (offerPdfFonts.bold && !offerPdfFonts.regular) problems.push('OFFER_PDF_FONT_BOLD needs OFFER_PDF_FONT too');

  // Sent as `Authorization: Bearer <token>`: header-safe characters only, and long enough not to be guessed.
  const metricsToken = env.METRICS_TOKEN?.trim() ? env.METRICS_TOKEN.trim() : null;
  if (metricsToken !== null && !/^[A-Za-z0-9._~+/=-]{16,256}$/.test(metricsToken)) {
    problems.push(
      `METRICS_TOKEN must be 16 to 256 characters of A-Z a-z 0-9 . _ ~ + / = - (got ${metricsToken.length} characters${/[^A-Za-z0-9._~+/=-]/.test(metricsToken) ? ', some of them not allowed' : ''}); leave it unset to turn /metrics off`,
    );
  }

  let storage: StorageSetting = { kind: 'local', root: path.join(dataDir, 'uploads') };
  const storageUrl = env.STORAGE_URL?.trim();
  if (storageUrl) {
    const parsed = parseStorageUrl(storageUrl);
    problems.push(...parsed.problems);
    // The .env file's values count too, so they are passed on rather than left to the SDK (which reads only process.env).
    const keyId = env.AWS_ACCESS_KEY_ID?.trim();
    const secret = env.AWS_SECRET_ACCESS_KEY?.trim();
    if (!keyId !== !secret)
      problems.push(
        "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together (for STORAGE_URL), or both left unset for the AWS SDK's default credentials",
      );
    const sessionToken = env.AWS_SESSION_TOKEN?.trim();
    const credentials = keyId && secret ? { accessKeyId: keyId, secretAccessKey: secret, ...(sessionToken ? { sessionToken } : {}) } : null;
    if (parsed.s3) storage = { ...parsed.s3, credentials };
  }

  const config: Config = {
    env: nodeEnv,
    port,
    databaseUrl,
    // Each process opens up to this many; all processes together must stay under MySQL's max_connections.
    databasePoolMax: int('DATABASE_POOL_MAX', 10, 1, 1000),
    // A database that stops answering (down, saturated, or a network partition that closes
    // nothing) is a 503 within seconds, not a request held for minutes.
    databaseAcquireTimeoutSeconds: int('DATABASE_ACQUIRE_TIMEOUT_SECONDS', 5, 1, 600),
    databaseConnectTimeoutSeconds: int('DATABASE_CONNECT_TIMEOUT_SECONDS', 5, 1, 600),
    databaseStatementTimeoutSeconds: int('DATABASE_STATEMENT_TIMEOUT_SECONDS', 10, 0, 3600),
    sqliteCacheMb: int('SQLITE_CACHE_MB', 64, 2, 4096),
    dataDir,
    publicBaseUrl,
    ...sessionTimes(env, int, problems),
    publicCacheSeconds: int('PUBLIC_CACHE_SECONDS', 2, 0, 300),
    embedOrigins,
    stampedCacheOff,
    trustProxy,
    rateLimits: {
      apply: rate('APPLY', 10, 600),
      funnel: rate('FUNNEL', 300, 600),
      form: rate('FORM', 10, 600),
      candidate: rate('CANDIDATE', 10, 600),
      offer: rate('OFFER', 20, 600),
      login: rate('LOGIN', 10, 900),
      alerts: rate('ALERTS', 5, 3600),
      // 56: what ISPs commonly give one customer (RIPE-690), and express-rate-limit's default.
      ipv6Subnet: int('RATE_LIMIT_IPV6_SUBNET', 56, 32, 64),
    },
    webhookAllowPrivate: bool('WEBHOOK_ALLOW_PRIVATE', false),
    calendarCacheSeconds: int('CALENDAR_CACHE_SECONDS', 300, 0, 86_400),
    postsSweepCron: cron === 'off' ? null : cron,
    alertsCron: alertsCron === 'off' ? null : alertsCron,
    postsWorker: bool('POSTS_WORKER', true),
    postsRetrySchedule: problems.some((p) => p.startsWith('POSTS_RETRY_SCHEDULE')) ? DEFAULT_RETRY_SCHEDULE : schedule.map(Number),
    postsAttemptRetentionDays: int('POSTS_ATTEMPT_RETENTION_DAYS', 90, 1, 3650),
    mail: { smtpUrl, from: mailFrom, hrNotifyEmail: hrNotify, replyTo, replyToSender: bool('MAIL_REPLY_TO_SENDER', false), hrNotifyDigest },
    company: {
      name: str('COMPANY_NAME', 'Acme Corporation'),
      aboutUrl: url('COMPANY_ABOUT_URL', 'https://www.example.com/about', ['http:', 'https:']),
      networkUrl: url('COMPANY_NETWORK_URL', 'https://www.linkedin.com/company/example', ['http:', 'https:']),
      careersEmail: email('CAREERS_EMAIL', 'careers@example.com'),
      logoUrl,
    },
    applyConsentText: consentText,
    applicationRetentionDays: retentionDays,
    candidateLinkDays: int('CANDIDATE_LINK_DAYS', 30, 1, 365),
    poolConsentDays: int('POOL_CONSENT_DAYS', 365, 30, 1095),
    jobApproval: bool('JOB_APPROVAL', false),
    offerPdfFonts,
    jobChecksBlock,
    phoneRule,
    logLevel,
    // Positive: 0 would cut every request in flight; systemd's TimeoutStopSec must stay above it.
    shutdownTimeoutSeconds: int('SHUTDOWN_TIMEOUT_SECONDS', 30, 1, 3600),
    metricsToken,
    storage,
    oidc: parseOidc(env, problems),
    rootDir,
    ...overrides,
  };
  if (problems.length) throw new ConfigError(problems);
  return config;
}
