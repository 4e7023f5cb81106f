/**
 * Issue 34 in `careers-admin jobs seed`: an imported active job passes the same publishing checks
 * as the API's saves. A record they refuse is named with its title and why, and nothing is
 * imported; `--override-checks NOTE` imports it, the override audited (no user: the CLI). The demo
 * jobs meet the default rules.
 */
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cliSync } from '../helpers/child-server.js';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';

for (const kind of databaseKinds()) {
  describe(`jobs seed and the publishing checks [${kind}]`, function () {
    this.timeout(120_000);
    let t: TestDb;
    let env: Record<string, string>;
    let dir: string;
    before(async () => {
      t = await createTestDb(kind);
      env = { DATA_DIR: t.dataDir, ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}) };
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'seed-checks-'));
    });
    after(async () => {
      fs.rmSync(dir, { recursive: true, force: true });
      await t.destroy();
    });

    const file = (records: unknown[]) => {
      const f = path.join(dir, `${Math.random().toString(36).slice(2)}.json`);
      fs.writeFileSync(f, JSON.stringify(records));
      return f;
    };
    const base = { job_type: 'FULL_TIME', work_mode: 'ONSITE', description: '<p>x</p>' };

    it('refuses an active job the checks block, naming the record, its title and why; imports nothing', async () => {
      const f = file([
        { ...base, title: 'Fine in Oslo', location: 'Oslo', status: 'ACTIVE' },
        { ...base, title: 'Berlin, no range', location: 'Berlin, Germany', status: 'ACTIVE' },
        { ...base, title: 'Berlin, inactive', location: 'Berlin, Germany' },
        { ...base, title: 'Asks pay', location: 'Oslo', status: 'ACTIVE', questions: [{ text: 'Current CTC', answer_type: 'number' }] },
      ]);
      const r = cliSync(['jobs', 'seed', '--file', f], env);
      expect(r.code).to.equal(1);
      expect(r.err).to.include('2 invalid job record(s); nothing was imported');
      expect(r.err).to.include(
        '  record 1 ("Berlin, no range"): status: This job cannot be active until the problems named here are fixed; an admin may override them with a note (override_checks).; min_salary: Germany requires a pay range in the posting: give both a minimum and a maximum salary.; max_salary: Germany requires a pay range in the posting: give both a minimum and a maximum salary.',
      );
      expect(r.err).to.include(
        '  record 3 ("Asks pay"): status: This job cannot be active until the problems named here are fixed; an admin may override them with a note (override_checks).; questions.0.text: Question 1 asks for current or past pay (“current ctc”), which the EU and several US states forbid: remove it, or ask for the expected pay instead.',
      );
      expect(r.err).not.to.include('record 0');
      expect(r.err).not.to.include('record 2');
      expect((await t.db('jobs').count({ n: '*' }))[0].n).to.satisfy((n: unknown) => Number(n) === 0);
    });

    it('imports them with --override-checks, audited without a user; refuses a blank note', async () => {
      const f = file([
        { ...base, public_id: 'berlin-override', title: 'Berlin, overridden', location: 'Berlin, Germany', status: 'ACTIVE' },
        { ...base, public_id: 'oslo-plain', title: 'Oslo', location: 'Oslo', status: 'ACTIVE' },
      ]);
      expect(cliSync(['jobs', 'seed', '--file', f, '--override-checks', '  '], env)).to.include({ code: 2 });
      const r = cliSync(['jobs', 'seed', '--file', f, '--override-checks', 'Imported from the old system; ranges follow.'], env);
      expect(r.code, r.err).to.equal(0);
      expect(r.out).to.include('Imported 2 job(s)');
      const job = await t.db('jobs').where({ public_id: 'berlin-override' }).first();
      expect(job.status).to.equal('ACTIVE');
      const audit = await t
        .db('audit_log')
        .where({ entity: 'job', action: 'job.checks_override' })
        .select('entity_id', 'user_id', 'details');
      expect(audit).to.have.length(1);
      expect(Number(audit[0].entity_id)).to.equal(Number(job.id));
      expect(audit[0].user_id).to.equal(null);
      expect(JSON.parse(audit[0].details).note).to.equal('Imported from the old system; ranges follow.');
    });

    it('seeds the demo jobs, which meet the default rules', async () => {
      const r = cliSync(['jobs', 'seed', '--demo'], env);
      expect(r.code, r.err).to.equal(0);
      expect(r.out).to.include('Added 12 demo jobs.');
      expect(cliSync(['jobs', 'seed', '--demo'], env).out).to.include('Demo jobs are already there; nothing added.');
    });
  });
}
