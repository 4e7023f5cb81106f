/** careers-admin config and the .env file: values with their source, the environment winning, secrets masked. */
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, readSettings } from '../../config/index.js';
import { runCli } from './helpers.js';

const DOTENV = [
  '# settings for this host',
  'PORT=4100',
  'COMPANY_NAME="Env File Co"',
  'DATABASE_URL=mysql://app:hunter2@db.internal:3306/careers',
  'SMTP_URL=smtp://mailer:mailpass@smtp.example.com:587',
  'METRICS_TOKEN=tok-secret-0123456789',
  '',
].join('\n');

/** The row of `name` in config's table, as [value, source]. */
function row(out: string, name: string): [string, string] | undefined {
  const line = out.split('\n').find((l) => l.startsWith(`${name} `));
  const m = line && /^\S+\s+(.*?)\s{2,}(default|environment|\.env file .*)$/.exec(line);
  return m ? [m[1], m[2]] : undefined;
}

describe('careers-admin config and the .env file', function () {
  this.timeout(60_000);
  let dir: string;
  // Names this test sets in .env, removed from the child's inherited environment.
  const clean = {
    PORT: undefined,
    DATABASE_URL: undefined,
    SMTP_URL: undefined,
    METRICS_TOKEN: undefined,
    CAREERS_ENV_FILE: undefined,
    MAIL_FROM: undefined,
  };

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'careers-config-'));
    fs.writeFileSync(path.join(dir, '.env'), DOTENV);
    fs.writeFileSync(path.join(dir, 'other.env'), 'PORT=4200\n');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('shows each value with its source; the environment wins; secrets are masked', async () => {
    const r = await runCli(['config'], { ...clean, COMPANY_NAME: 'From Env' }, dir);
    expect(r.code, r.err).to.equal(0);
    const file = path.join(dir, '.env');
    expect(r.out).to.include(`Settings file: ${file}`);
    expect(row(r.out, 'PORT')).to.deep.equal(['4100', `.env file ${file}`]);
    expect(row(r.out, 'COMPANY_NAME')).to.deep.equal(['From Env', 'environment']);
    expect(row(r.out, 'MAIL_FROM')).to.deep.equal(['careers@example.com', 'default']);
    expect(row(r.out, 'DATABASE_URL')).to.deep.equal(['mysql://app:********@db.internal:3306/careers', `.env file ${file}`]);
    expect(row(r.out, 'SMTP_URL')).to.deep.equal(['smtp://mailer:********@smtp.example.com:587', `.env file ${file}`]);
    expect(row(r.out, 'METRICS_TOKEN')).to.deep.equal(['********', `.env file ${file}`]);
    for (const secret of ['hunter2', 'mailpass', 'tok-secret-0123456789']) expect(r.out + r.err).to.not.include(secret);
  });

  it('CAREERS_ENV_FILE names another file; one that cannot be read is a usage error', async () => {
    const other = await runCli(['config'], { ...clean, CAREERS_ENV_FILE: 'other.env' }, dir);
    expect(other.code, other.err).to.equal(0);
    expect(row(other.out, 'PORT')).to.deep.equal(['4200', `.env file ${path.join(dir, 'other.env')}`]);
    expect(row(other.out, 'DATABASE_URL')?.[1]).to.equal('default');
    const missing = await runCli(['config'], { ...clean, CAREERS_ENV_FILE: 'missing.env' }, dir);
    expect(missing.code).to.equal(2);
    expect(missing.err).to.include(`CAREERS_ENV_FILE: cannot read the settings file ${path.join(dir, 'missing.env')}`);
  });

  it('masks secrets by a case-insensitive name rule and the user-info of every URL-looking value (issue 28)', async () => {
    const secrets = [
      'session_secret=ss-0001-clear',
      'api_key=ak-0002-clear',
      'DB_PASS=dbp-0003-clear',
      'SMTP_PASS=smp-0004-clear',
      'GCP_CREDENTIALS={"k":"cr-0005-clear"}',
      'PRIVATE_KEY_PEM="-----BEGIN KEY----- pk-0006-clear"',
      'Signing_Key=sk-0007-clear',
      'github_token=gt-0008-clear',
      'REDIS_URL=redis://:rp-0009-clear@cache.internal:6379/0',
      'WEBHOOK_BASE=https://hk-0010-clear@hooks.example.com/in',
      'MIRROR_URL=https://mirror:mp-0011-clear@mirror.example.com/a?b=1',
      'AT_SIGN_URL=mysql://app:p@ss-0012-clear@db.internal/careers',
      'FEED_URL=https://feeds.example.com/x?format=rss&access_token=qt-0013-clear&n=5',
      'NOTE=see postgres://ops:np-0014-clear@pg.internal/db and more',
      'PLAIN_NAME=not a secret at all',
    ];
    const custom = path.join(dir, 'secrets.env');
    fs.writeFileSync(
      custom,
      `${[...secrets, 'DATABASE_URL=mysql://app:dbu-0015-clear@db.internal:3306/careers', 'SMTP_URL=user:sp-0016-clear@smtp.example.com'].join('\n')}\n`,
    );
    const r = await runCli(['config'], { ...clean, CAREERS_ENV_FILE: 'secrets.env' }, dir);
    for (const n of Array.from({ length: 16 }, (_, i) => String(i + 1).padStart(4, '0')))
      expect(r.out + r.err, n).to.not.match(new RegExp(`-${n}-clear`));
    for (const name of [
      'session_secret',
      'api_key',
      'DB_PASS',
      'SMTP_PASS',
      'GCP_CREDENTIALS',
      'PRIVATE_KEY_PEM',
      'Signing_Key',
      'github_token',
    ])
      expect(row(r.out, name)?.[0], name).to.equal('********');
    expect(row(r.out, 'REDIS_URL')?.[0]).to.equal('redis://:********@cache.internal:6379/0');
    expect(row(r.out, 'WEBHOOK_BASE')?.[0]).to.equal('https://********@hooks.example.com/in');
    expect(row(r.out, 'MIRROR_URL')?.[0]).to.equal('https://mirror:********@mirror.example.com/a?b=1');
    expect(row(r.out, 'AT_SIGN_URL')?.[0]).to.equal('mysql://app:********@db.internal/careers');
    expect(row(r.out, 'FEED_URL')?.[0]).to.equal('https://feeds.example.com/x?format=rss&access_token=********&n=5');
    expect(row(r.out, 'NOTE')?.[0]).to.equal('see postgres://ops:********@pg.internal/db and more');
    expect(row(r.out, 'PLAIN_NAME')?.[0]).to.equal('not a secret at all');
    // A URL setting that is no URL is masked whole, in the table and in the error that refuses it.
    expect(row(r.out, 'SMTP_URL')?.[0]).to.equal('********');
    expect(r.code).to.equal(2);
    expect(r.err).to.include('SMTP_URL must be a smtp: or smtps: URL (got "********")');
    expect(row(r.out, 'DATABASE_URL')?.[0]).to.equal('mysql://app:********@db.internal:3306/careers');
  });

  it('the server reads the same: the file under the environment, process.env untouched', () => {
    const settings = readSettings({ PORT: '5000', DATA_DIR: dir }, dir);
    const config = loadConfig(settings.env);
    expect(config.port).to.equal(5000);
    expect(config.company.name).to.equal('Env File Co');
    expect(config.databaseUrl).to.equal('mysql://app:hunter2@db.internal:3306/careers');
    expect(process.env.METRICS_TOKEN).to.equal(undefined);
    // An empty value in the environment still wins over the file.
    expect(readSettings({ COMPANY_NAME: '' }, dir).env.COMPANY_NAME).to.equal('');
  });

  it("without CAREERS_ENV_FILE or ./.env, the system settings file (the systemd unit's) is read; precedence: environment, CAREERS_ENV_FILE, ./.env, the system file", () => {
    const sys = fs.mkdtempSync(path.join(os.tmpdir(), 'careers-sys-'));
    const systemFile = path.join(sys, 'careers.env');
    fs.writeFileSync(systemFile, 'COMPANY_NAME=System Co\nPORT=4300\nSYSTEM_ONLY=yes\n');
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'careers-cwd-'));
    let settings = readSettings({ PORT: '5000' }, empty, systemFile);
    expect(settings.file).to.equal(systemFile);
    expect(settings.env).to.include({ COMPANY_NAME: 'System Co', PORT: '5000' });
    expect([...settings.fromFile]).to.deep.equal(['COMPANY_NAME', 'SYSTEM_ONLY']);
    // A .env in the working folder comes first (the system file is then not read at all).
    settings = readSettings({}, dir, systemFile);
    expect(settings.file).to.equal(path.join(dir, '.env'));
    expect(settings.env.COMPANY_NAME).to.equal('Env File Co');
    expect(settings.env.SYSTEM_ONLY).to.equal(undefined);
    // CAREERS_ENV_FILE comes before both; one that cannot be read is an error, never a fallback.
    expect(readSettings({ CAREERS_ENV_FILE: systemFile }, dir, '/nonexistent').env.COMPANY_NAME).to.equal('System Co');
    expect(() => readSettings({ CAREERS_ENV_FILE: 'missing.env' }, empty, systemFile)).to.throw(
      /CAREERS_ENV_FILE: cannot read the settings file .*missing\.env \(ENOENT\)/,
    );
    // No file anywhere: nothing read, no error.
    expect(readSettings({}, empty, path.join(sys, 'none.env')).file).to.equal(null);
    // A system file that exists but cannot be read (a folder here) is said plainly.
    expect(() => readSettings({}, empty, sys)).to.throw(/cannot read the settings file .* \(EISDIR\)/);
    fs.rmSync(sys, { recursive: true, force: true });
    fs.rmSync(empty, { recursive: true, force: true });
  });
});
