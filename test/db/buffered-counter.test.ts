/**
 * src/db/buffered-counter.ts, the one mechanism behind job views and funnel counts: counts per key
 * in memory, a batch per flush through the writer, counts kept across a flush the database refused.
 * (The real counters over a real database, through an outage: test/db/db-outage.test.ts,
 * test/funnel/funnel-api.test.ts, test/site/site.test.ts.)
 */
import { expect } from 'chai';
import { BufferedCounter } from '../../src/db/buffered-counter.js';
import { dbLog } from '../../src/db/errors.js';
import { processLog } from '../../src/log/logger.js';
import { captureLog } from '../helpers/log.js';

type Hit = { key: string; count: number };
const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3306'), { code: 'ECONNREFUSED' });

describe('BufferedCounter (src/db/buffered-counter.ts)', () => {
  const written: Hit[][] = [];
  let failWith: Error | null = null;
  const counter = (flushMs = 5000) =>
    new BufferedCounter<Hit>({
      name: 'test counter',
      keyOf: (c) => c.key,
      write: async (batch) => {
        if (failWith) throw failWith;
        written.push(batch.map((c) => ({ ...c })));
      },
      log: processLog(),
      flushMs,
    });
  beforeEach(() => {
    written.length = 0;
    failWith = null;
  });

  it('adds counts of one key together and writes them in one batch; an empty flush writes nothing', async () => {
    const c = counter();
    c.add({ key: 'a', count: 1 });
    c.add({ key: 'b', count: 2 });
    c.add({ key: 'a', count: 3 });
    await c.flush();
    await c.flush();
    expect(written).to.deep.equal([
      [
        { key: 'a', count: 4 },
        { key: 'b', count: 2 },
      ],
    ]);
  });

  it('keeps the counts of a flush the database refused, with those counted meanwhile, and writes them once it is back', async () => {
    const c = counter();
    c.add({ key: 'a', count: 3 });
    failWith = refused();
    let failed: unknown = null;
    await c.flush().catch((err) => (failed = err));
    expect(failed).to.equal(failWith);
    c.add({ key: 'a', count: 1 });
    failWith = null;
    await c.flush();
    expect(written).to.deep.equal([[{ key: 'a', count: 4 }]]);
  });

  it('drops a batch that failed for another reason (as a retry would fail the same way)', async () => {
    const c = counter();
    c.add({ key: 'a', count: 1 });
    failWith = new Error('no such column');
    await c.flush().catch(() => undefined);
    failWith = null;
    await c.flush();
    expect(written).to.deep.equal([]);
  });

  it('flushes on its own after flushMs, and after an outage tries again on the timer; failures are logged, never thrown', async () => {
    const log = captureLog();
    try {
      const c = counter(20);
      failWith = refused();
      c.add({ key: 'a', count: 2 });
      await new Promise((r) => setTimeout(r, 60));
      expect(written).to.deep.equal([]);
      failWith = null;
      await new Promise((r) => setTimeout(r, 60));
      expect(written).to.deep.equal([[{ key: 'a', count: 2 }]]);
      failWith = new Error('no such column');
      c.add({ key: 'b', count: 1 });
      await new Promise((r) => setTimeout(r, 60));
      // The database's log lines are one a second per process: a test file run just before in this
      // process may have used that second, and then this line is held back until the throttle writes it.
      dbLog.flush();
      const lines = log.lines().join('\n');
      expect(lines).to.include('[db] database unavailable (connect ECONNREFUSED 127.0.0.1:3306) in the test counter');
      expect(lines).to.include('test counter flush failed');
    } finally {
      log.restore();
    }
  });
});
