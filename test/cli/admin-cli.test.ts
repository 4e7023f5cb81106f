/** careers-admin as an admin runs it: a child process on a real database. */
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { databaseKinds, createTestDb, type TestDb } from '../helpers/db.js';
import { cliSync } from '../helpers/child-server.js';
import { insertApplications } from '../helpers/applications.js';

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
      expect((await t.db('jobs').distinct('department')).map((d) => d.department).sort()).to.deep.equal([
        'Customer Support',
        'Data',
        'Design',
        'Engineering',
        'Marketing',
        'People',
      ]);
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

    it('jobs remove-demo removes the seeded demo jobs and nothing else, keeping (and naming) edited ones and ones with applications', async () => {
      const rows: { id: number; public_id: string }[] = await t
        .db('jobs')
        .whereIn('public_id', ['senior-backend-engineer', 'frontend-engineer-react'])
        .select('id', 'public_id');
      const ids: Record<string, number> = Object.fromEntries(rows.map((r) => [r.public_id, Number(r.id)]));
      expect(Object.keys(ids)).to.have.length.at.least(2);
      const total = Number((await t.db('jobs').count({ n: '*' }))[0].n);
      // One demo job got an application, one was saved by HR (its audit entry), one renamed in place.
      await insertApplications(
        t.db,
        ids['senior-backend-engineer'],
        [
          {
            first_name: 'Asha',
            last_name: 'Rao',
            email: 'asha@example.com',
            phone: '+919876543210',
            created_at: new Date(),
            resume_name: null,
          },
        ],
        [],
      );
      await t.db('audit_log').insert({
        user_id: null,
        action: 'job.update',
        entity: 'job',
        entity_id: ids['frontend-engineer-react'],
        details: '{}',
        created_at: new Date(),
      });
      const renamed = (await t.db('jobs').whereNotIn('id', Object.values(ids)).where('status', 'INACTIVE').first('id', 'public_id'))!;
      await t.db('jobs').where('id', renamed.id).update({ title: 'Our own title' });
      // A job of HR's own, not from the demo set, is never touched.
      await t.db('jobs').insert({
        public_id: 'hr-own-job',
        title: 'HR Own Job',
        location: 'Oslo',
        job_type: 'FULL_TIME',
        work_mode: 'ONSITE',
        status: 'ACTIVE',
        currency: 'USD',
        description: '',
        responsibilities: '',
        requirements: '',
        perks_benefits: '',
        experience_required: '',
        views: 0,
        created_at: new Date(),
        updated_at: new Date(),
      });

      let r = cli(['jobs', 'remove-demo', '--dry-run'], env);
      expect(r.code, r.err).to.equal(0);
      expect(r.out).to.match(/^Would remove 9 demo jobs: /);
      expect(Number((await t.db('jobs').count({ n: '*' }))[0].n)).to.equal(total + 1);
      r = cli(['jobs', 'remove-demo'], env);
      expect(r.code, r.err).to.equal(0);
      const lines = r.out.trim().split('\n');
      expect(lines[0]).to.match(/^Removed 9 demo jobs: [a-z-]+ \(.+\)(, [a-z-]+ \(.+\)){8}\.$/);
      expect(lines.slice(1).sort()).to.deep.equal(
        [
          `Kept ${renamed.public_id} (Our own title): its title is not the demo title.`,
          'Kept frontend-engineer-react (Frontend Engineer (React)): it was edited after seeding.',
          'Kept senior-backend-engineer (Senior Backend Engineer): it has 1 application.',
        ].sort(),
      );
      const left = (await t.db('jobs').orderBy('id').pluck('public_id')) as string[];
      expect(left.sort()).to.deep.equal(['frontend-engineer-react', 'hr-own-job', renamed.public_id, 'senior-backend-engineer'].sort());
      expect(Number((await t.db('applications').count({ n: '*' }))[0].n)).to.equal(1);
      // Again: nothing more to remove; the kept ones are still named.
      r = cli(['jobs', 'remove-demo'], env);
      expect(r.out).not.to.include('Removed');
      expect(r.out).to.include('Kept senior-backend-engineer');
      // The demo set comes back for the tests after this one.
      await t.db('applications').del();
      await t.db('jobs').del();
      expect(cli(['jobs', 'seed', '--demo'], env).out).to.include('Added 12 demo jobs.');
      r = cli(['jobs', 'remove-demo', '--nonsense'], env);
      expect(r.code).to.equal(2);
    });

    it('imports a valid file and refuses a bad one entirely, reporting every bad record', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'seed-'));
      const good = path.join(dir, 'good.json');
      fs.writeFileSync(
        good,
        JSON.stringify([
          {
            title: 'Imported One',
            department: 'Sales',
            location: 'Paris',
            job_type: 'FULL_TIME',
            work_mode: 'ONSITE',
            status: 'ACTIVE',
            description: '<p>ok<script>x</script></p>',
          },
          { public_id: 'imported-two', title: 'Imported Two', location: 'Rome', job_type: 'CONTRACT', work_mode: 'REMOTE' },
        ]),
      );
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
      fs.writeFileSync(
        bad,
        JSON.stringify([
          { title: 'Fine', location: 'Oslo', job_type: 'FULL_TIME', work_mode: 'ONSITE' },
          { title: '', location: 'Oslo', job_type: 'FULL_TIME', work_mode: 'ONSITE' },
          { title: 'Bad type', location: 'Oslo', job_type: 'SOMETIMES', work_mode: 'ONSITE', min_salary: -1 },
          { public_id: 'imported-two', title: 'Taken id', location: 'Oslo', job_type: 'FULL_TIME', work_mode: 'ONSITE' },
        ]),
      );
      r = cli(['jobs', 'seed', '--file', bad], env);
      expect(r.code).to.equal(1);
      // Field problems and an id already in the database are reported together, in record order.
      expect(r.err).to.include('3 invalid job record(s); nothing was imported');
      expect(r.err).to.match(
        /record 1: title[\s\S]*record 2: job_type[\s\S]*min_salary[\s\S]*record 3: public_id: A job with public id "imported-two" already exists\./,
      );
      expect(r.err).not.to.include('record 0');
      expect((await t.db('jobs').count({ n: '*' }))[0].n).to.equal(before);

      // A file saved with a UTF-8 byte-order mark imports like any other.
      const bom = path.join(dir, 'bom.json');
      fs.writeFileSync(
        bom,
        '\uFEFF' + JSON.stringify([{ public_id: 'with-bom', title: 'BOM', location: 'Oslo', job_type: 'FULL_TIME', work_mode: 'ONSITE' }]),
      );
      r = cli(['jobs', 'seed', '--file', bom], env);
      expect(r.code, r.err).to.equal(0);
      expect(await t.db('jobs').where({ public_id: 'with-bom' }).first()).to.include({ title: 'BOM' });

      // Webhooks to on-premises receivers: refused unless WEBHOOK_ALLOW_PRIVATE is set, as in the API.
      const hook = path.join(dir, 'hook.json');
      const hooks = ['http://10.0.0.5/hook', 'http://[2002:7f00:1::]/hook', 'http://3221225985/hook', 'http://[64:ff9b:1::a00:1]/hook'];
      fs.writeFileSync(
        hook,
        JSON.stringify(
          hooks.map((url, i) => ({
            public_id: `on-prem-${i}`,
            title: 'On prem',
            location: 'Oslo',
            job_type: 'FULL_TIME',
            work_mode: 'ONSITE',
            webhook_enabled: true,
            webhook_url: url,
          })),
        ),
      );
      r = cli(['jobs', 'seed', '--file', hook], env);
      expect(r.code).to.equal(1);
      for (const i of hooks.keys())
        expect(r.err).to.include(`record ${i}: webhook_url: Webhook URL must not point to a private or local address.`);
      r = cli(['jobs', 'seed', '--file', hook], { ...env, WEBHOOK_ALLOW_PRIVATE: 'true' });
      expect(r.code, r.err).to.equal(0);
      expect(await t.db('jobs').where({ public_id: 'on-prem-0' }).first()).to.include({ webhook_url: 'http://10.0.0.5/hook' });
      expect(await t.db('jobs').where({ public_id: 'on-prem-2' }).first()).to.include({ webhook_url: 'http://192.0.2.1/hook' });

      // A closing date already past is refused, as the API refuses it.
      const past = path.join(dir, 'past.json');
      fs.writeFileSync(
        past,
        JSON.stringify([
          { title: 'Closes later', location: 'Oslo', job_type: 'FULL_TIME', work_mode: 'ONSITE', closes_at: '2099-01-01T00:00:00Z' },
          { title: 'Closed already', location: 'Oslo', job_type: 'FULL_TIME', work_mode: 'ONSITE', closes_at: '2020-01-01T00:00:00Z' },
        ]),
      );
      r = cli(['jobs', 'seed', '--file', past], env);
      expect(r.code).to.equal(1);
      expect(r.err)
        .to.include('1 invalid job record(s); nothing was imported')
        .and.include('record 1: closes_at: The closing date must be in the future.');
      expect(await t.db('jobs').where({ title: 'Closes later' }).first()).to.equal(undefined);

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
