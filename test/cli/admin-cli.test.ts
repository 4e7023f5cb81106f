/** careers-admin as an admin runs it: a child process on a real database. */
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { databaseKinds, createTestDb, type TestDb } from '../helpers/db.js';
import { cliSync } from '../helpers/child-server.js';

const cli = cliSync;

for (const kind of databaseKinds()) {
  describe(`careers-admin migrate and jobs seed [${kind}]`, function () {
    this.timeout(120_000);
    let t: TestDb;
    let env: Record<string, string>;
    before(async () => {
      t = await createTestDb(kind);
      await t.db.migrate.rollback(undefined, true);
      env = { DATA_DIR: t.dataDir, ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}) };
    });
    after(() => t.destroy());

    it('migrates, shows status and rolls back', () => {
      let r = cli(['migrate', 'status'], env);
      expect(r.code).to.equal(0);
      expect(r.out).to.include('pending  001_initial_schema');
      r = cli(['migrate'], env);
      expect(r.code, r.err).to.equal(0);
      expect(r.out).to.match(/applied 001_initial_schema/);
      expect(cli(['migrate', 'status'], env).out).to.include('applied  001_initial_schema');
      expect(cli(['migrate', 'latest'], env).out).to.include('Already up to date.');
      // A rollback drops tables: without a terminal to ask on, --yes is required, and nothing changes without it.
      r = cli(['migrate', 'rollback'], env);
      expect(r.code).to.equal(2);
      expect(r.err).to.include('pass --yes to roll back without asking');
      expect(cli(['migrate', 'status'], env).out).to.include('applied  001_initial_schema');
      r = cli(['migrate', 'rollback', '--yes'], env);
      expect(r.code).to.equal(0);
      expect(r.out).to.include('Rolled back');
      r = cli(['migrate', 'sideways'], env);
      expect(r.code).to.equal(2);
      expect(r.err).to.include('Unknown migrate action');
      expect(cli(['migrate'], env).code).to.equal(0);
    });

    it('seeds the demo jobs once', async () => {
      let r = cli(['jobs', 'seed', '--demo'], env);
      expect(r.code, r.err).to.equal(0);
      expect(r.out).to.include('Added 12 demo jobs.');
      const jobs = await t.db('jobs').select('job_type', 'work_mode', 'status');
      expect(new Set(jobs.map((j) => j.job_type))).to.have.property('size', 4);
      expect(new Set(jobs.map((j) => j.work_mode))).to.have.property('size', 3);
      expect(jobs.some((j) => j.status === 'INACTIVE')).to.equal(true);
      expect((await t.db('jobs').distinct('department')).map((d) => d.department).sort()).to.deep.equal(['Customer Support', 'Data', 'Design', 'Engineering', 'Marketing', 'People']);
      const types = await t.db('job_questions').distinct('answer_type');
      expect(types.map((x) => x.answer_type).sort()).to.deep.equal(['checkbox', 'long_text', 'number', 'short_text', 'single_choice']);
      r = cli(['jobs', 'seed', '--demo'], env);
      expect(r.out).to.include('nothing added');
      // jobs list: aligned columns, one line per job, with its applications.
      r = cli(['jobs', 'list'], env);
      expect(r.code, r.err).to.equal(0);
      const lines = r.out.trim().split('\n');
      expect(lines[0]).to.match(/^ID +PUBLIC ID +TITLE +STATUS +APPLICATIONS$/);
      expect(lines).to.have.length(13);
      expect(lines[1]).to.match(/^\d+ +senior-backend-engineer +Senior Backend Engineer +ACTIVE +0$/);
      for (const line of lines.slice(1)) expect(line.slice(lines[0].indexOf('STATUS'))).to.match(/^(ACTIVE|INACTIVE) +\d+$/);
    });

    it('imports a valid file and refuses a bad one entirely, reporting every bad record', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'seed-'));
      const good = path.join(dir, 'good.json');
      fs.writeFileSync(good, JSON.stringify([
        { title: 'Imported One', department: 'Sales', location: 'Paris', job_type: 'FULL_TIME', work_mode: 'ONSITE', status: 'ACTIVE', description: '<p>ok<script>x</script></p>' },
        { public_id: 'imported-two', title: 'Imported Two', location: 'Rome', job_type: 'CONTRACT', work_mode: 'REMOTE' },
      ]));
      let r = cli(['jobs', 'seed', '--file', good], env);
      expect(r.code, r.err).to.equal(0);
      expect(r.out).to.include('Imported 2 job(s)');
      const one = await t.db('jobs').where({ title: 'Imported One' }).first();
      expect(one.description).to.equal('<p>ok</p>');
      // Issue 21: the department is imported; a record without a public id gets one from its title.
      expect(one).to.include({ department: 'Sales', public_id: 'imported-one' });
      const two = await t.db('jobs').where({ public_id: 'imported-two' }).first();
      expect(two.status).to.equal('INACTIVE');

      const before = (await t.db('jobs').count({ n: '*' }))[0].n;
      const bad = path.join(dir, 'bad.json');
      fs.writeFileSync(bad, JSON.stringify([
        { title: 'Fine', location: 'Oslo', job_type: 'FULL_TIME', work_mode: 'ONSITE' },
        { title: '', location: 'Oslo', job_type: 'FULL_TIME', work_mode: 'ONSITE' },
        { title: 'Bad type', location: 'Oslo', job_type: 'SOMETIMES', work_mode: 'ONSITE', min_salary: -1 },
        { public_id: 'imported-two', title: 'Taken id', location: 'Oslo', job_type: 'FULL_TIME', work_mode: 'ONSITE' },
      ]));
      r = cli(['jobs', 'seed', '--file', bad], env);
      expect(r.code).to.equal(1);
      // Field problems and an id already in the database are reported together, in record order.
      expect(r.err).to.include('3 invalid job record(s); nothing was imported');
      expect(r.err).to.match(/record 1: title[\s\S]*record 2: job_type[\s\S]*min_salary[\s\S]*record 3: public_id: A job with public id "imported-two" already exists\./);
      expect(r.err).not.to.include('record 0');
      expect((await t.db('jobs').count({ n: '*' }))[0].n).to.equal(before);

      // A file saved with a UTF-8 byte-order mark imports like any other.
      const bom = path.join(dir, 'bom.json');
      fs.writeFileSync(bom, '\uFEFF' + JSON.stringify([{ public_id: 'with-bom', title: 'BOM', location: 'Oslo', job_type: 'FULL_TIME', work_mode: 'ONSITE' }]));
      r = cli(['jobs', 'seed', '--file', bom], env);
      expect(r.code, r.err).to.equal(0);
      expect(await t.db('jobs').where({ public_id: 'with-bom' }).first()).to.include({ title: 'BOM' });

      // Webhooks to on-premises receivers: refused unless WEBHOOK_ALLOW_PRIVATE is set, as in the API.
      const hook = path.join(dir, 'hook.json');
      const hooks = ['http://10.0.0.5/hook', 'http://[2002:7f00:1::]/hook', 'http://3221225985/hook', 'http://[64:ff9b:1::a00:1]/hook'];
      fs.writeFileSync(hook, JSON.stringify(hooks.map((url, i) => ({ public_id: `on-prem-${i}`, title: 'On prem', location: 'Oslo', job_type: 'FULL_TIME', work_mode: 'ONSITE', webhook_enabled: true, webhook_url: url }))));
      r = cli(['jobs', 'seed', '--file', hook], env);
      expect(r.code).to.equal(1);
      for (const i of hooks.keys()) expect(r.err).to.include(`record ${i}: webhook_url: Webhook URL must not point to a private or local address.`);
      r = cli(['jobs', 'seed', '--file', hook], { ...env, WEBHOOK_ALLOW_PRIVATE: 'true' });
      expect(r.code, r.err).to.equal(0);
      expect(await t.db('jobs').where({ public_id: 'on-prem-0' }).first()).to.include({ webhook_url: 'http://10.0.0.5/hook' });
      expect(await t.db('jobs').where({ public_id: 'on-prem-2' }).first()).to.include({ webhook_url: 'http://192.0.2.1/hook' });

      fs.writeFileSync(bad, '{not json');
      r = cli(['jobs', 'seed', '--file', bad], env);
      expect(r.code).to.equal(1);
      expect(r.err).to.include('Cannot read');
      r = cli(['jobs', 'seed', '--file', path.join(dir, 'missing.json')], env);
      expect(r.code).to.equal(1);
      fs.writeFileSync(bad, '{"title": "not a list"}');
      r = cli(['jobs', 'seed', '--file', bad], env);
      expect(r.code).to.equal(1);
      expect(r.err).to.include('JSON array');
      r = cli(['jobs', 'seed'], env);
      expect(r.code).to.equal(2);
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('answers bad usage with exit code 2', () => {
      for (const args of [['frobnicate'], ['user', 'create'], ['jobs', 'seed', '--demo', '--nonsense']]) {
        const r = cli(args, env);
        expect(r.code, `${args.join(' ')}: ${r.err}`).to.equal(2);
        expect(r.err).to.match(/error: /);
      }
      expect(cli(['--help'], env).code).to.equal(0);
      const version = cli(['--version'], env);
      expect(version.code).to.equal(0);
      expect(version.out.trim()).to.equal(JSON.parse(fs.readFileSync('package.json', 'utf8')).version);
    });

    it('stops with a clear message on bad configuration', () => {
      const r = cli(['migrate'], { ...env, SESSION_TTL_SECONDS: 'soon' });
      expect(r.code).to.equal(2);
      expect(r.err).to.include('SESSION_TTL_SECONDS');
    });
  });
}
