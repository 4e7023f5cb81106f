/**
 * Rate-limit building blocks: the one client-address key every limiter uses (IPv6 networks,
 * IPv4-mapped addresses, ports), and the database counter's atomic increment and window reset
 * on each database, hammered by simultaneous increments.
 */
import { expect } from 'chai';
import { toDbDate } from '../../src/db/codecs.js';
import { KnexRateLimitStore } from '../../src/db/rate-limit-store.js';
import { ServerKey } from '../../src/db/server-key.js';
import { clientAddressKey } from '../../src/http/rate-limit.js';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';

describe('rate limits: client address key', () => {
  it('groups IPv6 addresses by network (/56 by default), any spelling of one network alike', () => {
    const k = (ip: string, subnet = 56) => clientAddressKey(ip, subnet);
    expect(k('2001:db8:1:100::1')).to.equal(k('2001:db8:1:1ff:ffff:ffff:ffff:ffff'));
    expect(k('2001:db8:1:100::1')).to.equal(k('2001:0DB8:0001:0100:0000:0000:0000:0002'));
    expect(k('2001:db8:1:100::1')).to.not.equal(k('2001:db8:1:200::1'));
    expect(k('2001:db8:1:100::1')).to.not.equal(k('2001:db8:2:100::1'));
    // /64: the same /56 is no longer one key, the same /64 still is.
    expect(k('2001:db8:1:100::1', 64)).to.equal(k('2001:db8:1:100:ffff::2', 64));
    expect(k('2001:db8:1:100::1', 64)).to.not.equal(k('2001:db8:1:101::1', 64));
    // /32: a whole provider block.
    expect(k('2001:db8:ffff::1', 32)).to.equal(k('2001:db8:1::1', 32));
  });

  it('counts IPv4-mapped IPv6 as the IPv4 address, and IPv4 addresses one by one', () => {
    expect(clientAddressKey('::ffff:203.0.113.5', 56)).to.equal('203.0.113.5');
    expect(clientAddressKey('::FFFF:cb00:7105', 56)).to.equal('203.0.113.5');
    expect(clientAddressKey('203.0.113.5', 56)).to.equal('203.0.113.5');
    expect(clientAddressKey('203.0.113.6', 56)).to.not.equal(clientAddressKey('203.0.113.5', 56));
  });

  it('drops a port a proxy appended, and keeps anything else as it is', () => {
    expect(clientAddressKey('203.0.113.5:61000', 56)).to.equal('203.0.113.5');
    expect(clientAddressKey('[2001:db8:1:100::1]:443', 56)).to.equal(clientAddressKey('2001:db8:1:1ff::9', 56));
    expect(clientAddressKey('[::ffff:203.0.113.5]', 56)).to.equal('203.0.113.5');
    expect(clientAddressKey(undefined, 56)).to.equal('unknown');
    expect(clientAddressKey('', 56)).to.equal('unknown');
    expect(clientAddressKey('not-an-address', 56)).to.equal('not-an-address');
  });
});

for (const kind of databaseKinds()) {
  describe(`rate limits: the database counter [${kind}]`, function () {
    this.timeout(60_000);
    let t: TestDb;
    let store: KnexRateLimitStore;
    let serverKey: ServerKey;
    /** The row key the store writes for `key`: its prefix and the keyed hash. */
    const rowKey = async (key: string) => `unit:${await serverKey.hash(key)}`;
    before(async () => {
      t = await createTestDb(kind);
      serverKey = new ServerKey(t.db);
      store = new KnexRateLimitStore(t.db, 'unit', serverKey);
      store.init({ windowMs: 60_000 } as never);
    });
    after(() => t.destroy());
    beforeEach(() => t.db('rate_limit_hits').delete());

    it('hands simultaneous increments each its own count: 1..n, never a number twice', async () => {
      for (let round = 0; round < 10; round++) {
        await t.db('rate_limit_hits').delete();
        const n = 12;
        const infos = await Promise.all(Array.from({ length: n }, () => store.increment('burst')));
        expect(
          infos.map((i) => i.totalHits).sort((a, b) => a - b),
          `round ${round}`,
        ).to.deep.equal(Array.from({ length: n }, (_, i) => i + 1));
        // Every caller got the window's one reset time.
        expect(new Set(infos.map((i) => i.resetTime!.getTime())).size).to.equal(1);
      }
    });

    it('starts a new window once reset_at has passed, also under simultaneous increments', async () => {
      const first = await store.increment('w');
      expect(first.totalHits).to.equal(1);
      expect(first.resetTime!.getTime() - Date.now()).to.be.within(55_000, 60_000);
      await store.increment('w');
      expect((await store.increment('w')).totalHits).to.equal(3);
      for (let round = 0; round < 5; round++) {
        await t
          .db('rate_limit_hits')
          .where('key', await rowKey('w'))
          .update({ hits: 7, reset_at: toDbDate(new Date(Date.now() - 1000)) });
        const infos = await Promise.all(Array.from({ length: 6 }, () => store.increment('w')));
        expect(infos.map((i) => i.totalHits).sort((a, b) => a - b)).to.deep.equal([1, 2, 3, 4, 5, 6]);
        for (const i of infos) expect(i.resetTime!.getTime() - Date.now()).to.be.within(50_000, 60_000);
      }
      // Within the window the reset time stays where the window started it.
      const inWindow = new Date(Date.now() + 5_000);
      await t
        .db('rate_limit_hits')
        .where('key', await rowKey('w'))
        .update({ hits: 2, reset_at: toDbDate(inWindow) });
      const info = await store.increment('w');
      expect(info).to.deep.equal({ totalHits: 3, resetTime: inWindow });
    });

    it('decrements and resets a key; other keys are left alone', async () => {
      await store.increment('a');
      await store.increment('a');
      await store.increment('b');
      await store.decrement('a');
      expect((await store.get('a'))!.totalHits).to.equal(1);
      await store.resetKey('a');
      expect(await store.get('a')).to.equal(undefined);
      expect((await store.get('b'))!.totalHits).to.equal(1);
    });
  });
}
