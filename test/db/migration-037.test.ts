/**
 * Migration 037: the timeline's indexes. On SQLite the page's one statement reads the audit entries,
 * emails (queued and cancelled) and webhook posts of the application from them, in their order (the
 * only sorts left: the attempts and swept posts, gathered from the application's posts, and the
 * page itself); without them it sorts each source. On MySQL the indexes are there after up and gone
 * after down. Both: down and up again.
 */
import { expect } from 'chai';
import type { Knex } from 'knex';
import { migrationStatus } from '../../src/db/migrations.js';
import { isMysql } from '../../src/db/knex.js';
import { timelineKeys } from '../../src/timeline/queries.js';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';

const NAMES = ['audit_log_entity_time_idx', 'email_posts_app_time_idx', 'email_posts_app_cancelled_idx', 'application_posts_app_time_idx'];

let explained = 0;

/** The SQLite plan of the timeline's keys statement, first page or after a cursor. */
async function plan(db: Knex, cursor: boolean): Promise<string[]> {
  const queries: { sql: string; bindings: unknown[] }[] = [];
  const listen = (q: { sql: string; bindings: unknown[] }) => queries.push(q);
  db.on('query', listen);
  try {
    await timelineKeys(db, 1, 51, cursor ? { ms: Date.parse('2026-03-01T00:00:00Z'), rank: 2, seq: 10, src: 0 } : undefined);
  } finally {
    db.off('query', listen);
  }
  expect(queries).to.have.length(1);
  // A new SQL text each time: an EXPLAIN is not prepared again after a schema change.
  explained += 1;
  const rows: { detail: string }[] = await db.raw(`EXPLAIN QUERY PLAN ${queries[0].sql} /* ${explained} */`, queries[0].bindings as any);
  return rows.map((r) => r.detail);
}

async function indexNames(db: Knex): Promise<string[]> {
  if (isMysql(db)) {
    const [rows] = await db.raw('SELECT DISTINCT index_name AS name FROM information_schema.statistics WHERE table_schema = DATABASE()');
    return rows.map((r: { name: string }) => r.name);
  }
  return (await db('sqlite_master').where('type', 'index').select('name')).map((r: { name: string }) => r.name);
}

for (const kind of databaseKinds()) {
  describe(`migration 037: timeline indexes [${kind}]`, function () {
    this.timeout(120_000);
    let t: TestDb;
    before(async () => {
      t = await createTestDb(kind);
    });
    after(() => t.destroy());

    it('reads each source of a timeline page in index order, and rolls back', async () => {
      expect(await indexNames(t.db)).to.include.members(NAMES);
      if (kind === 'sqlite') {
        for (const cursor of [false, true]) {
          const steps = await plan(t.db, cursor);
          const text = steps.join('\n');
          expect(text).to.match(/SEARCH l USING COVERING INDEX audit_log_entity_time_idx/);
          expect(text).to.match(/SEARCH e USING COVERING INDEX email_posts_app_time_idx/);
          expect(text).to.match(/SEARCH e USING INDEX email_posts_app_cancelled_idx/);
          expect(text).to.match(/SEARCH p USING COVERING INDEX application_posts_app_time_idx/);
          // Sorted: the swept posts, the attempts and the page; nothing else.
          expect(steps.filter((s) => s === 'USE TEMP B-TREE FOR ORDER BY')).to.have.length(3);
          expect(text).not.to.match(/SCAN (l|e|p|t)\b/);
        }
      }
      await t.db.migrate.down({ name: '037_timeline_indexes' });
      expect((await migrationStatus(t.db)).applied).to.not.include('037_timeline_indexes');
      for (const name of NAMES) expect(await indexNames(t.db)).to.not.include(name);
      if (kind === 'sqlite') expect((await plan(t.db, false)).filter((s) => s === 'USE TEMP B-TREE FOR ORDER BY').length).to.be.above(3);
      await t.db.migrate.latest();
      expect(await indexNames(t.db)).to.include.members(NAMES);
    });
  });
}
