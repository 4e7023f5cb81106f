/**
 * Sending one webhook post over HTTP (undici): a keep-alive pool per origin with a bounded number
 * of connections, so thousands of posts to one slow receiver cannot take the connections others
 * need; connect timeout 5 s, 15 s in all; at most 4 KB of the answer read; redirects not followed.
 *
 * Server-side request forgery guard at send time (unless WEBHOOK_ALLOW_PRIVATE): only http(s); a
 * literal address must be globally reachable; a name is resolved in the socket's own `lookup`, every
 * address it resolves to is checked, and the socket connects to the address that was checked, so
 * no second lookup (DNS rebinding) can swap it.
 */
import dns from 'node:dns';
import type { LookupAddress, LookupAllOptions, LookupOneOptions } from 'node:dns';
import { Agent, request } from 'undici';
import { isAllowedAddress, isAllowedHost } from '../../http/private-address.js';
import type { AttemptOutcome } from '../repo.js';

const CONNECT_TIMEOUT_MS = 5_000;
const TOTAL_TIMEOUT_MS = 15_000;
const MAX_BODY_BYTES = 4096;
/** Connections per receiver origin. */
const CONNECTIONS_PER_ORIGIN = 8;

export type LookupAll = (
  hostname: string,
  options: LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

class RefusedAddress extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedAddress';
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** The socket's lookup: resolve once, check every address, hand the checked ones to the socket. */
export function guardedLookup(resolve: LookupAll, allowPrivate: boolean) {
  return (hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback) => {
    resolve(hostname, { family: options.family ?? 0, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      if (!addresses.length) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
      if (!allowPrivate && addresses.some((a) => !isAllowedAddress(a.address))) {
        return callback(new RefusedAddress(`Refused: ${hostname} resolves to an address that is not public`), []);
      }
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

export interface HttpSenderOptions {
  allowPrivate: boolean;
  /** Name resolution (tests hand in their own); dns.lookup by default. */
  lookup?: LookupAll;
  connectionsPerOrigin?: number;
  totalTimeoutMs?: number;
}

export interface HttpSender {
  post(url: string, body: string, headers: Record<string, string>): Promise<AttemptOutcome & { retryAfter: string | null }>;
  close(): Promise<void>;
}

/** Node's and undici's error codes, named as an admin acts on them. */
const CAUSES: Record<string, string> = {
  ECONNREFUSED: 'Connection refused',
  ECONNRESET: 'Connection reset',
  EPIPE: 'Connection reset',
  UND_ERR_SOCKET: 'Connection reset',
  UND_ERR_CLOSED: 'Connection reset',
  ENOTFOUND: 'Host not found',
  EAI_AGAIN: 'Host not found (DNS lookup failed)',
  EHOSTUNREACH: 'Host unreachable',
  ENETUNREACH: 'Host unreachable',
  ETIMEDOUT: 'Timed out',
  UND_ERR_CONNECT_TIMEOUT: 'Connect timed out',
  UND_ERR_HEADERS_TIMEOUT: 'Timed out',
  UND_ERR_BODY_TIMEOUT: 'Timed out',
};

/**
 * A short error text for an attempt, without a stack, naming the cause (refused address,
 * connection refused or reset, host not found, timed out, TLS) so an admin can act on it.
 */
function describe(err: unknown): string {
  const e = err as NodeJS.ErrnoException & { cause?: unknown };
  if (e?.name === 'RefusedAddress') return e.message;
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'Timed out';
  const code = typeof e?.code === 'string' ? e.code : '';
  if (CAUSES[code]) return CAUSES[code];
  if (/^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|ERR_OSSL_)/.test(code)) return `TLS error (${code})`;
  if (e?.cause instanceof Error) return describe(e.cause);
  return [code, e?.message].filter(Boolean).join(': ').slice(0, 200) || 'Request failed';
}

export function createHttpSender(opts: HttpSenderOptions): HttpSender {
  const total = opts.totalTimeoutMs ?? TOTAL_TIMEOUT_MS;
  const agent = new Agent({
    connections: opts.connectionsPerOrigin ?? CONNECTIONS_PER_ORIGIN,
    keepAliveTimeout: 10_000,
    headersTimeout: total,
    bodyTimeout: total,
    connect: {
      timeout: CONNECT_TIMEOUT_MS,
      lookup: guardedLookup(opts.lookup ?? (dns.lookup as unknown as LookupAll), opts.allowPrivate) as never,
    },
  });

  async function post(url: string, body: string, headers: Record<string, string>) {
    const started = performance.now();
    const done = (o: Omit<AttemptOutcome, 'durationMs'>, retryAfter: string | null = null) => ({
      ...o,
      durationMs: performance.now() - started,
      retryAfter,
    });
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return done({ ok: false, statusCode: null, error: 'Invalid URL' });
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:')
      return done({ ok: false, statusCode: null, error: 'Refused: only http and https URLs are posted to' });
    if (!opts.allowPrivate && !isAllowedHost(target.hostname))
      return done({ ok: false, statusCode: null, error: `Refused: ${target.hostname} is not a public address` });
    try {
      const res = await request(target, {
        dispatcher: agent,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'Careers-Webhooks/1', ...headers },
        body,
        signal: AbortSignal.timeout(total),
      });
      // At most MAX_BODY_BYTES of the answer; the rest is dropped with the connection.
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        chunks.push(chunk as Buffer);
        size += (chunk as Buffer).length;
        if (size >= MAX_BODY_BYTES) {
          res.body.destroy();
          break;
        }
      }
      const text = Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES).toString('utf8').replace(/\s+/g, ' ').trim();
      const code = res.statusCode;
      const retryAfter = res.headers['retry-after'];
      if (code >= 200 && code < 300) return done({ ok: true, statusCode: code, error: null });
      if (code >= 300 && code < 400)
        return done({
          ok: false,
          statusCode: code,
          error: `Redirect not followed${res.headers.location ? ` (to ${String(res.headers.location).slice(0, 200)})` : ''}`,
        });
      return done(
        { ok: false, statusCode: code, error: text.slice(0, 300) || `HTTP ${code}` },
        Array.isArray(retryAfter) ? retryAfter[0] : (retryAfter ?? null),
      );
    } catch (err) {
      return done({ ok: false, statusCode: null, error: describe(err) });
    }
  }

  return { post, close: () => agent.close() };
}
