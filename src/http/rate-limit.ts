/**
 * Rate limits (express-rate-limit) whose counters live in the database, so every process behind a
 * load balancer shares them. A limit of 0 turns the limiter off (DESIGN.md section 3a). Every
 * limiter, now and later (public forms), is made with `dbRateLimit`, so all of them key clients
 * the same way (`clientAddressKey`).
 */
import net from 'node:net';
import type { Request, RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import type { Db } from '../db/knex.js';
import type { Config, RateLimitSetting } from '../../config/index.js';
import { KnexRateLimitStore } from '../db/rate-limit-store.js';
import type { ServerKey } from '../db/server-key.js';
import { TooManyRequests } from './errors.js';

/**
 * The rate-limit key of a client address. `ip` is Express's req.ip: with TRUST_PROXY, the address
 * the nearest trusted proxy saw, never an X-Forwarded-For entry the client wrote.
 * - IPv6 addresses count per network of `ipv6Subnet` bits (express-rate-limit's ipKeyGenerator):
 *   one host commonly holds a whole /64 or more and could take a fresh address per request.
 * - IPv4-mapped IPv6 (::ffff:192.0.2.1, how a dual-stack socket shows IPv4 clients) counts as
 *   the IPv4 address, so one client is one key whichever way it arrived.
 * - A port some proxies append (192.0.2.1:5000, [2001:db8::1]:5000) is dropped, or every
 *   connection would be a new key.
 */
export function clientAddressKey(ip: string | undefined, ipv6Subnet: number): string {
  if (!ip) return 'unknown';
  let address = ip.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) address = bracketed[1];
  else if (/^[\d.]+:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(':'));
  return net.isIP(address) ? ipKeyGenerator(address, ipv6Subnet) : address;
}

export interface LimiterOptions {
  name: string;
  setting: RateLimitSetting;
  message: string;
  /** The key from the request and the client address key; defaults to the client address key. */
  key?: (req: Request, client: string) => string;
  /** Count only failed attempts (sign-in). */
  skipSuccessfulRequests?: boolean;
}

export function dbRateLimit(ctx: { db: Db; config: Config; serverKey: ServerKey }, opts: LimiterOptions): RequestHandler {
  if (opts.setting.limit === 0) return (_req, _res, next) => next();
  const { ipv6Subnet } = ctx.config.rateLimits;
  return rateLimit({
    windowMs: opts.setting.windowSeconds * 1000,
    limit: opts.setting.limit,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    store: new KnexRateLimitStore(ctx.db, opts.name, ctx.serverKey),
    skipSuccessfulRequests: opts.skipSuccessfulRequests ?? false,
    keyGenerator: (req) => {
      const client = clientAddressKey(req.ip, ipv6Subnet);
      return opts.key ? opts.key(req, client) : client;
    },
    // That check reads the key function's source for ipKeyGenerator; clientAddressKey calls it.
    validate: { keyGeneratorIpFallback: false },
    handler: (req, _res, next, options) => {
      const info = (req as unknown as Record<string, { resetTime?: Date } | undefined>)[options.requestPropertyName];
      next(new TooManyRequests(opts.message, retryAfterSeconds(info?.resetTime, options.windowMs)));
    },
  });
}

/**
 * Whether this is a client's first time for `what` in the current window of `windowSeconds`:
 * the hits are counted in the rate-limit store (the database, keyed by a hash with the server key
 * of `what` and the client address key, like every limit), so every process shares them. Used
 * where a repeat is still served but not counted again (a tracking link's clicks).
 */
export function firstInWindow(
  ctx: { db: Db; config: Config; serverKey: ServerKey },
  name: string,
  windowSeconds: number,
): (req: Request, what: string) => Promise<boolean> {
  const store = new KnexRateLimitStore(ctx.db, name, ctx.serverKey);
  store.windowMs = windowSeconds * 1000;
  const { ipv6Subnet } = ctx.config.rateLimits;
  return async (req, what) => (await store.increment(`${what}|${clientAddressKey(req.ip, ipv6Subnet)}`)).totalHits === 1;
}

/**
 * Seconds until the client's window resets (Retry-After), rounded up and at least 1; the whole
 * window only when the store gave no reset time.
 */
function retryAfterSeconds(resetTime: Date | undefined, windowMs: number, now = Date.now()): number {
  if (!(resetTime instanceof Date) || Number.isNaN(resetTime.getTime())) return Math.max(1, Math.ceil(windowMs / 1000));
  return Math.min(Math.max(1, Math.ceil((resetTime.getTime() - now) / 1000)), Math.max(1, Math.ceil(windowMs / 1000)));
}

/** "Too many attempts. Please try again in 10 minutes." */
export function tooManyMessage(what: string, windowSeconds: number): string {
  const minutes = Math.ceil(windowSeconds / 60);
  const span = windowSeconds < 60 ? `${windowSeconds} seconds` : minutes === 1 ? '1 minute' : `${minutes} minutes`;
  return `Too many ${what}. Please try again in ${span}.`;
}
