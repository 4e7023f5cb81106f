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
 * headers the app had set (security headers and CSP), as a `KeptAnswer`: src/http/kept-pages.ts
 * answers the next GET or HEAD for that URL from it, before the app, with the same headers. It is
 * kept for the rest of its PUBLIC_CACHE_SECONDS (a job write in this process clears it), or, with
 * PUBLIC_CACHE_SECONDS=0, with the public pages' version read before its data and the moment it
 * stops being true (the next closing date), answered only while the database's version is still
 * that one (src/db/public-version.ts).
 */
import { createHash } from 'node:crypto';
import type { ClientRequest, IncomingMessage, OutgoingHttpHeader } from 'node:http';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Request, Response } from 'express';
import Negotiator from 'negotiator';
import type { CacheKey, ReadCache } from '../db/read-cache.js';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export type Coding = 'br' | 'gzip' | 'identity';
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
  private readonly made = new Map<Coding, Buffer>();

  constructor(
    readonly body: Buffer,
    readonly etag: string,
    readonly contentType: string,
  ) {
    this.made.set('identity', body);
  }

  bodyIn(coding: Coding): Promise<Buffer> {
    let body = this.encoded.get(coding);
    if (!body) {
      body = coding === 'identity' ? Promise.resolve(this.body) : coding === 'br' ? brotli(this.body, BROTLI_OPTIONS) : gzip(this.body);
      body.then((b) => this.made.set(coding, b)).catch(() => undefined);
      this.encoded.set(coding, body);
    }
    return body;
  }

  /** The body in `coding` if it has been made already. */
  madeIn(coding: Coding): Buffer | undefined {
    return this.made.get(coding);
  }
}

/** Accept-Encoding values already negotiated (short ones, the few that browsers and clients send). */
const negotiated = new Map<string, Coding>();
const NEGOTIATED_MAX = 256;
const NEGOTIATED_KEY_MAX = 200;

/** The coding this Accept-Encoding asks for among br, gzip and identity (brotli first on a tie; identity when none is acceptable). */
export function codingFor(acceptEncoding: string | undefined): Coding {
  const key = acceptEncoding ?? '';
  const known = negotiated.get(key);
  if (known) return known;
  const headers = acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };
  const coding = ((new Negotiator({ headers }) as PreferringNegotiator).encodings(CODINGS, CODINGS)[0] ?? 'identity') as Coding;
  if (key.length <= NEGOTIATED_KEY_MAX) {
    if (negotiated.size >= NEGOTIATED_MAX) negotiated.clear();
    negotiated.set(key, coding);
  }
  return coding;
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

/**
 * With PUBLIC_CACHE_SECONDS=0: the public pages' version read before a page's data, and the moment
 * (ms) from which the page may no longer be true without any write (the next closing date).
 */
export interface PageVersion {
  stamp: string;
  validUntil: number;
}

type FlatHeaders = OutgoingHttpHeader[];

/** An answer as src/http/kept-pages.ts replays it: every header but the request's own, ready to write. */
export class KeptAnswer {
  /** A 304's headers: those the app had set, then ETag and Vary. */
  readonly notModified: FlatHeaders;
  private readonly ok = new Map<Coding, FlatHeaders>();

  constructor(
    readonly page: SentPage,
    appHeaders: FlatHeaders,
    /** The route that made it (the log's and the metrics' label). */
    readonly route: string,
    /** Called for each answer from it (a job page counts a view). */
    readonly onReplay: ((req: IncomingMessage) => void) | undefined,
    /** Set with PUBLIC_CACHE_SECONDS=0: answered only while the database's version is this one, and until `validUntil`. */
    readonly version: PageVersion | undefined,
  ) {
    this.notModified = [...appHeaders, 'ETag', page.etag, 'Vary', 'Accept-Encoding'];
  }

  /** A 200's headers for the body in `coding`, as sendSentPage sets them. */
  headersFor(coding: Coding, body: Buffer): FlatHeaders {
    let headers = this.ok.get(coding);
    if (!headers) {
      headers = [
        ...this.notModified,
        ...(coding === 'identity' ? [] : ['Content-Encoding', coding]),
        'Content-Type',
        this.page.contentType,
        'Content-Length',
        String(body.length),
      ];
      this.ok.set(coding, headers);
    }
    return headers;
  }
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
 * src/http/kept-pages.ts, which calls `onReplay` each time it answers from memory (a job page
 * counts a view). `version` (PUBLIC_CACHE_SECONDS=0): the version read before the page's data; the
 * answer is kept with it instead of for PUBLIC_CACHE_SECONDS.
 */
export function sendFreshPage(
  req: Request,
  res: Response,
  cache: ReadCache,
  urlKey: CacheKey,
  { page, since }: FreshPage,
  onReplay?: (req: IncomingMessage) => void,
  version?: PageVersion | null,
): Promise<void> {
  const appHeaders: FlatHeaders = [];
  // The names as the app set them (getRawHeaderNames is OutgoingMessage's; @types/node lists it on ClientRequest only).
  for (const name of (res as unknown as ClientRequest).getRawHeaderNames()) {
    const value = res.getHeader(name);
    if (value !== undefined && !NOT_KEPT.has(name.toLowerCase())) appHeaders.push(name, value as OutgoingHttpHeader);
  }
  const route = `${req.baseUrl}${(req.route as { path: string }).path}`;
  if (version) cache.putVersioned(urlKey, new KeptAnswer(page, appHeaders, route, onReplay, version));
  else cache.put(urlKey, new KeptAnswer(page, appHeaders, route, onReplay, undefined), since);
  return sendSentPage(req, res, page);
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
  const coding = codingFor(req.headers['accept-encoding']);
  const body = page.madeIn(coding) ?? (await page.bodyIn(coding));
  if (coding !== 'identity') res.setHeader('Content-Encoding', coding);
  res.status(200);
  res.setHeader('Content-Type', page.contentType);
  res.setHeader('Content-Length', body.length);
  res.end(body);
}
