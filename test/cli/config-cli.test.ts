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
  const clean = { PORT: undefined, DATABASE_URL: undefined, SMTP_URL: undefined, METRICS_TOKEN: undefined, CAREERS_ENV_FILE: undefined, MAIL_FROM: undefined };

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
});
