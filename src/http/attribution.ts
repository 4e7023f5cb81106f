/**
 * The first touch (issue 21): where a visitor first came from, kept for 30 days in a first-party
 * cookie signed with the server key (an HMAC under the key the database keeps; no third-party
 * call), so an application sent days later is still attributed. It is written once: a public job
 * page reached through a link with `utm_source` (or `src`), with `utm_medium` and `utm_campaign`,
 * or a tracking link `/go/{slug}`; a later touch never replaces it while it is valid. A cookie
 * that does not verify, is malformed or has expired counts as none, so a forged one gains nothing.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { ServerKey } from '../db/server-key.js';
import { type Attribution, cleanCampaignValue } from '../shared/campaign.js';

const ATTRIBUTION_COOKIE = 'careers_src';
const ATTRIBUTION_DAYS = 30;
const MAX_AGE_MS = ATTRIBUTION_DAYS * 86_400_000;
/** A cookie longer than this is not ours (three values of 100 characters fit well within it). */
const COOKIE_MAX_LENGTH = 1500;

interface Signed extends Attribution {
  /** When it was set (ms since the epoch). */
  at: number;
}

/** The campaign a URL's query names: utm_source (or src) is required, the rest may be empty. */
function attributionFromQuery(query: Request['query']): Attribution | null {
  const first = (name: string) => {
    const v = query[name];
    return cleanCampaignValue(Array.isArray(v) ? v[0] : v);
  };
  const source = first('utm_source') || first('src');
  if (!source) return null;
  return { source, medium: first('utm_medium'), campaign: first('utm_campaign'), linkId: null };
}

const signature = (key: ServerKey, payload: string) => key.hash(`attribution:${payload}`);

async function encode(key: ServerKey, a: Attribution, at: number): Promise<string> {
  const payload = Buffer.from(JSON.stringify({ s: a.source, m: a.medium, c: a.campaign, l: a.linkId, t: at })).toString('base64url');
  return `${payload}.${await signature(key, payload)}`;
}

/** The attribution in the request's cookie, when it verifies and is under 30 days old. */
export async function readAttribution(req: Request, key: ServerKey, now = Date.now()): Promise<Attribution | null> {
  const raw = /(?:^|;\s*)careers_src=([^;]*)/.exec(req.headers.cookie ?? '')?.[1];
  if (!raw || raw.length > COOKIE_MAX_LENGTH) return null;
  const dot = raw.indexOf('.');
  if (dot <= 0) return null;
  const payload = raw.slice(0, dot);
  const given = Buffer.from(raw.slice(dot + 1));
  const expected = Buffer.from(await signature(key, payload));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const signed: Signed = {
    source: cleanCampaignValue(data.s),
    medium: cleanCampaignValue(data.m),
    campaign: cleanCampaignValue(data.c),
    linkId: Number.isSafeInteger(data.l) && (data.l as number) > 0 ? (data.l as number) : null,
    at: typeof data.t === 'number' ? data.t : 0,
  };
  if (!signed.source || !(signed.at <= now && now - signed.at < MAX_AGE_MS)) return null;
  return { source: signed.source, medium: signed.medium, campaign: signed.campaign, linkId: signed.linkId };
}

/** Sets the cookie unless the request already carries a valid one (the first touch is kept). */
export async function keepFirstTouch(req: Request, res: Response, key: ServerKey, a: Attribution, secure: boolean): Promise<void> {
  if (await readAttribution(req, key)) return;
  res.cookie(ATTRIBUTION_COOKIE, await encode(key, a, Date.now()), {
    maxAge: MAX_AGE_MS,
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/',
  });
}

/**
 * Keeps the first touch of a public page reached with campaign parameters (GET /careers and
 * below). Mounted before the kept public pages answer, which never carry a cookie of their own.
 */
export function firstTouchFromLinks(key: ServerKey, secure: boolean): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' || !req.path.startsWith('/careers') || !/[?&](?:utm_source|src)=/.test(req.url)) return next();
    const a = attributionFromQuery(req.query);
    if (!a) return next();
    // The page matters more than the cookie: without the key (the database is down) it goes without.
    keepFirstTouch(req, res, key, a, secure).then(
      () => next(),
      () => next(),
    );
  };
}
