/**
 * Micro-cache for the public job reads (list pages, job pages, public API). Public pages are the
 * hot path and change rarely, so each process keeps what it read for a couple of seconds
 * (PUBLIC_CACHE_SECONDS, 0 turns it off). Every job write through the repo clears this process's
 * cache at once; other processes see the change when their entries expire.
 * Caches are kept per database (keyed by the Knex client config, which transactions share), so
 * several apps in one process (tests) never see each other's data. Cached values are read-only.
 */
import type { Knex } from 'knex';

interface Entry {
  value: Promise<unknown>;
  expires: number;
}

const MAX_ENTRIES = 500;
const caches = new WeakMap<object, Map<string, Entry>>();

function cacheFor(db: Knex): Map<string, Entry> {
  const key = db.client.config as object;
  let cache = caches.get(key);
  if (!cache) {
    cache = new Map();
    caches.set(key, cache);
  }
  return cache;
}

export function cachedPublicRead<T>(db: Knex, ttlSeconds: number, key: string, load: () => Promise<T>): Promise<T> {
  if (ttlSeconds <= 0) return load();
  const cache = cacheFor(db);
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && hit.expires > now) return hit.value as Promise<T>;
  // The promise itself is cached, so concurrent misses share one query.
  const value = load();
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(key, { value, expires: now + ttlSeconds * 1000 });
  value.catch(() => cache.delete(key));
  return value;
}

export function invalidatePublicJobs(db: Knex): void {
  caches.get(db.client.config as object)?.clear();
}
