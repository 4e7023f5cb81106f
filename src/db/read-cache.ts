/**
 * The one cache of the app: database reads kept in memory, owned by the app context (so every app,
 * and every test database, has its own). Two ways to keep an entry:
 * - `fresh`: public reads (job lists, job pages and their HTML) live for PUBLIC_CACHE_SECONDS; a
 *   job write clears the space in this process, other processes catch up when entries expire.
 * - `stamped`: reads that must never be stale (insights, dashboard totals) are kept with a stamp
 *   the caller reads from the database on every request; a different stamp recomputes.
 * - `kept`: values named by their own content (a page by the hash of its bytes) cannot go stale:
 *   they are kept until the least recently used entries make room.
 * `put` and `peek` keep and read a public value directly (a page under the URL that asked for it),
 * for the same PUBLIC_CACHE_SECONDS; with PUBLIC_CACHE_SECONDS=0, `putVersioned` keeps one that
 * carries the version it was made at, for readers that check the version first. `endSpaceAt`
 * ends a space at a known moment (the next job closing date), whatever its entries' own
 * lifetimes. Concurrent misses of a `fresh` key share one load. Cached values are read-only.
 * - `timed`: like `fresh` but with the caller's lifetime (calendar feeds: CALENDAR_CACHE_SECONDS).
 */
import { LRUCache } from 'lru-cache';

/** What an entry belongs to; `clear(space)` drops the whole space after a write. */
export type CacheSpace = 'public-jobs' | 'insights' | 'applicant-totals' | 'pages' | 'board' | 'calendar-feeds';
export type CacheKey = `${CacheSpace}:${string}`;

interface Entry {
  value: unknown;
  stamp?: string;
}

/** Entries over all spaces; the least recently used go first. */
const MAX_ENTRIES = 1000;

export class ReadCache {
  private readonly lru = new LRUCache<CacheKey, Entry>({ max: MAX_ENTRIES });
  /** Spaces that end at a moment (ms since the epoch): every entry goes at the first use from then on. */
  private readonly spaceEnds = new Map<CacheSpace, number>();
  /** The last end each space reached: a value made before it is not kept after it. */
  private readonly spaceEnded = new Map<CacheSpace, number>();

  /** `stampedOff`: spaces whose stamped reads are never kept (STAMPED_CACHE_OFF, to measure them). */
  constructor(
    private readonly publicTtlSeconds: number,
    private readonly stampedOff: ReadonlySet<CacheSpace> = new Set(),
  ) {}

  /** Whether public reads are kept at all (PUBLIC_CACHE_SECONDS above 0). */
  get keeps(): boolean {
    return this.publicTtlSeconds > 0;
  }

  /** Every entry of the space goes at `at` (ms) at the latest; the earliest moment given wins until the space is cleared. */
  endSpaceAt(space: CacheSpace, at: number): void {
    const end = this.spaceEnds.get(space);
    if (end === undefined || at < end) this.spaceEnds.set(space, at);
  }

  /** Clears the key's space if its end has come. */
  private endIfDue(key: CacheKey): void {
    if (!this.spaceEnds.size) return;
    const space = key.slice(0, key.indexOf(':')) as CacheSpace;
    const end = this.spaceEnds.get(space);
    if (end !== undefined && end <= Date.now()) {
      this.clear(space);
      this.spaceEnded.set(space, end);
    }
  }

  /** A public read, kept for PUBLIC_CACHE_SECONDS (0: never kept). */
  fresh<T>(key: CacheKey, load: () => Promise<T>): Promise<T> {
    if (this.publicTtlSeconds <= 0) return load();
    this.endIfDue(key);
    const hit = this.lru.get(key);
    if (hit) return hit.value as Promise<T>;
    const value = load();
    this.lru.set(key, { value }, { ttl: this.publicTtlSeconds * 1000 });
    value.catch(() => {
      if (this.lru.peek(key)?.value === value) this.lru.delete(key);
    });
    return value;
  }

  /** A read kept for `ttlSeconds` (0: never kept); concurrent misses share one load, a failed load is not kept. */
  timed<T>(key: CacheKey, ttlSeconds: number, load: () => Promise<T>): Promise<T> {
    if (ttlSeconds <= 0) return load();
    const hit = this.lru.get(key);
    if (hit) return hit.value as Promise<T>;
    const value = load();
    this.lru.set(key, { value }, { ttl: ttlSeconds * 1000 });
    value.catch(() => {
      if (this.lru.peek(key)?.value === value) this.lru.delete(key);
    });
    return value;
  }

  /** A public value kept for PUBLIC_CACHE_SECONDS counted from `since` (ms), so it outlives nothing it was made from. */
  put(key: CacheKey, value: unknown, since: number): void {
    this.endIfDue(key);
    const ended = this.spaceEnded.get(key.slice(0, key.indexOf(':')) as CacheSpace);
    if (ended !== undefined && since < ended) return;
    const ttl = this.publicTtlSeconds * 1000 - (Date.now() - since);
    if (ttl > 0) this.lru.set(key, { value }, { ttl });
  }

  /**
   * A public value kept while it is valid, without a lifetime of its own (PUBLIC_CACHE_SECONDS=0):
   * the value carries the version it was made at, which its reader checks against the database
   * (src/db/public-version.ts). A write in this process clears it like the rest of its space.
   */
  putVersioned(key: CacheKey, value: unknown): void {
    this.lru.set(key, { value });
  }

  /** What `put`, `putVersioned` or `fresh` keeps under the key, without loading anything. */
  peek<T>(key: CacheKey): T | undefined {
    this.endIfDue(key);
    return this.lru.get(key)?.value as T | undefined;
  }

  /** A value named by its content: the one kept, or `make()`'s, kept from now on. */
  kept<T>(key: CacheKey, make: () => T): T {
    const hit = this.lru.get(key);
    if (hit) return hit.value as T;
    const value = make();
    this.lru.set(key, { value });
    return value;
  }

  /** A read that is recomputed whenever `stamp` (read fresh by the caller) changed. */
  async stamped<T>(key: CacheKey, stamp: string, load: () => Promise<T>): Promise<T> {
    if (this.stampedOff.size && this.stampedOff.has(key.slice(0, key.indexOf(':')) as CacheSpace)) return load();
    const hit = this.lru.get(key);
    if (hit && hit.stamp === stamp) return hit.value as T;
    const value = await load();
    this.lru.set(key, { value, stamp });
    return value;
  }

  /** After a write: every entry of the space goes (and its end with them: the next reads set it again). */
  clear(space: CacheSpace): void {
    this.spaceEnds.delete(space);
    const prefix = `${space}:`;
    for (const key of [...this.lru.keys()]) if (key.startsWith(prefix)) this.lru.delete(key);
  }
}
