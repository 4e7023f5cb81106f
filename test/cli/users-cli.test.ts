/**
 * careers-admin user create | list | passwd | disable | enable, run as child processes on a real
 * database; the hidden password prompt is driven through a pseudo-terminal (util-linux `script`).
 */
import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkCredentials } from '../../src/users/lib/passport.js';
import { createSession, findSession, findUserByUsername, touchLastLogin } from '../../src/users/repo.js';
import { databaseKinds, createTestDb, type TestDb } from '../helpers/db.js';
import { CLI_ENTRY } from '../helpers/child-server.js';

const ENTRY = [CLI_ENTRY];

function cli(args: string[], env: Record<string, string>, input?: string) {
  const r = spawnSync(process.execPath, [...ENTRY, ...args], {
    env: { ...process.env, NODE_ENV: 'test', ...env },
    input: input ?? '',
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

/** Runs the CLI in a pseudo-terminal, typing each answer once its prompt appears. */
function ptyRun(
  args: string[],
  env: Record<string, string>,
  answers: Array<[string, string]>,
): Promise<{ code: number | null; out: string }> {
  const command = [process.execPath, ...ENTRY, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], { env: { ...process.env, NODE_ENV: 'test', ...env } });
  let out = '';
  let seen = 0; // how much of the output earlier prompts consumed
  let next = 0;
  const onData = (d: Buffer) => {
    out += d.toString('utf8');
    if (next < answers.length) {
      const at = out.indexOf(answers[next][0], seen);
      if (at >= 0) {
        seen = at + answers[next][0].length;
        const text = answers[next++][1];
        setTimeout(() => child.stdin.write(text), 50);
      }
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`pty run timed out; output so far:\n${out}`));
    }, 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out: out.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '') });
    });
  });
}

for (const kind of databaseKinds()) {
  describe(`careers-admin user commands [${kind}]`, function () {
    this.timeout(180_000);
    let t: TestDb;
    let env: Record<string, string>;
    before(async () => {
      t = await createTestDb(kind);
      env = { DATA_DIR: t.dataDir, ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}) };
    });
    after(() => t.destroy());

    it('creates a user from standard input and refuses duplicates, bad names and short passwords', async () => {
      // The full sign-in address: PUBLIC_BASE_URL (or http://localhost:PORT) and the login page.
      let r = cli(
        ['user', 'create', '--username', 'Ada.HR', '--password-stdin'],
        { ...env, PUBLIC_BASE_URL: 'https://careers.example.com/' },
        'first password 1\n',
      );
      expect(r.code, r.err).to.equal(0);
      expect(r.out.split('\n')).to.include('Created HR user "ada.hr". Sign in at https://careers.example.com/hrviewlogin');
      expect(await checkCredentials(t.db, 'ada.hr', 'first password 1')).to.not.equal(null);

      r = cli(['user', 'create', '--username', 'ada.hr', '--password-stdin'], env, 'another password\n');
      expect(r.code).to.equal(1);
      expect(r.err).to.include('User "ada.hr" already exists.');
      r = cli(['user', 'create', '--username', 'a b', '--password-stdin'], env, 'long enough pw\n');
      expect(r.code).to.equal(2);
      expect(r.err).to.include('Username must be 3 to 150 characters');
      r = cli(['user', 'create', '--username', 'x'.repeat(151), '--password-stdin'], env, 'long enough pw\n');
      expect(r.code).to.equal(2);
      r = cli(['user', 'create', '--username', 'short.pw', '--password-stdin'], env, 'short\n');
      expect(r.code).to.equal(1);
      expect(r.err).to.include('Password must be at least 8 characters.');
      expect(await findUserByUsername(t.db, 'short.pw')).to.equal(null);
      r = cli(['user', 'create'], env);
      expect(r.code).to.equal(2);
      expect(r.err).to.include("required option '--username <name>' not specified");
    });

    it('makes admins unless --role recruiter is given, and refuses other roles', async () => {
      expect((await findUserByUsername(t.db, 'ada.hr'))!.role).to.equal('admin');
      let r = cli(
        ['user', 'create', '--username', 'rita.recruiter', '--role', 'recruiter', '--password-stdin'],
        env,
        'recruiter password\n',
      );
      expect(r.code, r.err).to.equal(0);
      expect(r.out).to.include('Created HR user "rita.recruiter" (recruiter).');
      expect((await findUserByUsername(t.db, 'rita.recruiter'))!.role).to.equal('recruiter');
      r = cli(['user', 'create', '--username', 'adam.admin', '--role', 'admin', '--password-stdin'], env, 'admin password 1\n');
      expect(r.code, r.err).to.equal(0);
      expect((await findUserByUsername(t.db, 'adam.admin'))!.role).to.equal('admin');
      r = cli(['user', 'create', '--username', 'odd.role', '--role', 'owner', '--password-stdin'], env, 'some password 1\n');
      expect(r.code).to.equal(2);
      expect(r.err).to.include('--role: Role must be one of admin, recruiter, hiring_manager, interviewer. (got "owner")');
      expect(await findUserByUsername(t.db, 'odd.role')).to.equal(null);
      // Issue 31: hiring managers and interviewers.
      for (const role of ['hiring_manager', 'interviewer'] as const) {
        r = cli(['user', 'create', '--username', `new.${role}`, '--role', role, '--password-stdin'], env, `${role} password 1\n`);
        expect(r.code, r.err).to.equal(0);
        expect(r.out).to.include(`Created HR user "new.${role}" (${role}).`);
        expect((await findUserByUsername(t.db, `new.${role}`))!.role).to.equal(role);
      }
      await t.db('hr_users').whereIn('username', ['new.hiring_manager', 'new.interviewer']).delete();
      const list = cli(['user', 'list'], env).out;
      expect(list).to.match(/rita\.recruiter\s+active\s+.+\s+never\s+recruiter/);
      expect(list).to.match(/adam\.admin\s+active\s+.+\s+admin/);
      // Out of the way of the tests below, which count users and sessions by name.
      await t.db('hr_users').whereIn('username', ['rita.recruiter', 'adam.admin']).delete();
    });

    it('sets an email address with --email (company sign-in matches it): stored lower-cased, one user per address, bad ones refused', async () => {
      let r = cli(
        ['user', 'create', '--username', 'eve.mail', '--role', 'recruiter', '--email', ' Eve.Mail@Example.COM ', '--password-stdin'],
        env,
        'eve password 1\n',
      );
      expect(r.code, r.err).to.equal(0);
      expect((await findUserByUsername(t.db, 'eve.mail'))!.email).to.equal('eve.mail@example.com');
      expect(cli(['user', 'list'], env).out).to.match(/eve\.mail\s+active\s+.+\s+recruiter\s+eve\.mail@example\.com/);
      r = cli(['user', 'create', '--username', 'eve.two', '--email', 'EVE.MAIL@example.com', '--password-stdin'], env, 'eve password 2\n');
      expect(r.code).to.equal(1);
      expect(r.err).to.include('--email: Another user already has this email address. (eve.mail@example.com)');
      for (const bad of ['not-an-address', 'a@b', `${'x'.repeat(190)}@example.com`, '']) {
        r = cli(['user', 'create', '--username', 'eve.bad', '--email', bad, '--password-stdin'], env, 'eve password 3\n');
        expect(r.code, bad).to.equal(2);
        expect(r.err).to.include(`--email: Enter a valid email address of at most 191 characters, or leave it empty.`);
      }
      expect(await findUserByUsername(t.db, 'eve.two')).to.equal(null);
      expect(await findUserByUsername(t.db, 'eve.bad')).to.equal(null);
      await t.db('hr_users').whereIn('username', ['eve.mail']).delete();
    });

    it('refuses to prompt without a terminal', async () => {
      const r = cli(['user', 'create', '--username', 'no.tty'], env, 'whatever password\n');
      expect(r.code).to.equal(2);
      expect(r.err).to.include('No terminal to ask for the password: pass it on standard input with --password-stdin.');
      expect(await findUserByUsername(t.db, 'no.tty')).to.equal(null);
    });

    it('lists users with status, creation and last sign-in', async () => {
      cli(['user', 'create', '--username', 'bob.hr', '--password-stdin'], env, 'bobs password\n');
      const ada = (await findUserByUsername(t.db, 'ada.hr'))!;
      await touchLastLogin(t.db, ada.id, new Date('2026-03-04T05:06:00Z'));
      const r = cli(['user', 'list'], env);
      expect(r.code, r.err).to.equal(0);
      const lines = r.out.trim().split('\n');
      expect(lines[0]).to.match(/^USERNAME\s+STATUS\s+CREATED\s+LAST LOGIN\s+ROLE\s+EMAIL$/);
      expect(lines[1]).to.match(/^ada\.hr\s+active\s+\d{4}-\d\d-\d\d \d\d:\d\d UTC\s+2026-03-04 05:06 UTC\s+admin\s+-$/);
      expect(lines[2]).to.match(/^bob\.hr\s+active\s+.+\s+never\s+admin\s+-$/);
    });

    it('changes a password and signs out that user only', async () => {
      const ada = (await findUserByUsername(t.db, 'ada.hr'))!;
      const bob = (await findUserByUsername(t.db, 'bob.hr'))!;
      const a1 = await createSession(t.db, ada.id, 3600, new Date());
      const a2 = await createSession(t.db, ada.id, 3600, new Date());
      const b1 = await createSession(t.db, bob.id, 3600, new Date());
      let r = cli(['user', 'passwd', '--username', 'ADA.hr', '--password-stdin'], env, 'second password 2\n');
      expect(r.code, r.err).to.equal(0);
      expect(r.out).to.include('Password changed for "ada.hr"; 2 sessions signed out.');
      expect(await findSession(t.db, a1.token, new Date())).to.equal(null);
      expect(await findSession(t.db, a2.token, new Date())).to.equal(null);
      expect(await findSession(t.db, b1.token, new Date())).to.not.equal(null);
      expect(await checkCredentials(t.db, 'ada.hr', 'first password 1')).to.equal(null);
      expect(await checkCredentials(t.db, 'ada.hr', 'second password 2')).to.not.equal(null);

      r = cli(['user', 'passwd', '--username', 'ada.hr', '--password-stdin'], env, 'tiny\n');
      expect(r.code).to.equal(1);
      expect(r.err).to.include('Password must be at least 8 characters.');
      expect(await checkCredentials(t.db, 'ada.hr', 'second password 2')).to.not.equal(null);
      r = cli(['user', 'passwd', '--username', 'nobody.here', '--password-stdin'], env, 'long enough pw\n');
      expect(r.code).to.equal(1);
      expect(r.err).to.include('No HR user "nobody.here".');
      r = cli(['user', 'passwd', '--username', 'ada.hr'], env);
      expect(r.code).to.equal(2);
    });

    it('disables (signing out) and enables a user', async () => {
      const bob = (await findUserByUsername(t.db, 'bob.hr'))!;
      const b2 = await createSession(t.db, bob.id, 3600, new Date());
      let r = cli(['user', 'disable', '--username', 'bob.hr'], env);
      expect(r.code, r.err).to.equal(0);
      expect(r.out).to.include('Disabled "bob.hr"; 2 sessions signed out.');
      expect((await findUserByUsername(t.db, 'bob.hr'))!.is_active).to.equal(false);
      expect(await t.db('hr_sessions').where({ user_id: bob.id }).count({ n: '*' })).to.deep.equal([{ n: 0 }]);
      expect(await findSession(t.db, b2.token, new Date())).to.equal(null);
      expect(await checkCredentials(t.db, 'bob.hr', 'bobs password')).to.equal(null);
      expect(cli(['user', 'list'], env).out).to.match(/bob\.hr\s+disabled/);
      r = cli(['user', 'disable', '--username', 'bob.hr'], env);
      expect(r.code).to.equal(0);
      expect(r.out).to.include('Already disabled: "bob.hr"; 0 sessions signed out.');
      r = cli(['user', 'enable', '--username', 'bob.hr'], env);
      expect(r.code).to.equal(0);
      expect(r.out).to.include('Enabled "bob.hr".');
      expect(await checkCredentials(t.db, 'bob.hr', 'bobs password')).to.not.equal(null);
      expect(cli(['user', 'enable', '--username', 'bob.hr'], env).out).to.include('"bob.hr" is already active.');
      for (const cmd of ['disable', 'enable']) {
        r = cli(['user', cmd, '--username', 'ghost.user'], env);
        expect(r.code).to.equal(1);
        expect(r.err).to.include('No HR user "ghost.user".');
      }
    });

    it('asks for the password with a hidden prompt in a terminal', async function () {
      if (!hasScript) this.skip();
      // Without PUBLIC_BASE_URL the address is this machine's, on PORT.
      let r = await ptyRun(['user', 'create', '--username', 'pty.user'], { ...env, PUBLIC_BASE_URL: '', PORT: '8081' }, [
        ['Password:', 'short\r'],
        ['Password must be at least 8 characters.', '\x15typed secret 9\r'],
        ['Repeat password:', 'typed secret 9\r'],
      ]);
      expect(r.code, r.out).to.equal(0);
      expect(r.out).to.include('Created HR user "pty.user". Sign in at http://localhost:8081/hrviewlogin\r\n');
      expect(r.out, 'the password is never echoed').to.not.include('typed secret');
      expect(await checkCredentials(t.db, 'pty.user', 'typed secret 9')).to.not.equal(null);

      // A mismatch asks for both again; three mismatches give up and change nothing.
      r = await ptyRun(['user', 'passwd', '--username', 'pty.user'], env, [
        ['Password:', 'new secret 10\r'],
        ['Repeat password:', 'not the same\r'],
        ['Password:', 'new secret 10\r'],
        ['Repeat password:', 'still not it\r'],
        ['Password:', 'new secret 10\r'],
        ['Repeat password:', 'nor this\r'],
      ]);
      expect(r.code, r.out).to.equal(1);
      expect(r.out.match(/The passwords do not match\. Type the password again, twice\./g)).to.have.length(2);
      expect(r.out).to.include('The passwords do not match (3 tries); nothing was changed.');
      expect(await checkCredentials(t.db, 'pty.user', 'typed secret 9')).to.not.equal(null);
      // user create: a mismatch, then the same twice: created with the second password.
      r = await ptyRun(['user', 'create', '--username', 'pty.again'], env, [
        ['Password:', 'first secret 1\r'],
        ['Repeat password:', 'first secret 2\r'],
        ['Password:', 'second secret 3\r'],
        ['Repeat password:', 'second secret 3\r'],
      ]);
      expect(r.code, r.out).to.equal(0);
      expect(r.out).to.include('Created HR user "pty.again".');
      expect(await checkCredentials(t.db, 'pty.again', 'second secret 3')).to.not.equal(null);

      r = await ptyRun(['user', 'passwd', '--username', 'pty.user'], env, [
        ['Password:', 'new secret 10\r'],
        ['Repeat password:', 'new secret 10\r'],
      ]);
      expect(r.code, r.out).to.equal(0);
      expect(r.out).to.include('Password changed for "pty.user"; 0 sessions signed out.');
      expect(await checkCredentials(t.db, 'pty.user', 'new secret 10')).to.not.equal(null);
    });
  });
}

describe('careers-admin user commands without a database', function () {
  this.timeout(60_000);
  it('names the missing database file and creates none; after migrate, create works', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'careers-cli-empty-'));
    try {
      const env = { DATA_DIR: dataDir, DATABASE_URL: '' };
      const file = path.join(dataDir, 'careers.sqlite');
      for (const args of [
        ['user', 'list'],
        ['user', 'disable', '--username', 'someone'],
        ['user', 'create', '--username', 'first.user', '--password-stdin'],
      ]) {
        const r = cli(args, env, 'first password\n');
        expect(r.code, args.join(' ')).to.equal(1);
        expect(r.err).to.include(`No database at ${file}`);
        expect(r.err).to.include('careers-admin migrate');
      }
      expect(fs.existsSync(file)).to.equal(false);
      expect(cli(['migrate'], env).code).to.equal(0);
      // A database without a user: create works, list shows it.
      const r = cli(['user', 'create', '--username', 'first.user', '--password-stdin'], env, 'first password\n');
      expect(r.code, r.err).to.equal(0);
      expect(cli(['users', 'list'], env).out).to.match(/first\.user\s+active/);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('says to run the migrations first on a database file without tables', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'careers-cli-empty-'));
    try {
      fs.writeFileSync(path.join(dataDir, 'careers.sqlite'), '');
      const r = cli(['user', 'list'], { DATA_DIR: dataDir, DATABASE_URL: '' });
      expect(r.code).to.equal(1);
      expect(r.err).to.include('The database has no tables yet: run "careers-admin migrate" first.');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
