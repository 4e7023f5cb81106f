import { expect } from 'chai';
import { ReadCache } from '../../src/db/read-cache.js';

describe('read cache: stamped reads', () => {
  it('keeps a stamped read while its stamp is unchanged, and recomputes it for a new stamp', async () => {
    const cache = new ReadCache(0);
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.stamped('insights:1', 'a', load)).to.equal(1);
    expect(await cache.stamped('insights:1', 'a', load)).to.equal(1);
    expect(await cache.stamped('insights:1', 'b', load)).to.equal(2);
  });

  it('computes every read of a space named in STAMPED_CACHE_OFF afresh, and keeps the other spaces', async () => {
    const cache = new ReadCache(0, new Set(['insights']));
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.stamped('insights:1', 'a', load)).to.equal(1);
    expect(await cache.stamped('insights:1', 'a', load)).to.equal(2);
    expect(await cache.stamped('applicant-totals:all', 'a', load)).to.equal(3);
    expect(await cache.stamped('applicant-totals:all', 'a', load)).to.equal(3);
  });
});

describe('read cache: a space that ends at a moment (job closing dates)', () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('drops every entry of the space at its end, whatever their own lifetimes; other spaces stay', async () => {
    const cache = new ReadCache(300);
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.fresh('public-jobs:list', load)).to.equal(1);
    cache.put('public-jobs:url:/careers', 'page', Date.now());
    expect(await cache.fresh('board:1', load)).to.equal(2);
    cache.endSpaceAt('public-jobs', Date.now() + 80);
    // A later end does not postpone the earlier one.
    cache.endSpaceAt('public-jobs', Date.now() + 60_000);
    expect(await cache.fresh('public-jobs:list', load)).to.equal(1);
    expect(cache.peek('public-jobs:url:/careers')).to.equal('page');
    await sleep(120);
    expect(cache.peek('public-jobs:url:/careers')).to.equal(undefined);
    expect(await cache.fresh('public-jobs:list', load)).to.equal(3);
    expect(await cache.fresh('board:1', load)).to.equal(2);
  });

  it('does not keep a page made before the end once the end has passed', async () => {
    const cache = new ReadCache(300);
    const madeBefore = Date.now();
    cache.endSpaceAt('public-jobs', Date.now() + 30);
    await sleep(60);
    cache.put('public-jobs:url:/careers', 'stale page', madeBefore);
    expect(cache.peek('public-jobs:url:/careers')).to.equal(undefined);
    cache.put('public-jobs:url:/careers', 'new page', Date.now());
    expect(cache.peek('public-jobs:url:/careers')).to.equal('new page');
  });

  it('a write (clear) forgets the end: the next reads set it again', async () => {
    const cache = new ReadCache(300);
    let loads = 0;
    const load = async () => ++loads;
    cache.endSpaceAt('public-jobs', Date.now() + 30);
    cache.clear('public-jobs');
    await sleep(60);
    expect(await cache.fresh('public-jobs:list', load)).to.equal(1);
    expect(await cache.fresh('public-jobs:list', load)).to.equal(1);
  });
});
