/**
 * A public page kept as it is sent: its bytes, a weak ETag of them, and its gzip and brotli bodies,
 * each compressed once (in the thread pool) the first time a client asks for it. Pages are
 * content-addressed in the read cache (`pages:<etag>`): a page rendered again with the same bytes
 * (its cache entry expired, or the cache is off) finds its compressed bodies already made.
 *
 * `sendSentPage` answers `If-None-Match` before any body is chosen, negotiates `Accept-Encoding`
 * (q-values, `identity`, `*`, unknown codings; brotli first on a tie, identity when nothing
 * acceptable is offered) and sends `Vary: Accept-Encoding` with every variant. The app's `compression()` leaves these answers alone (`isSentPage`).
 *
 * A page answered through `sendFreshPage` is also kept under the URL that asked for it, with the
 * headers the app had set (security headers and CSP), for the rest of its PUBLIC_CACHE_SECONDS:
 * `answerKept`, mounted before the rest of the app, answers the next request for that URL from
 * memory, as the app answered it a moment ago (a job write clears these with the page entries).
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Request, RequestHandler, Response } from 'express';
import Negotiator from 'negotiator';
import type { CacheKey, ReadCache } from '../db/read-cache.js';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

type Coding = 'br' | 'gzip';
/** negotiator 0.6.4 takes the server's preference for ties as a second argument (its types omit it). */
type PreferringNegotiator = { encodings(available: string[], preferred: string[]): string[] };
const CODINGS = ['br', 'gzip', 'identity'];
/** Brotli quality 5: near the best size for a page of this kind at a fraction of quality 11's time. */
const BROTLI_OPTIONS = {
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT },
};

/** What a kept page is unless its route says otherwise. */
const HTML = 'text/html; charset=utf-8';

class SentPage {
  private readonly encoded = new Map<Coding, Promise<Buffer>>();

  constructor(
    readonly body: Buffer,
    readonly etag: string,
    readonly contentType: string,
  ) {}

  bodyIn(coding: Coding): Promise<Buffer> {
    let body = this.encoded.get(coding);
    if (!body) {
      body = coding === 'br' ? brotli(this.body, BROTLI_OPTIONS) : gzip(this.body);
      this.encoded.set(coding, body);
    }
    return body;
  }
}

/** The page for this text: the one already kept for the same bytes and type, or a new one. */
function sentPage(cache: ReadCache, text: string, contentType: string): SentPage {
  const body = Buffer.from(text);
  const etag = `W/"${body.length.toString(16)}-${createHash('sha1').update(body).digest('base64url')}"`;
  return cache.kept(`pages:${contentType}:${etag}`, () => new SentPage(body, etag, contentType));
}

/** A page in the public cache with the moment it was rendered. */
export interface FreshPage {
  page: SentPage;
  since: number;
}

/** The page kept under `key` for PUBLIC_CACHE_SECONDS, or `render()`'s (HTML unless `contentType` says otherwise, as for the job feeds). */
export function freshPage(cache: ReadCache, key: CacheKey, render: () => Promise<string>, contentType = HTML): Promise<FreshPage> {
  return cache.fresh(key, async () => {
    const since = Date.now();
    return { page: sentPage(cache, await render(), contentType), since };
  });
}

/** An answer as answerKept replays it. */
interface KeptAnswer {
  page: SentPage;
  headers: [string, number | string | string[]][];
  route: string;
  onReplay?: (req: Request) => void;
}

/** Headers that belong to one request or to the page itself, never replayed. */
const NOT_KEPT = new Set([
  'x-request-id',
  'connection',
  'set-cookie',
  'etag',
  'vary',
  'content-type',
  'content-length',
  'content-encoding',
]);

/**
 * Sends a fresh page and keeps the answer under `urlKey` (the URL that asked for it) for
 * answerKept, which calls `onReplay` each time it answers from memory (a job page counts a view).
 */
export function sendFreshPage(
  req: Request,
  res: Response,
  cache: ReadCache,
  urlKey: CacheKey,
  { page, since }: FreshPage,
  onReplay?: (req: Request) => void,
): Promise<void> {
  const headers = Object.entries(res.getHeaders()).filter(
    ([name, value]) => !NOT_KEPT.has(name) && value !== undefined,
  ) as KeptAnswer['headers'];
  const route = (req.route as { path: string }).path;
  cache.put(urlKey, { page, headers, route: `${req.baseUrl}${route}`, onReplay } satisfies KeptAnswer, since);
  return sendSentPage(req, res, page);
}

/**
 * Answers a GET or HEAD (without a body) for a URL sendFreshPage kept, from memory: its headers,
 * then the page as the request asks for it. Anything else goes on to the app.
 */
export function answerKept(cache: ReadCache, urlKey: (url: string) => CacheKey): RequestHandler {
  return (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.headers['content-length'] || req.headers['transfer-encoding']) return next();
    const kept = cache.peek<KeptAnswer>(urlKey(req.originalUrl));
    if (!kept) return next();
    for (const [name, value] of kept.headers) res.setHeader(name, value);
    res.locals.keptRoute = kept.route;
    kept.onReplay?.(req);
    sendSentPage(req, res, kept.page).catch(next);
  };
}

/** True for a response sendSentPage is writing (compression() must not encode it again). */
export function isSentPage(res: Response): boolean {
  return res.locals.sentPage === true;
}

/** Sends the page (status 200) as the request asks: 304, brotli, gzip or as is; HEAD gets the headers only. */
async function sendSentPage(req: Request, res: Response, page: SentPage): Promise<void> {
  res.locals.sentPage = true;
  res.setHeader('ETag', page.etag);
  res.setHeader('Vary', 'Accept-Encoding');
  // Express's req.fresh (the `fresh` package): If-None-Match with `*`, lists and weak comparison;
  // a request with `Cache-Control: no-cache` always gets the page.
  if (req.fresh) {
    res.status(304).end();
    return;
  }
  const coding = (new Negotiator(req) as PreferringNegotiator).encodings(CODINGS, CODINGS)[0];
  const body = coding === 'br' || coding === 'gzip' ? await page.bodyIn(coding) : page.body;
  if (coding === 'br' || coding === 'gzip') res.setHeader('Content-Encoding', coding);
  res.status(200);
  res.setHeader('Content-Type', page.contentType);
  res.setHeader('Content-Length', body.length);
  res.end(body);
}
