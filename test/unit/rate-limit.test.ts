/**
 * Rate-limit building blocks: the database counter's atomic increment and window reset on each
 * database, hammered by simultaneous increments.
 */
import { expect } from 'chai';
import { toDbDate } from '../../src/db/codecs.js';
import { KnexRateLimitStore } from '../../src/http/rate-limit.js';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';

for (const kind of databaseKinds()) {
  describe(`rate limits: the database counter [${kind}]`, function () {
    this.timeout(60_000);
    let t: TestDb;
    let store: KnexRateLimitStore;
    before(async () => {
      t = await createTestDb(kind);
      store = new KnexRateLimitStore(t.db, 'unit');
      store.init({ windowMs: 60_000 } as never);
    });
    after(() => t.destroy());
    beforeEach(() => t.db('rate_limit_hits').delete());

    it('hands simultaneous increments each its own count: 1..n, never a number twice', async () => {
      for (let round = 0; round < 10; round++) {
        await t.db('rate_limit_hits').delete();
        const n = 12;
        const infos = await Promise.all(Array.from({ length: n }, () => store.increment('burst')));
        expect(infos.map((i) => i.totalHits).sort((a, b) => a - b), `round ${round}`).to.deep.equal(Array.from({ length: n }, (_, i) => i + 1));
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
        await t.db('rate_limit_hits').where('key', 'unit:w').update({ hits: 7, reset_at: toDbDate(new Date(Date.now() - 1000)) });
        const infos = await Promise.all(Array.from({ length: 6 }, () => store.increment('w')));
        expect(infos.map((i) => i.totalHits).sort((a, b) => a - b)).to.deep.equal([1, 2, 3, 4, 5, 6]);
        for (const i of infos) expect(i.resetTime!.getTime() - Date.now()).to.be.within(50_000, 60_000);
      }
      // Within the window the reset time stays where the window started it.
      const inWindow = new Date(Date.now() + 5_000);
      await t.db('rate_limit_hits').where('key', 'unit:w').update({ hits: 2, reset_at: toDbDate(inWindow) });
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
