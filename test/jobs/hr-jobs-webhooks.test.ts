/**
 * HR job webhook URLs, on SQLite and MySQL: normalised, never with credentials, and never naming a
 * private or local host unless WEBHOOK_ALLOW_PRIVATE.
 */
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { hrSession } from '../helpers/hr.js';
import { hrJobsApi, payload } from './hr-jobs.helpers.js';

const PRIVATE = 'Webhook URL must not point to a private or local address.';
const CREDENTIALS = 'Webhook URL must not contain a user name or password.';

/**
 * Webhook hosts outside global unicast, one or more per class of the IANA special-purpose registries
 * (the unit test tries every block), in the spellings a URL parser accepts.
 */
const PRIVATE_WEBHOOKS = [
  // localhost names
  'http://localhost/hook',
  'http://LOCALHOST:8080/hook',
  'http://localhost./hook',
  'http://api.localhost/hook',
  'http://ｌｏｃａｌｈｏｓｔ/hook', // full-width letters, mapped to ASCII by the URL parser
  // IPv4 loopback, private, link-local, CGNAT, "this network"
  'http://127.0.0.1/hook',
  'http://127.8.9.10:3000/hook',
  'http://10.0.0.5/hook',
  'http://172.16.0.1/hook',
  'http://172.31.255.254/hook',
  'http://192.168.1.10/hook',
  'http://169.254.169.254/latest/meta-data/',
  'http://169.254.1.1/hook',
  'http://100.64.0.1/hook',
  'http://100.127.255.254/hook',
  'http://0.0.0.0/hook',
  'http://0/hook',
  'https://10.0.0.1:8443/hook',
  // IPv4 special-purpose blocks
  'http://192.0.0.1/hook', // IETF protocol assignments
  'http://192.0.0.9/hook', // PCP anycast
  'http://192.0.2.1/hook', // TEST-NET-1
  'http://198.51.100.7/hook', // TEST-NET-2
  'http://203.0.113.9/hook', // TEST-NET-3
  'http://192.88.99.1/hook', // 6to4 relay anycast
  'http://192.31.196.1/hook', // AS112
  'http://192.52.193.1/hook', // AMT
  'http://192.175.48.1/hook', // AS112 direct delegation
  'http://198.18.0.1/hook', // benchmarking
  'http://224.0.0.1/hook', // multicast
  'http://240.0.0.1/hook', // reserved
  'http://255.255.255.255/hook', // broadcast
  // IPv4 spellings
  'http://2130706433/hook', // 127.0.0.1 as one decimal number
  'http://0x7f000001/hook', // hex
  'http://0x7f.0.0.1/hook',
  'http://017700000001/hook', // octal
  'http://0177.0.0.1/hook',
  'http://127.1/hook', // short form
  'http://3232235777/hook', // 192.168.1.1
  'http://2852039166/hook', // 169.254.169.254
  'http://3221225985/hook', // 192.0.2.1
  'http://0xcb.0.0x71.9/hook', // 203.0.113.9
  'http://0xffffffff/hook', // 255.255.255.255
  // IPv6
  'http://[::]/hook',
  'http://[::1]/hook',
  'http://[0:0:0:0:0:0:0:1]/hook',
  'http://[fd12:3456:789a::1]/hook',
  'http://[fc00::1]/hook',
  'http://[fe80::1]/hook',
  'http://[fec0::1]/hook', // site-local
  'http://[ff02::1]/hook', // multicast
  'http://[::ffff:127.0.0.1]/hook', // IPv4-mapped
  'http://[::ffff:7f00:1]/hook',
  'http://[::ffff:10.1.2.3]/hook',
  'http://[::ffff:169.254.169.254]/hook',
  'http://[::ffff:192.0.2.1]/hook',
  'http://[::ffff:0:7f00:1]/hook', // IPv4-translated
  'http://[::ffff:0:8.8.8.8]/hook',
  'http://[::127.0.0.1]/hook', // IPv4-compatible
  'http://[64:ff9b::10.0.0.1]/hook', // NAT64
  'http://[64:ff9b:1::a9fe:a9fe]/hook', // local-use NAT64
  'http://[2002:7f00:1::]/hook', // 6to4 of 127.0.0.1
  'http://[2002:808:808::1]/hook',
  'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook', // Teredo
  'http://[2001:2::1]/hook', // benchmarking
  'http://[2001:20::1]/hook', // ORCHIDv2
  'http://[2001:db8::1]/hook', // documentation
  'http://[3fff::1]/hook', // documentation
  'http://[2620:4f:8000::1]/hook', // AS112
  'http://[100::1]/hook', // discard
  'http://[100:0:0:1::1]/hook', // dummy prefix
  'http://[5f00::1]/hook', // segment routing
  'http://[4000::1]/hook', // outside global unicast
];

const PUBLIC_WEBHOOKS = [
  'https://hooks.example.com/x',
  'http://8.8.8.8/hook',
  'http://134744072/hook',
  'http://172.32.0.1/hook',
  'http://100.128.0.1/hook',
  'http://192.0.3.1/hook',
  'http://203.0.114.1/hook',
  'http://[2001:4860:4860::8888]/hook',
  'http://[2001:200::1]/hook',
  'http://[2003::1]/hook',
  'http://[::ffff:8.8.8.8]/hook',
  'http://localhost.example.com/hook',
];

for (const kind of databaseKinds()) {
  describe(`HR job webhook URLs [${kind}]`, function () {
    this.timeout(120_000);
    let s: TestServer;
    let token: string;
    before(async () => {
      s = await startTestServer(kind);
      ({ token } = await hrSession(s.ctx.db));
    });
    after(() => s.close());

    const { call, post, create, jobCount } = hrJobsApi(() => ({ s, token }));

    describe('webhook URL', () => {
      it('stores the normalised URL', async () => {
        for (const [given, stored] of [
          ['http:/example.com', 'http://example.com/'],
          ['HTTPS://Hooks.Example.COM:443/a/../careers?x=1#frag', 'https://hooks.example.com/careers?x=1#frag'],
          ['  https://hooks.example.com/with space  ', 'https://hooks.example.com/with%20space'],
          ['https://bücher.example/hook', 'https://xn--bcher-kva.example/hook'],
          ['http://hooks.example.com:80', 'http://hooks.example.com/'],
        ]) {
          const job = await create(payload({ webhook_url: given }));
          expect(job.webhook_url, given).to.equal(stored);
          expect((await s.ctx.db('jobs').where({ id: job.id }).first()).webhook_url, given).to.equal(stored);
        }
      });

      it('refuses credentials in the URL', async () => {
        for (const url of [
          'https://user:pass@hooks.example.com/',
          'https://user@hooks.example.com/',
          'https://:secret@hooks.example.com/',
        ]) {
          const r = await post(payload({ webhook_url: url }));
          expect(r.status, url).to.equal(400);
          expect(r.body, url).to.deep.equal({ webhook_url: [CREDENTIALS] });
        }
      });

      it('refuses every host outside global unicast (localhost, private, reserved, special-purpose) in every spelling', async () => {
        const before = await jobCount();
        for (const url of PRIVATE_WEBHOOKS) {
          const r = await post(payload({ webhook_enabled: true, webhook_url: url }));
          expect(r.status, url).to.equal(400);
          expect(r.body, url).to.deep.equal({ webhook_url: [PRIVATE] });
        }
        expect(await jobCount()).to.equal(before);
        // PUT too, and nothing changes.
        const job = await create(payload({ webhook_url: 'https://hooks.example.com/a' }));
        for (const url of [
          'http://2130706433/',
          'http://[2002:7f00:1::]/',
          'http://[64:ff9b:1::a00:1]/',
          'http://3221225985/',
          'http://[::ffff:0:a9fe:a9fe]/',
        ]) {
          const put = await call('PUT', `/api/hr/jobs/${job.id}/`, { ...job, webhook_enabled: true, webhook_url: url });
          expect(put.status, url).to.equal(400);
          expect(await put.json(), url).to.deep.equal({ webhook_url: [PRIVATE] });
        }
        expect((await s.ctx.db('jobs').where({ id: job.id }).first()).webhook_url).to.equal('https://hooks.example.com/a');
      });

      it('accepts public hosts and addresses', async () => {
        for (const url of PUBLIC_WEBHOOKS) {
          const job = await create(payload({ webhook_enabled: true, webhook_url: url }));
          expect(job.webhook_url, url).to.equal(new URL(url).href);
        }
      });

      it('checks the length of the normalised URL', async () => {
        const long = `https://hooks.example.com/${'é'.repeat(400)}`; // 426 characters, 2,426 once percent-encoded
        const r = await post(payload({ webhook_url: long }));
        expect(r.status).to.equal(400);
        expect(r.body.webhook_url).to.deep.equal(['Ensure this field has no more than 2048 characters.']);
      });
    });
  });

  describe(`HR job payload rules with WEBHOOK_ALLOW_PRIVATE=true [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    let token: string;
    before(async () => {
      s = await startTestServer(kind, { WEBHOOK_ALLOW_PRIVATE: 'true' });
      ({ token } = await hrSession(s.ctx.db));
    });
    after(() => s.close());

    it('accepts private and local webhook hosts (on-premises receivers), normalised, but never credentials', async () => {
      for (const url of PRIVATE_WEBHOOKS) {
        const res = await fetch(`${s.baseUrl}/api/hr/jobs/`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify(payload({ webhook_enabled: true, webhook_url: url })),
        });
        const body = await res.json();
        expect(res.status, `${url}: ${JSON.stringify(body)}`).to.equal(201);
        expect(body.webhook_url, url).to.equal(new URL(url).href);
      }
      const res = await fetch(`${s.baseUrl}/api/hr/jobs/`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(payload({ webhook_url: 'http://admin:admin@10.0.0.1/' })),
      });
      expect(res.status).to.equal(400);
      expect(await res.json()).to.deep.equal({ webhook_url: [CREDENTIALS] });
    });
  });
}
