/**
 * Rate limits (express-rate-limit) whose counters live in the database, so every process behind a
 * load balancer shares them. A limit of 0 turns the limiter off (DESIGN.md section 3a).
 */
import type { Request, RequestHandler } from 'express';
import { rateLimit, type ClientRateLimitInfo, type Options, type Store } from 'express-rate-limit';
import type { Knex } from 'knex';
import type { RateLimitSetting } from '../../config/index.js';
import { fromDbDate, toDbDate } from '../db/codecs.js';
import { TooManyRequests } from './errors.js';

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

  async increment(key: string): Promise<ClientRateLimitInfo> {
    const k = this.key(key);
    const now = new Date();
    const nowDb = toDbDate(now);
    const reset = toDbDate(new Date(now.getTime() + this.windowMs));
    // One statement either starts a new window or counts within the current one.
    const updated = await this.db('rate_limit_hits')
      .where({ key: k })
      .update({
        hits: this.db.raw('CASE WHEN reset_at <= ? THEN 1 ELSE hits + 1 END', [nowDb]),
        reset_at: this.db.raw('CASE WHEN reset_at <= ? THEN ? ELSE reset_at END', [nowDb, reset]),
      });
    if (!updated) {
      await this.db('rate_limit_hits').insert({ key: k, hits: 1, reset_at: reset }).onConflict('key').merge({
        hits: this.db.raw('rate_limit_hits.hits + 1'),
      });
    }
    const row = await this.db('rate_limit_hits').where({ key: k }).first();
    return { totalHits: Number(row.hits), resetTime: fromDbDate(row.reset_at)! };
  }

  async decrement(key: string): Promise<void> {
    await this.db('rate_limit_hits').where({ key: this.key(key) }).where('hits', '>', 0).decrement('hits', 1);
  }

  async resetKey(key: string): Promise<void> {
    await this.db('rate_limit_hits').where({ key: this.key(key) }).delete();
  }
}

export interface LimiterOptions {
  name: string;
  setting: RateLimitSetting;
  message: string;
  /** Defaults to the client IP. */
  key?: (req: Request) => string;
  /** Count only failed attempts (sign-in). */
  skipSuccessfulRequests?: boolean;
}

export function dbRateLimit(db: Knex, opts: LimiterOptions): RequestHandler {
  if (opts.setting.limit === 0) return (_req, _res, next) => next();
  return rateLimit({
    windowMs: opts.setting.windowSeconds * 1000,
    limit: opts.setting.limit,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    store: new KnexRateLimitStore(db, opts.name),
    skipSuccessfulRequests: opts.skipSuccessfulRequests ?? false,
    keyGenerator: opts.key ?? ((req) => req.ip ?? 'unknown'),
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
