/**
 * Whose address the rate limits count, over real HTTP, for applying and for signing in:
 * - TRUST_PROXY: the client address is what the nearest trusted proxy saw. A client writes its
 *   own X-Forwarded-For entries in front of the proxy's; rotating them must not give it a fresh
 *   limit, with `true` (one hop), a hop count (CDN then proxy) or a list of proxy addresses.
 * - IPv6: one limit per network (/56 by default, RATE_LIMIT_IPV6_SUBNET), IPv4-mapped = IPv4.
 * The test client connects from 127.0.0.1, so it plays the proxy: its X-Forwarded-For header is
 * what a real proxy would pass on, the client's entries first and the proxy's own last.
 */
import { expect } from 'chai';
import { databaseKinds, type DbKind } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { eventually, toFormData, validFields } from '../fixtures/apply.js';
import { createHrUser, HR_PASSWORD, postToken } from '../helpers/hr.js';

const LIMIT = 3;
let seq = 0;

/** A server with a limit of 3 applications and 3 failed sign-ins per window, one job, two HR users. */
async function limitedServer(kind: DbKind, env: Record<string, string>): Promise<TestServer> {
  const s = await startTestServer(kind, { APPLY_RATE_LIMIT: String(LIMIT), LOGIN_RATE_LIMIT: String(LIMIT), ...env });
  await makeJob(s.ctx.db, { public_id: 'open-job' });
  await createHrUser(s.ctx.db, 'hr.admin');
  await createHrUser(s.ctx.db, 'hr.other');
  return s;
}

function client(s: TestServer) {
  const headers = (xff: string | null): Record<string, string> => (xff === null ? {} : { 'X-Forwarded-For': xff });
  return {
    /** A real application (its own email each time); the status. */
    apply: async (xff: string | null) => {
      const fields = validFields({ email: `applicant${++seq}@example.com` });
      const res = await fetch(`${s.baseUrl}/api/jobs/open-job/apply/`, { method: 'POST', body: toFormData(fields), headers: headers(xff) });
      await res.arrayBuffer();
      return res.status;
    },
    /** A failed sign-in; the status. */
    fail: async (xff: string | null, username = 'hr.admin') => {
      const res = await postToken(s.baseUrl, { username, password: 'wrong password' }, headers(xff));
      await res.arrayBuffer();
      return res.status;
    },
    /** A sign-in with the right password; the status once a success's un-counting has landed. */
    signIn: async (xff: string | null, username = 'hr.admin') => {
      const res = await postToken(s.baseUrl, { username, password: HR_PASSWORD }, headers(xff));
      await res.arrayBuffer();
      // A success is un-counted after the answer is sent: wait for it, so a server closed right
      // after does not abort it.
      if (res.ok) await eventually(() => void expect(poolBusy(s)).to.equal(0));
      return res.status;
    },
  };
}

/** Queries running or waiting for a connection. */
function poolBusy(s: TestServer): number {
  const pool = (s.ctx.db.client as { pool: { numUsed(): number; numPendingAcquires(): number } }).pool;
  return pool.numUsed() + pool.numPendingAcquires();
}

/** Forged left-most entries, a new one per request, as an attacker would rotate them. */
const forged = (i: number) =>
  [`203.0.113.${i}`, `2001:db8:ffff:${i.toString(16)}::1`, `10.0.0.${i}`, 'unknown', `198.51.100.${i}, 192.0.2.${i}`][i % 5];

for (const kind of databaseKinds()) {
  describe(`rate limits follow the address the trusted proxy saw [${kind}]`, function () {
    this.timeout(120_000);

    const scenarios: Array<{ name: string; env: Record<string, string>; header: (forgedPart: string, real: string) => string }> = [
      { name: 'TRUST_PROXY=true (one hop)', env: { TRUST_PROXY: 'true' }, header: (f, real) => `${f}, ${real}` },
      { name: 'TRUST_PROXY=1', env: { TRUST_PROXY: '1' }, header: (f, real) => `${f}, ${real}` },
      // A CDN in front of the proxy: the CDN's entry is the client, the proxy adds the CDN's address.
      { name: 'TRUST_PROXY=2 (a CDN, then the proxy)', env: { TRUST_PROXY: '2' }, header: (f, real) => `${f}, ${real}, 198.51.100.250` },
      { name: 'TRUST_PROXY=loopback', env: { TRUST_PROXY: 'loopback' }, header: (f, real) => `${f}, ${real}` },
      {
        name: 'TRUST_PROXY=127.0.0.1,198.51.100.0/24 (proxy and CDN addresses)',
        env: { TRUST_PROXY: '127.0.0.1, 198.51.100.0/24' },
        header: (f, real) => `${f}, ${real}, 198.51.100.17`,
      },
    ];

    for (const sc of scenarios) {
      describe(sc.name, () => {
        let s: TestServer;
        let c: ReturnType<typeof client>;
        before(async () => {
          s = await limitedServer(kind, sc.env);
          c = client(s);
        });
        after(() => s.close());
        beforeEach(() => s.ctx.db('rate_limit_hits').delete());

        it('applying: forged entries in front of the real one do not reset the limit; the real one does count apart', async () => {
          const real = '192.0.2.10';
          for (let i = 0; i < LIMIT; i++) expect(await c.apply(sc.header(forged(i), real)), `application ${i + 1}`).to.equal(201);
          for (let i = LIMIT; i < LIMIT + 3; i++) expect(await c.apply(sc.header(forged(i), real)), `forged ${forged(i)}`).to.equal(429);
          // No forged entry at all: the same client, still refused.
          expect(await c.apply(sc.header('192.0.2.99', real).split(', ').slice(1).join(', '))).to.equal(429);
          // Another client behind the same proxy is not blocked, whatever it writes in front.
          expect(await c.apply(sc.header(real, '192.0.2.11'))).to.equal(201);
        });

        it('signing in: forged entries do not reset the per-user or the per-address limit', async () => {
          const real = '192.0.2.20';
          for (let i = 0; i < LIMIT; i++) expect(await c.fail(sc.header(forged(i), real))).to.equal(401);
          expect(await c.fail(sc.header(forged(7), real))).to.equal(429);
          expect(await c.signIn(sc.header(forged(8), real))).to.equal(429);
          // The per-address limit (five times): many usernames, forged entries rotating.
          await s.ctx.db('rate_limit_hits').delete();
          for (let i = 0; i < LIMIT * 5; i++)
            expect(await c.fail(sc.header(forged(i), '192.0.2.21'), `name${i}`), `attempt ${i + 1}`).to.equal(401);
          expect(await c.fail(sc.header(forged(99), '192.0.2.21'), 'someone.else')).to.equal(429);
          expect(await c.signIn(sc.header('192.0.2.21', '192.0.2.22'), 'hr.other')).to.equal(200);
        });
      });
    }

    describe('TRUST_PROXY unset', () => {
      let s: TestServer;
      let c: ReturnType<typeof client>;
      before(async () => {
        s = await limitedServer(kind, {});
        c = client(s);
      });
      after(() => s.close());

      it('ignores X-Forwarded-For: every request counts as the connection address', async () => {
        for (let i = 0; i < LIMIT; i++) expect(await c.apply(`${forged(i)}, 192.0.2.${30 + i}`)).to.equal(201);
        expect(await c.apply('192.0.2.99')).to.equal(429);
        expect(await c.apply(null)).to.equal(429);
        expect(await c.fail('2001:db8:1::1, 192.0.2.50')).to.equal(401);
        expect(await c.fail('2001:db8:2::1, 192.0.2.51')).to.equal(401);
        expect(await c.fail('2001:db8:3::1, 192.0.2.52')).to.equal(401);
        expect(await c.fail('2001:db8:4::1, 192.0.2.53')).to.equal(429);
      });
    });
  });

  describe(`IPv6 clients are limited per network [${kind}]`, function () {
    this.timeout(120_000);

    describe('default /56', () => {
      let s: TestServer;
      let c: ReturnType<typeof client>;
      before(async () => {
        s = await limitedServer(kind, { TRUST_PROXY: 'true' });
        c = client(s);
      });
      after(() => s.close());
      beforeEach(() => s.ctx.db('rate_limit_hits').delete());

      it('applying: addresses in one /56 share a limit, another /56 has its own', async () => {
        for (const ip of ['2001:db8:aa:100::1', '2001:db8:aa:1ff::2', '2001:db8:aa:180:1234:5678:9abc:def0'])
          expect(await c.apply(ip), ip).to.equal(201);
        for (const ip of ['2001:db8:aa:100::1', '2001:db8:aa:142::ffff', '2001:0db8:00aa:01ff:0000:0000:0000:0003'])
          expect(await c.apply(ip), ip).to.equal(429);
        expect(await c.apply('2001:db8:aa:200::1'), 'next /56').to.equal(201);
        expect(await c.apply('2001:db8:ab:100::1'), 'another /48').to.equal(201);
      });

      it('applying: an IPv4-mapped IPv6 address counts as the IPv4 address', async () => {
        expect(await c.apply('203.0.113.50')).to.equal(201);
        expect(await c.apply('::ffff:203.0.113.50')).to.equal(201);
        expect(await c.apply('::ffff:cb00:7132')).to.equal(201);
        expect(await c.apply('203.0.113.50')).to.equal(429);
        expect(await c.apply('::ffff:203.0.113.50')).to.equal(429);
        expect(await c.apply('::ffff:203.0.113.51')).to.equal(201);
      });

      it('signing in: the per-user and per-address limits count the /56 too', async () => {
        for (const ip of ['2001:db8:bb:100::1', '2001:db8:bb:101::1', '2001:db8:bb:1ff::1']) expect(await c.fail(ip)).to.equal(401);
        expect(await c.fail('2001:db8:bb:150::7')).to.equal(429);
        expect(await c.signIn('2001:db8:bb:150::8')).to.equal(429);
        expect(await c.signIn('2001:db8:bb:200::1')).to.equal(200);
        await s.ctx.db('rate_limit_hits').delete();
        for (let i = 0; i < LIMIT * 5; i++)
          expect(await c.fail(`2001:db8:cc:1${i.toString(16).padStart(2, '0')}::${i + 1}`, `name${i}`), `attempt ${i + 1}`).to.equal(401);
        expect(await c.fail('2001:db8:cc:1ee::1', 'someone.else')).to.equal(429);
        expect(await c.fail('::ffff:192.0.2.40', 'someone.else')).to.equal(401);
        expect(await c.fail('192.0.2.40', 'someone.else')).to.equal(401);
        expect(await c.fail('::ffff:192.0.2.40', 'someone.else')).to.equal(401);
        expect(await c.fail('192.0.2.40', 'someone.else'), 'mapped and plain IPv4 are one client').to.equal(429);
      });
    });

    describe('RATE_LIMIT_IPV6_SUBNET=64', () => {
      let s: TestServer;
      let c: ReturnType<typeof client>;
      before(async () => {
        s = await limitedServer(kind, { TRUST_PROXY: 'true', RATE_LIMIT_IPV6_SUBNET: '64' });
        c = client(s);
      });
      after(() => s.close());

      it('applying: one /64 shares a limit; two /64 in one /56 do not', async () => {
        for (const ip of ['2001:db8:dd:100::1', '2001:db8:dd:100:ffff::2', '2001:db8:dd:100:1::3'])
          expect(await c.apply(ip), ip).to.equal(201);
        expect(await c.apply('2001:db8:dd:100:abcd::4')).to.equal(429);
        expect(await c.apply('2001:db8:dd:101::1'), 'next /64').to.equal(201);
      });
    });
  });
}
