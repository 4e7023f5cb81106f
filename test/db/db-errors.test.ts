/**
 * Database errors as the drivers really raise them (mysql2 against ports that refuse, hang up,
 * never answer or answer MySQL's "Too many connections"; better-sqlite3 on a locked, unopenable
 * or closed database), classified as "unavailable" (503) or not, and as a COMMIT that was
 * certainly refused or whose outcome is unknown. Also the throttled log that keeps an outage's
 * log short.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { once } from 'node:events';
import knexFactory, { type Knex } from 'knex';
import { expect } from 'chai';
import { describeDbError, isCommitRefused, isDatabaseUnavailable } from '../../src/db/errors.js';
import { ThrottledLog } from '../../src/db/throttled-log.js';
import { freePort } from '../helpers/child-server.js';
import { startTcpProxy, type ProxyMode } from '../helpers/tcp-proxy.js';
import { openSqlite } from '../helpers/sqlite.js';

async function caught(p: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await p;
  } catch (err) {
    return err as Error & Record<string, unknown>;
  }
  throw new Error('expected a failure');
}

function mysqlAt(port: number, acquireMs = 3000): Knex {
  return knexFactory({
    client: 'mysql2',
    connection: { host: '127.0.0.1', port, user: 'x', database: 'x', connectTimeout: 2000 },
    pool: { min: 0, max: 1 },
    acquireConnectionTimeout: acquireMs,
    log: { warn: () => undefined, error: () => undefined } as any,
  });
}

describe('database errors: what counts as "unavailable"', function () {
  this.timeout(30_000);
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'careers-db-errors-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  describe('mysql2 through Knex', () => {
    it('a refused connection (ECONNREFUSED)', async () => {
      const db = mysqlAt(await freePort());
      const err = await caught(db.raw('select 1'));
      await db.destroy();
      expect(err.code).to.equal('ECONNREFUSED');
      expect(isDatabaseUnavailable(err)).to.equal(true);
    });

    it('a server that hangs up at once (PROTOCOL_CONNECTION_LOST)', async () => {
      const server = net.createServer((s) => s.destroy()).listen(0, '127.0.0.1');
      await once(server, 'listening');
      const db = mysqlAt((server.address() as net.AddressInfo).port);
      const err = await caught(db.raw('select 1'));
      await db.destroy();
      server.close();
      expect(isDatabaseUnavailable(err), `${err.code} ${err.message}`).to.equal(true);
    });

    for (const [mode, expected] of [
      ['too-many', 'ER_CON_COUNT_ERROR'],
      ['hang', 'KnexTimeoutError'],
    ] as [ProxyMode, string][]) {
      it(`a server that ${mode === 'hang' ? 'never answers (pool acquire timeout)' : 'has too many connections'}: ${expected}`, async () => {
        // The proxy answers by itself in these modes: no MySQL server is needed.
        const proxy = await startTcpProxy({ host: '127.0.0.1', port: await freePort() });
        proxy.mode = mode;
        const db = mysqlAt(proxy.port, 1000);
        const err = await caught(db.raw('select 1'));
        await db.destroy();
        await proxy.close();
        expect(err.code ?? err.name).to.equal(expected);
        expect(isDatabaseUnavailable(err)).to.equal(true);
      });
    }

    it('server error shapes: gone away, lost, killed, shut down, lock waits are unavailable; bad SQL and duplicates are not', () => {
      const e = (props: Record<string, unknown>) => Object.assign(new Error('x'), props);
      for (const props of [
        { errno: 2006, code: 'CR_SERVER_GONE_ERROR' },
        { errno: 2013 },
        { code: 'ER_CONNECTION_KILLED', errno: 1927 },
        { code: 'ER_SERVER_SHUTDOWN', errno: 1053 },
        { code: 'ER_LOCK_WAIT_TIMEOUT', errno: 1205 },
        { code: 'ER_LOCK_DEADLOCK', errno: 1213 },
        { code: 'ER_TOO_MANY_USER_CONNECTIONS', errno: 1203 },
        { code: 'ECONNRESET', errno: -104 },
        { code: 'ETIMEDOUT' },
        { message: "Can't add new command when connection is in closed state", fatal: true },
      ]) {
        expect(isDatabaseUnavailable(e(props)), JSON.stringify(props)).to.equal(true);
      }
      for (const props of [
        { code: 'ER_PARSE_ERROR', errno: 1064 },
        { code: 'ER_DUP_ENTRY', errno: 1062 },
        { code: 'ER_NO_SUCH_TABLE', errno: 1146 },
        { code: 'ENOENT' },
        {},
      ]) {
        expect(isDatabaseUnavailable(e(props)), JSON.stringify(props)).to.equal(false);
      }
      expect(isDatabaseUnavailable(null)).to.equal(false);
      expect(isDatabaseUnavailable('ECONNREFUSED')).to.equal(false);
    });
  });

  describe('better-sqlite3', () => {
    it('busy: another connection holds the write lock beyond busy_timeout (SQLITE_BUSY)', () => {
      const file = path.join(dir, 'busy.sqlite');
      const a = openSqlite(file);
      a.pragma('journal_mode = WAL');
      a.exec('create table t (id integer primary key)');
      const b = openSqlite(file);
      b.pragma('busy_timeout = 50');
      a.exec('BEGIN IMMEDIATE');
      let err: any = null;
      try {
        b.prepare('insert into t values (1)').run();
      } catch (e) {
        err = e;
      }
      a.exec('ROLLBACK');
      a.close();
      b.close();
      expect(err.code).to.equal('SQLITE_BUSY');
      expect(isDatabaseUnavailable(err)).to.equal(true);
      expect(isCommitRefused(err)).to.equal(true);
    });

    it('cannot open the file (SQLITE_CANTOPEN), and a closed handle', () => {
      fs.mkdirSync(path.join(dir, 'a-folder.sqlite'));
      let err: any = null;
      try {
        openSqlite(path.join(dir, 'a-folder.sqlite')).prepare('select 1').get();
      } catch (e) {
        err = e;
      }
      expect(err.code).to.equal('SQLITE_CANTOPEN');
      expect(isDatabaseUnavailable(err)).to.equal(true);
      const db = openSqlite(':memory:');
      db.close();
      let closed: any = null;
      try {
        db.prepare('select 1');
      } catch (e) {
        closed = e;
      }
      expect(closed).to.be.instanceOf(TypeError);
      expect(isDatabaseUnavailable(closed)).to.equal(true);
      expect(isCommitRefused(closed)).to.equal(false);
    });

    it('I/O errors in every extended form are unavailable and leave a COMMIT unknown; constraints and syntax are not', () => {
      for (const code of [
        'SQLITE_IOERR',
        'SQLITE_IOERR_FSYNC',
        'SQLITE_IOERR_WRITE',
        'SQLITE_FULL',
        'SQLITE_LOCKED_SHAREDCACHE',
        'SQLITE_BUSY_SNAPSHOT',
        'SQLITE_READONLY_DBMOVED',
      ]) {
        expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code })), code).to.equal(true);
      }
      expect(isCommitRefused(Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_FSYNC' }))).to.equal(false);
      for (const code of ['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_ERROR', 'SQLITE_MISMATCH', 'SQLITE_CORRUPT', 'SQLITE_BUSYX']) {
        expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code })), code).to.equal(false);
      }
    });
  });

  it('a COMMIT refused for certain (deadlock, lock wait, busy, constraint) versus an unknown outcome (connection lost, reset, timed out, server gone)', () => {
    const e = (props: Record<string, unknown>) => Object.assign(new Error('COMMIT; - x'), props);
    for (const props of [
      { code: 'ER_LOCK_DEADLOCK', errno: 1213 },
      { errno: 1205 },
      { code: 'SQLITE_BUSY' },
      { code: 'SQLITE_CONSTRAINT_FOREIGNKEY' },
      { code: 'ER_DUP_ENTRY', errno: 1062 },
    ]) {
      expect(isCommitRefused(e(props)), JSON.stringify(props)).to.equal(true);
    }
    for (const props of [
      { code: 'PROTOCOL_CONNECTION_LOST', fatal: true },
      { code: 'ECONNRESET' },
      { code: 'ETIMEDOUT' },
      { code: 'EPIPE' },
      { errno: 2013 },
      { code: 'ER_CONNECTION_KILLED', errno: 1927 },
      {},
    ]) {
      expect(isCommitRefused(e(props)), JSON.stringify(props)).to.equal(false);
    }
  });

  it('describes an error in one line, without the statement and its values', () => {
    const err = Object.assign(
      new Error(
        "insert into `applications` (`email`) values ('asha@example.com') - Connection lost: The server closed the connection.\n    at x",
      ),
      { code: 'PROTOCOL_CONNECTION_LOST' },
    );
    expect(describeDbError(err)).to.equal('PROTOCOL_CONNECTION_LOST: Connection lost: The server closed the connection.');
    expect(describeDbError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3306'), { code: 'ECONNREFUSED' }))).to.equal(
      'connect ECONNREFUSED 127.0.0.1:3306',
    );
    const timeout = Object.assign(new Error('Knex: Timeout acquiring a connection.'), { name: 'KnexTimeoutError' });
    expect(describeDbError(timeout)).to.equal('KnexTimeoutError: Knex: Timeout acquiring a connection.');
  });
});

describe('ThrottledLog', () => {
  it('writes the first line at once, then at most one line per interval with how many were held back', async () => {
    let now = 0;
    const lines: string[] = [];
    const log = new ThrottledLog(
      (l) => lines.push(l),
      1000,
      () => now,
    );
    log.log('fail 1');
    for (let i = 2; i <= 50; i++) {
      now += 10; // 49 more within half a second
      log.log(`fail ${i}`);
    }
    expect(lines).to.deep.equal(['fail 1']);
    log.flush(); // what the timer does at the end of the interval
    expect(lines).to.deep.equal(['fail 1', 'fail 50 (48 more like it in the last 1 s not logged)']);
    now += 100;
    log.log('fail 51'); // inside the new interval: held back
    expect(lines).to.have.length(2);
    now += 5000;
    log.flush();
    expect(lines[2]).to.equal('fail 51');
    now += 5000;
    log.log('much later');
    expect(lines[3]).to.equal('much later');
  });

  it('its timer writes what was held back once the interval is over', async () => {
    const lines: string[] = [];
    const log = new ThrottledLog((l) => lines.push(l), 100);
    log.log('a');
    log.log('b');
    log.log('c');
    expect(lines).to.deep.equal(['a']);
    await new Promise((r) => setTimeout(r, 300));
    expect(lines).to.deep.equal(['a', 'c (1 more like it in the last 0.1 s not logged)']);
  });
});
