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
