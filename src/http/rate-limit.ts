/**
 * Rate limits (express-rate-limit) whose counters live in the database, so every process behind a
 * load balancer shares them. A limit of 0 turns the limiter off (DESIGN.md section 3a). Every
 * limiter, now and later (public forms), is made with `dbRateLimit`, so all of them key clients
 * the same way (`clientAddressKey`).
 */
import net from 'node:net';
import type { Request, RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit, type ClientRateLimitInfo, type Options, type Store } from 'express-rate-limit';
import type { Knex } from 'knex';
import type { RateLimitSetting } from '../../config/index.js';
import type { AppContext } from '../context.js';
import { fromDbDate, toDbDate } from '../db/codecs.js';
import { withDbRetry } from '../db/errors.js';
import { isMysql } from '../db/knex.js';
import { TooManyRequests } from './errors.js';

interface HitsRow {
  hits: number | string;
  reset_at: unknown;
}

export class KnexRateLimitStore implements Store {
  windowMs = 60_000;
  localKeys = false;
  constructor(private readonly db: Knex, public readonly prefix: string) {}

  init(options: Options): void {
    this.windowMs = options.windowMs;
  }

  private key(key: string): string {
    return `${this.prefix}:${key}`.slice(0, 191);
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const row = await this.db('rate_limit_hits').where({ key: this.key(key) }).first();
    if (!row) return undefined;
    const resetTime = fromDbDate(row.reset_at)!;
    return resetTime <= new Date() ? undefined : { totalHits: Number(row.hits), resetTime };
  }

  /**
   * Counts one hit and reads the count back as one atomic step, so simultaneous requests never
   * see each other's hits (an increment followed by a separate read let all of them see the
   * final count and refused too many). The window starts again once `reset_at` has passed.
   */
  async increment(key: string): Promise<ClientRateLimitInfo> {
    const k = this.key(key);
    const now = new Date();
    const nowDb = toDbDate(now);
    const reset = toDbDate(new Date(now.getTime() + this.windowMs));
    const row = isMysql(this.db) ? await this.incrementMysql(k, nowDb, reset) : await this.incrementSqlite(k, nowDb, reset);
    return { totalHits: Number(row.hits), resetTime: fromDbDate(row.reset_at)! };
  }

  /** SQLite: one upsert statement that returns the row it wrote (SQLite runs one writer at a time). */
  private async incrementSqlite(k: string, nowDb: string, reset: string): Promise<HitsRow> {
    const rows: HitsRow[] = await this.db.raw(
      `INSERT INTO rate_limit_hits (\`key\`, hits, reset_at) VALUES (?, 1, ?)
       ON CONFLICT (\`key\`) DO UPDATE SET
         hits = CASE WHEN rate_limit_hits.reset_at <= ? THEN 1 ELSE rate_limit_hits.hits + 1 END,
         reset_at = CASE WHEN rate_limit_hits.reset_at <= ? THEN excluded.reset_at ELSE rate_limit_hits.reset_at END
       RETURNING hits, reset_at`,
      [k, reset, nowDb, nowDb],
    );
    return rows[0];
  }

  /**
   * MySQL/MariaDB: MySQL 8 has no RETURNING, so the upsert and the read share one transaction.
   * The upsert takes the row's exclusive lock and holds it until COMMIT, so no other increment
   * can land between it and the read. The assignments run left to right and each sees the
   * columns already assigned, so `hits` is computed first, from the old `reset_at`.
   */
  private async incrementMysql(k: string, nowDb: string, reset: string): Promise<HitsRow> {
    return withDbRetry(() =>
      this.db.transaction(async (trx) => {
        await trx.raw(
          `INSERT INTO rate_limit_hits (\`key\`, hits, reset_at) VALUES (?, 1, ?)
           ON DUPLICATE KEY UPDATE hits = IF(reset_at <= ?, 1, hits + 1), reset_at = IF(reset_at <= ?, ?, reset_at)`,
          [k, reset, nowDb, nowDb, reset],
        );
        return (await trx('rate_limit_hits').select('hits', 'reset_at').where({ key: k }).forUpdate().first()) as HitsRow;
      }),
    );
  }

  async decrement(key: string): Promise<void> {
    await this.db('rate_limit_hits').where({ key: this.key(key) }).where('hits', '>', 0).decrement('hits', 1);
  }

  async resetKey(key: string): Promise<void> {
    await this.db('rate_limit_hits').where({ key: this.key(key) }).delete();
  }
}

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

export function dbRateLimit(ctx: Pick<AppContext, 'db' | 'config'>, opts: LimiterOptions): RequestHandler {
  if (opts.setting.limit === 0) return (_req, _res, next) => next();
  const { ipv6Subnet } = ctx.config.rateLimits;
  return rateLimit({
    windowMs: opts.setting.windowSeconds * 1000,
    limit: opts.setting.limit,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    store: new KnexRateLimitStore(ctx.db, opts.name),
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
 * Seconds until the client's window resets (Retry-After), rounded up and at least 1; the whole
 * window only when the store gave no reset time.
 */
export function retryAfterSeconds(resetTime: Date | undefined, windowMs: number, now = Date.now()): number {
  if (!(resetTime instanceof Date) || Number.isNaN(resetTime.getTime())) return Math.max(1, Math.ceil(windowMs / 1000));
  return Math.min(Math.max(1, Math.ceil((resetTime.getTime() - now) / 1000)), Math.max(1, Math.ceil(windowMs / 1000)));
}

/** "Too many attempts. Please try again in 10 minutes." */
export function tooManyMessage(what: string, windowSeconds: number): string {
  const minutes = Math.ceil(windowSeconds / 60);
  const span = windowSeconds < 60 ? `${windowSeconds} seconds` : minutes === 1 ? '1 minute' : `${minutes} minutes`;
  return `Too many ${what}. Please try again in ${span}.`;
}
