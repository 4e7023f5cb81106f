/**
 * Kept public pages answered before the app (issue 33): the server's request listener, in front of
 * the Express app. A GET or HEAD without a body for a URL whose answer the app kept
 * (src/http/sent-page.ts, `KeptAnswer`) is answered here from memory: the headers the app sent for
 * it (security headers and CSP), the request's id, `Connection: close` while the server stops,
 * `If-None-Match` answered 304 (Express's own check, the `fresh` package), the body in the coding
 * the request asks for, the request's log line and its metrics as the app writes them, and the
 * answer's own work (a job page counts a view). Everything else goes to the app as it came:
 * other methods, requests with a body, URLs nothing is kept under, and campaign links (`utm_source`
 * or `src`), whose first-touch cookie the app sets (src/http/attribution.ts).
 *
 * With PUBLIC_CACHE_SECONDS=0 a kept answer carries the public pages' version it was made at: it is
 * answered only after reading the database's version (shared reads that each begin after the
 * request came, src/db/public-version.ts) and finding it unchanged, and only before the moment it
 * stops being true (the next closing date); otherwise the app renders the page again.
 */
import type { IncomingMessage, OutgoingHttpHeader, RequestListener, ServerResponse } from 'node:http';
import fresh from 'fresh';
import type { CacheKey, ReadCache } from '../db/read-cache.js';
import type { Logger } from '../log/logger.js';
import { logRequest, markArrival, requestId, type TrustProxyFn } from './request-log.js';
import { codingFor, type KeptAnswer } from './sent-page.js';

export interface KeptPagesOptions {
  cache: ReadCache;
  /** Where an answer is kept for the URL that asked for it. */
  urlKey: (url: string) => CacheKey;
  log: Logger;
  /** The app's TRUST_PROXY test, for an incoming X-Request-Id. */
  trustProxy: TrustProxyFn;
  /** Times the answer under its route (the app's metrics). */
  timeAs: (req: IncomingMessage, res: ServerResponse, route: string) => void;
  /** While true (the server is stopping) answers ask the client to close the connection. */
  stopping: () => boolean;
  /** The public pages' version committed now (PUBLIC_CACHE_SECONDS=0), for answers kept with one. */
  version: () => Promise<string>;
}

/** A campaign link: the app keeps its first touch (a cookie), so it is never answered here. */
const CAMPAIGN = /[?&](?:utm_source|src)=/;

/** The kept answer for this request, if it may be answered from memory at all. */
function keptAnswerFor(req: IncomingMessage, o: KeptPagesOptions): KeptAnswer | undefined {
  const { method, headers, url } = req;
  if ((method !== 'GET' && method !== 'HEAD') || !url || headers['content-length'] || headers['transfer-encoding']) return undefined;
  if (method === 'GET' && CAMPAIGN.test(url)) return undefined;
  return o.cache.peek<KeptAnswer>(o.urlKey(url));
}

function answerFromMemory(req: IncomingMessage, res: ServerResponse, kept: KeptAnswer, o: KeptPagesOptions): void {
  const id = requestId(req, o.trustProxy);
  logRequest(o.log, req, res, id, () => kept.route);
  o.timeAs(req, res, kept.route);
  kept.onReplay?.(req);
  const own: OutgoingHttpHeader[] = o.stopping() ? ['X-Request-Id', id, 'Connection', 'close'] : ['X-Request-Id', id];
  const { page } = kept;
  if (fresh(req.headers, { etag: page.etag })) {
    res.writeHead(304, own.concat(kept.notModified));
    res.end();
    return;
  }
  const coding = codingFor(req.headers['accept-encoding']);
  const body = page.madeIn(coding);
  if (body) {
    res.writeHead(200, own.concat(kept.headersFor(coding, body)));
    res.end(body);
    return;
  }
  // The first request for this coding: the body is compressed once, in the thread pool.
  page.bodyIn(coding).then(
    (made) => {
      res.writeHead(200, own.concat(kept.headersFor(coding, made)));
      res.end(made);
    },
    (err: Error) => res.destroy(err),
  );
}

/** The server's listener: kept pages from memory, everything else to `app`. */
export function keptPagesFirst(app: RequestListener, o: KeptPagesOptions): RequestListener {
  return (req, res) => {
    const kept = keptAnswerFor(req, o);
    if (!kept) return app(req, res);
    const { version } = kept;
    if (!version) return answerFromMemory(req, res, kept, o);
    if (Date.now() >= version.validUntil) return app(req, res);
    // The app times the request from here if it gets it after all.
    markArrival(req);
    o.version().then(
      (now) => (now === version.stamp ? answerFromMemory(req, res, kept, o) : app(req, res)),
      // The database did not answer: the app answers as it does without it.
      () => app(req, res),
    );
  };
}
