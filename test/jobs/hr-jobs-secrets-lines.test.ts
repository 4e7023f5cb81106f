/**
 * Job webhook secrets and one-line fields, on SQLite and MySQL (issue 16 items 4 and 14): a
 * `whsec_` secret must decode to 24-64 bytes and a plain one must have 16 characters, a secret
 * saved before the rule keeps working until it is changed; titles, locations, experience and
 * duration refuse line breaks and other control characters; so do usernames in the CLI.
 */
import { spawnSync } from 'node:child_process';
import { expect } from 'chai';
import { createTestDb, databaseKinds } from '../helpers/db.js';
import { hrSession } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { hrJobsApi, payload } from './hr-jobs.helpers.js';
import { CLI_ENTRY } from '../helpers/child-server.js';

const PLAIN = 'Use at least 16 characters, or whsec_ followed by the base64 of 24 to 64 bytes.';
const WHSEC = 'A whsec_ secret must be whsec_ followed by the base64 of 24 to 64 bytes.';
const ONE_LINE = 'Enter this on one line, without control characters.';
const whsec = (bytes: number) => `whsec_${Buffer.alloc(bytes, 7).toString('base64')}`;

for (const kind of databaseKinds()) {
  describe(`job webhook secrets and one-line fields [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    let token: string;
    const api = hrJobsApi(() => ({ s, token }));

    before(async () => {
      s = await startTestServer(kind);
      ({ token } = await hrSession(s.ctx.db));
    });
    after(() => s.close());

    it('refuses short plain secrets and whsec_ secrets outside 24-64 bytes or not base64, with the field message', async () => {
      const before = await api.jobCount();
      for (const [secret, message] of [
        ['s3cret', PLAIN],
        ['fifteen-chars-x', PLAIN],
        [whsec(23), WHSEC],
        [whsec(65), WHSEC],
        ['whsec_!!!!not-base64', WHSEC],
        ['whsec_', WHSEC],
        [`${whsec(32)}=`, WHSEC],
      ] as const) {
        const r = await api.post(payload({ webhook_secret: secret }));
        expect(r.status, secret).to.equal(400);
        expect(r.body, secret).to.deep.equal({ webhook_secret: [message] });
      }
      expect(await api.jobCount()).to.equal(before);
    });

    it('takes plain secrets of 16 characters or more and whsec_ secrets of 24 to 64 bytes; blank is none', async () => {
      for (const secret of ['sixteen-chars-xx', whsec(24), whsec(64), 'ünïcödé-sëcrét-16']) {
        expect((await api.create(payload({ webhook_secret: secret }))).webhook_secret).to.equal(secret);
      }
      expect((await api.create(payload({ webhook_secret: '   ' }))).webhook_secret).to.equal(null);
    });

    it('keeps a secret saved before the rule working until it is changed', async () => {
      const job = await api.create(payload({ webhook_secret: 'sixteen-chars-xx' }));
      await s.ctx.db('jobs').where({ id: job.id }).update({ webhook_secret: 'short' });
      const same = await api.call('PUT', `/api/hr/jobs/${job.id}/`, payload({ webhook_secret: 'short', title: 'Renamed' }));
      expect(same.status).to.equal(200);
      expect((await same.json()).webhook_secret).to.equal('short');
      const changed = await api.call('PUT', `/api/hr/jobs/${job.id}/`, payload({ webhook_secret: 'short2' }));
      expect(changed.status).to.equal(400);
      expect(await changed.json()).to.deep.equal({ webhook_secret: [PLAIN] });
    });

    it('refuses line breaks and control characters in one-line fields', async () => {
      const cases: [string, string][] = [
        ['title', 'Night\r\nBcc: x@example.com'],
        ['title', 'Tab\there'],
        ['title', 'Bell\x07'],
        ['location', 'Berlin\u2028Paris'],
        ['location', 'Escape\x1b[31m'],
        ['experience_required', '2 years\nor more'],
        ['duration', '6\u2029months'],
        ['duration', 'C1\u0085next'],
      ];
      for (const [field, value] of cases) {
        const r = await api.post(payload({ [field]: value }));
        expect(r.status, `${field} ${JSON.stringify(value)}`).to.equal(400);
        expect(r.body, `${field} ${JSON.stringify(value)}`).to.deep.equal({ [field]: [ONE_LINE] });
      }
      // Leading and trailing white space is still only trimmed.
      expect((await api.create(payload({ title: '  Spaced  ' }))).title).to.equal('Spaced');
    });
  });

  describe(`careers-admin user create with control characters [${kind}]`, function () {
    this.timeout(60_000);
    it('refuses a username with a line break, a tab or an escape, with the message and exit code 2', async () => {
      const t = await createTestDb(kind);
      try {
        const env = {
          ...process.env,
          NODE_ENV: 'test',
          DATA_DIR: t.dataDir,
          ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}),
        };
        for (const name of ['ann\nroot', 'ann\troot', 'ann\x1b[2J']) {
          const r = spawnSync(process.execPath, [CLI_ENTRY, 'user', 'create', '--username', name, '--password-stdin'], {
            env,
            input: 'correct horse battery\n',
            encoding: 'utf8',
          });
          expect(r.status, JSON.stringify(name)).to.equal(2);
          expect(r.stderr).to.include('Username must be 3 to 150 characters: letters, digits and . _ @ + -');
          expect(r.stderr).to.not.include('\x1b');
        }
        expect(await t.db('hr_users').count({ n: '*' }).first()).to.satisfy((row: { n: unknown }) => Number(row.n) === 0);
      } finally {
        await t.destroy();
      }
    });
  });
}
