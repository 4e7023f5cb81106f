/**
 * The request log (src/http/request-log.ts): one line per request with method, route pattern,
 * status, ms, bytes and the request id echoed as X-Request-Id; an incoming id kept only from a
 * trusted proxy and only when short and printable; and no personal data in any line: a whole
 * session of applying, searching, signing in and failing is scanned for the applicant's name,
 * email, phone, the search text, the file name and the token.
 */
import { expect } from 'chai';
import { pino } from 'pino';
import { hrSession } from '../helpers/hr.js';
import { makeJob } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { databaseKinds } from '../helpers/db.js';

const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(2000, 0x20), Buffer.from('\n%%EOF\n')]);

for (const kind of databaseKinds()) {
  describe(`request log [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    let token: string;
    const lines: Record<string, unknown>[] = [];
    const raw: string[] = [];

    before(async () => {
      const log = pino(
        { level: 'info' },
        {
          write: (line: string) => {
            raw.push(line);
            lines.push(JSON.parse(line));
          },
        },
      );
      s = await startTestServer(kind, { TRUST_PROXY: '127.0.0.1' }, { log });
      ({ token } = await hrSession(s.ctx.db));
      await makeJob(s.ctx.db, { public_id: 'log-job', title: 'Payroll Specialist' });
    });
    after(() => s?.close());

    it('writes one line per request with the route pattern, status, ms, bytes and the echoed id', async () => {
      lines.length = 0;
      const res = await fetch(`${s.baseUrl}/api/hr/applications/12345/?q=secret`, { headers: { Authorization: `Bearer ${token}` } });
      expect(res.status).to.equal(404);
      const id = res.headers.get('x-request-id');
      expect(id).to.match(/^[0-9a-f-]{36}$/);
      for (let waited = 0; !lines.some((l) => l.reqId === id) && waited < 2000; waited += 20)
        await new Promise((resolve) => setTimeout(resolve, 20));
      const line = lines.find((l) => l.reqId === id)!;
      expect(line).to.include({ method: 'GET', route: '/api/hr/applications/:id/', status: 404, msg: 'request' });
      expect(line.ms).to.be.a('number');
      expect(line.bytes).to.be.above(0);
      expect(JSON.stringify(line)).to.not.include('12345').and.not.include('secret');
    });

    it('keeps a short printable X-Request-Id from a trusted proxy and replaces a hostile one', async () => {
      const kept = await fetch(`${s.baseUrl}/careers`, { headers: { 'X-Request-Id': 'lb-7f3a.42' } });
      expect(kept.headers.get('x-request-id')).to.equal('lb-7f3a.42');
      for (const hostile of ['x'.repeat(65), 'a b', 'id\ttab', 'caf\u00e9', '<script>', '']) {
        const res = await fetch(`${s.baseUrl}/careers`, { headers: { 'X-Request-Id': hostile } });
        expect(res.headers.get('x-request-id'), JSON.stringify(hostile)).to.match(/^[0-9a-f-]{36}$/);
      }
    });

    it('logs no name, email, phone, search text, file name or token over a whole session', async () => {
      raw.length = 0;
      const body = new FormData();
      for (const [k, v] of Object.entries({
        first_name: 'Zenobia',
        last_name: 'Quarrington',
        email: 'zenobia.q@example.org',
        phone: '+919812345678',
      }))
        body.set(k, v);
      body.set('resume', new Blob([PDF], { type: 'application/pdf' }), 'Zenobia-Quarrington-CV.pdf');
      expect((await fetch(`${s.baseUrl}/api/jobs/log-job/apply/`, { method: 'POST', body })).status).to.equal(201);
      const auth = { Authorization: `Bearer ${token}` };
      await fetch(`${s.baseUrl}/api/hr/applications/?q=Quarrington`, { headers: auth });
      await fetch(`${s.baseUrl}/api/hr/applications/?q=zenobia.q%40example.org&status=NEW`, { headers: auth });
      await fetch(`${s.baseUrl}/hr/applicants?q=%2B919812345678`, { headers: { Cookie: `jwt=${token}` } });
      await fetch(`${s.baseUrl}/api/auth/login/`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'zenobia.q@example.org', password: 'Quarrington-pass' }),
      });
      await fetch(`${s.baseUrl}/api/jobs/log-job/apply/`, { method: 'POST', body });
      await fetch(`${s.baseUrl}/no-such-page/zenobia.q@example.org`);
      // A request's line is written when its response ends on the server, which may come just after the client has it.
      for (let waited = 0; raw.length < 7 && waited < 2000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(raw.length).to.be.at.least(7);
      const all = raw.join('\n');
      for (const secret of ['Zenobia', 'Quarrington', 'zenobia.q', '9812345678', 'CV.pdf', token])
        expect(all, secret).to.not.include(secret);
    });
  });
}
