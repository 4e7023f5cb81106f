import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { ConfigError, SETTINGS, loadConfig } from '../../config/index.js';
import { createDb } from '../../src/db/knex.js';
import { describeTrustProxy } from '../../src/server.js';

describe('configuration', () => {
  it('has safe defaults', () => {
    const c = loadConfig({});
    expect(c.port).to.equal(3000);
    expect(c.databaseUrl).to.equal(null);
    expect(c.dataDir).to.equal(path.resolve(c.rootDir, 'data'));
    expect(c.publicBaseUrl).to.equal('http://localhost:3000');
    expect(c.sessionIdleMinutes).to.equal(60);
    expect(c.sessionMaxHours).to.equal(12);
    expect(c.env).to.equal('development');
    expect(c.rateLimits.apply).to.deep.equal({ limit: 10, windowSeconds: 600 });
    expect(c.rateLimits.login).to.deep.equal({ limit: 10, windowSeconds: 900 });
    expect(c.postsSweepCron).to.equal('* * * * *');
    expect(c.webhookAllowPrivate).to.equal(false);
    expect(c.trustProxy).to.equal(false);
    expect(c.rateLimits.ipv6Subnet).to.equal(56);
  });

  it('reads every documented variable', () => {
    const c = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'mysql://u:p@db:3306/careers',
      DATA_DIR: '/tmp/x',
      PUBLIC_BASE_URL: 'https://jobs.example.com/',
      NODE_ENV: 'production',
      SESSION_IDLE_MINUTES: '120',
      SESSION_MAX_HOURS: '10',
      TRUST_PROXY: 'true',
      APPLY_RATE_LIMIT: '0',
      APPLY_RATE_WINDOW_SECONDS: '60',
      WEBHOOK_ALLOW_PRIVATE: '1',
      POSTS_SWEEP_CRON: 'off',
      COMPANY_NAME: 'Globex',
      COMPANY_ABOUT_URL: 'https://globex.example/about',
      COMPANY_NETWORK_URL: 'https://www.linkedin.com/company/globex',
      CAREERS_EMAIL: 'jobs@globex.example',
      SMTP_URL: 'smtp://mail:25',
      RATE_LIMIT_IPV6_SUBNET: '64',
      COMPANY_LOGO_URL: ' https://cdn.globex.example/logo.png ',
    });
    expect(c).to.deep.include({
      port: 8080,
      databaseUrl: 'mysql://u:p@db:3306/careers',
      dataDir: '/tmp/x',
      publicBaseUrl: 'https://jobs.example.com',
      env: 'production',
      sessionIdleMinutes: 120,
      sessionMaxHours: 10,
      trustProxy: 1,
      webhookAllowPrivate: true,
      postsSweepCron: null,
    });
    expect(c.rateLimits.ipv6Subnet).to.equal(64);
    expect(c.rateLimits.apply).to.deep.equal({ limit: 0, windowSeconds: 60 });
    expect(c.company).to.deep.equal({
      name: 'Globex',
      aboutUrl: 'https://globex.example/about',
      networkUrl: 'https://www.linkedin.com/company/globex',
      careersEmail: 'jobs@globex.example',
      logoUrl: 'https://cdn.globex.example/logo.png',
    });
    expect(c.mail.smtpUrl).to.equal('smtp://mail:25');
  });

  it('refuses bad values with a message naming each variable', () => {
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'postgres://x',
        SESSION_TTL_SECONDS: '-5',
        TRUST_PROXY: 'maybe',
        PUBLIC_BASE_URL: 'ftp://x',
        CAREERS_EMAIL: 'nope',
        NODE_ENV: 'staging',
        POSTS_SWEEP_CRON: 'every minute',
      });
      expect.fail('should throw');
    } catch (err) {
      expect(err).to.be.instanceOf(ConfigError);
      const msg = (err as Error).message;
      for (const name of [
        'PORT',
        'DATABASE_URL',
        'SESSION_TTL_SECONDS',
        'TRUST_PROXY',
        'PUBLIC_BASE_URL',
        'CAREERS_EMAIL',
        'NODE_ENV',
        'POSTS_SWEEP_CRON',
      ])
        expect(msg).to.include(name);
    }
  });

  it('reads the session times (SESSION_IDLE_MINUTES, SESSION_MAX_HOURS, the older SESSION_TTL_SECONDS) and refuses bad ones', () => {
    const times = (env: Record<string, string>) => {
      const c = loadConfig(env);
      return [c.sessionIdleMinutes, c.sessionMaxHours];
    };
    expect(times({ SESSION_IDLE_MINUTES: '1', SESSION_MAX_HOURS: '1' })).to.deep.equal([1, 1]);
    expect(times({ SESSION_IDLE_MINUTES: ' 1440 ', SESSION_MAX_HOURS: '720' })).to.deep.equal([1440, 720]);
    expect(times({ SESSION_IDLE_MINUTES: '', SESSION_MAX_HOURS: '' })).to.deep.equal([60, 12]);
    // The older name, in seconds, when the new one is unset.
    expect(times({ SESSION_TTL_SECONDS: '1800' })).to.deep.equal([30, 12]);
    expect(times({ SESSION_TTL_SECONDS: '60' })).to.deep.equal([1, 12]);
    const refused: [Record<string, string>, string][] = [
      [{ SESSION_IDLE_MINUTES: '0' }, 'SESSION_IDLE_MINUTES must be a whole number from 1 to 1440 (got "0")'],
      [{ SESSION_IDLE_MINUTES: '1441' }, 'SESSION_IDLE_MINUTES must be a whole number from 1 to 1440 (got "1441")'],
      [{ SESSION_IDLE_MINUTES: '1.5' }, 'SESSION_IDLE_MINUTES must be a whole number from 1 to 1440 (got "1.5")'],
      [{ SESSION_IDLE_MINUTES: '-5' }, 'SESSION_IDLE_MINUTES must be a whole number from 1 to 1440 (got "-5")'],
      [{ SESSION_IDLE_MINUTES: 'an hour' }, 'SESSION_IDLE_MINUTES must be a whole number from 1 to 1440 (got "an hour")'],
      [{ SESSION_IDLE_MINUTES: '9'.repeat(400) }, 'SESSION_IDLE_MINUTES must be a whole number from 1 to 1440'],
      [{ SESSION_MAX_HOURS: '0' }, 'SESSION_MAX_HOURS must be a whole number from 1 to 720 (got "0")'],
      [{ SESSION_MAX_HOURS: '721' }, 'SESSION_MAX_HOURS must be a whole number from 1 to 720 (got "721")'],
      [{ SESSION_MAX_HOURS: '12h' }, 'SESSION_MAX_HOURS must be a whole number from 1 to 720 (got "12h")'],
      [
        { SESSION_IDLE_MINUTES: '90', SESSION_MAX_HOURS: '1' },
        'SESSION_MAX_HOURS (1) must be at least as long as SESSION_IDLE_MINUTES (90 minutes)',
      ],
      [
        { SESSION_TTL_SECONDS: '3600', SESSION_IDLE_MINUTES: '60' },
        'SESSION_TTL_SECONDS is the older name of SESSION_IDLE_MINUTES (in seconds): set only SESSION_IDLE_MINUTES',
      ],
      [
        { SESSION_TTL_SECONDS: '90' },
        'SESSION_TTL_SECONDS must be a whole number of minutes in seconds (got "90"); better, set SESSION_IDLE_MINUTES instead',
      ],
      [{ SESSION_TTL_SECONDS: '30' }, 'SESSION_TTL_SECONDS must be a whole number from 60 to 86400 (got "30")'],
    ];
    for (const [env, message] of refused) expect(() => loadConfig(env), JSON.stringify(env).slice(0, 80)).to.throw(ConfigError, message);
  });

  it('reads MAIL_REPLY_TO, MAIL_REPLY_TO_SENDER and HR_NOTIFY_DIGEST (issue 30), and refuses bad values with clear messages', () => {
    expect(loadConfig({}).mail).to.deep.include({ replyTo: null, replyToSender: false, hrNotifyDigest: 'off' });
    expect(
      loadConfig({ MAIL_REPLY_TO: ' jobs@acme.example ', MAIL_REPLY_TO_SENDER: 'true', HR_NOTIFY_DIGEST: 'Daily' }).mail,
    ).to.deep.include({ replyTo: 'jobs@acme.example', replyToSender: true, hrNotifyDigest: 'daily' });
    expect(() => loadConfig({ HR_NOTIFY_DIGEST: 'weekly' })).to.throw(
      ConfigError,
      'HR_NOTIFY_DIGEST must be hourly, daily or off (got "weekly")',
    );
    expect(() => loadConfig({ MAIL_REPLY_TO: 'not an address' })).to.throw(
      ConfigError,
      'MAIL_REPLY_TO must be an email address (got "not an address")',
    );
    expect(() => loadConfig({ MAIL_REPLY_TO_SENDER: 'sometimes' })).to.throw(
      ConfigError,
      'MAIL_REPLY_TO_SENDER must be true or false (got "sometimes")',
    );
  });

  it('reads APPLY_CONSENT_TEXT as one trimmed line, unset (no consent asked) by default', () => {
    expect(loadConfig({}).applyConsentText).to.equal(null);
    for (const blank of ['', '  \n '])
      expect(loadConfig({ APPLY_CONSENT_TEXT: blank }).applyConsentText, JSON.stringify(blank)).to.equal(null);
    expect(loadConfig({ APPLY_CONSENT_TEXT: '  I agree that <b>Acme</b>\n  may keep my data.  ' }).applyConsentText).to.equal(
      'I agree that <b>Acme</b> may keep my data.',
    );
    expect(loadConfig({ APPLY_CONSENT_TEXT: 'x'.repeat(2000) }).applyConsentText).to.have.length(2000);
    expect(() => loadConfig({ APPLY_CONSENT_TEXT: 'x'.repeat(2001) })).to.throw(
      ConfigError,
      'APPLY_CONSENT_TEXT must be at most 2000 characters (got 2001)',
    );
  });

  it('reads JOB_APPROVAL, JOB_CHECKS_BLOCK and APPLICATION_RETENTION_DAYS (issue 34), off and pay_rule,salary_history by default', () => {
    const c = loadConfig({});
    expect(c.jobApproval).to.equal(false);
    expect(c.jobChecksBlock).to.deep.equal(['pay_rule', 'salary_history']);
    expect(c.applicationRetentionDays).to.equal(null);
    expect(loadConfig({ JOB_APPROVAL: 'on' }).jobApproval).to.equal(true);
    expect(() => loadConfig({ JOB_APPROVAL: 'sometimes' })).to.throw(ConfigError, 'JOB_APPROVAL must be true or false (got "sometimes")');
    expect(loadConfig({ JOB_CHECKS_BLOCK: ' closing_date , PAY_RULE,closing_date' }).jobChecksBlock).to.deep.equal([
      'closing_date',
      'pay_rule',
    ]);
    expect(loadConfig({ JOB_CHECKS_BLOCK: 'none' }).jobChecksBlock).to.deep.equal([]);
    expect(() => loadConfig({ JOB_CHECKS_BLOCK: 'pay_rule,vibes' })).to.throw(
      ConfigError,
      'JOB_CHECKS_BLOCK must be "none" or a comma-separated list of pay_rule, salary_history, closing_date, structured_data, consent, retention (got "pay_rule,vibes")',
    );
    expect(loadConfig({ APPLICATION_RETENTION_DAYS: '365' }).applicationRetentionDays).to.equal(365);
    for (const bad of ['0', '-1', '1.5', 'a year', '36501'])
      expect(() => loadConfig({ APPLICATION_RETENTION_DAYS: bad }), bad).to.throw(
        ConfigError,
        `APPLICATION_RETENTION_DAYS must be a whole number from 1 to 36500 (got "${bad}")`,
      );
  });

  it('reads COMPANY_LOGO_URL as an optional http(s) URL, unset by default', () => {
    expect(loadConfig({}).company.logoUrl).to.equal(null);
    for (const blank of ['', '   ']) expect(loadConfig({ COMPANY_LOGO_URL: blank }).company.logoUrl, JSON.stringify(blank)).to.equal(null);
    for (const ok of ['http://logo.example/a.svg', 'https://cdn.example.com:8443/brand/logo.png?v=2']) {
      expect(loadConfig({ COMPANY_LOGO_URL: ok }).company.logoUrl).to.equal(ok);
    }
    const bad = [
      'logo.png',
      '/static/logo.png',
      '//cdn.example/logo.png',
      'ftp://cdn.example/logo.png',
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      'https://',
      'https://exa mple.com/logo.png',
    ];
    for (const v of bad)
      expect(() => loadConfig({ COMPANY_LOGO_URL: v }), v).to.throw(ConfigError, 'COMPANY_LOGO_URL must be a http: or https: URL');
    // It is published on every job page: credentials in it would be too.
    try {
      loadConfig({ COMPANY_LOGO_URL: 'https://user:s3cret@cdn.example/logo.png' });
      expect.fail('should throw');
    } catch (err) {
      expect((err as Error).message)
        .to.include('COMPANY_LOGO_URL must not contain a user name or password')
        .and.not.include('s3cret');
    }
  });

  it('refuses cron expressions node-cron would not run, and base URLs that are more than an origin', () => {
    for (const cron of ['61 * * * *', 'a b c d e', '* * * *']) {
      expect(() => loadConfig({ POSTS_SWEEP_CRON: cron }), cron).to.throw(ConfigError, 'POSTS_SWEEP_CRON');
    }
    expect(loadConfig({ POSTS_SWEEP_CRON: '*/5 * * * *' }).postsSweepCron).to.equal('*/5 * * * *');
    for (const base of ['https://x.example/path', 'https://x.example/?q=1', 'https://x.example/#top', 'https://user:pw@x.example']) {
      expect(() => loadConfig({ PUBLIC_BASE_URL: base }), base).to.throw(
        ConfigError,
        'PUBLIC_BASE_URL must be only a scheme, host and optional port',
      );
    }
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://jobs.example.com:8443/' }).publicBaseUrl).to.equal('https://jobs.example.com:8443');
  });

  it('reads TRUST_PROXY as Express takes it, with true as one hop, and Express compiles every accepted value', () => {
    const cases: Array<[string | undefined, false | number | string[]]> = [
      [undefined, false],
      ['', false],
      ['false', false],
      ['off', false],
      ['no', false],
      ['0', false],
      ['true', 1],
      ['TRUE', 1],
      [' yes ', 1],
      ['on', 1],
      ['1', 1],
      ['2', 2],
      ['10', 10],
      ['10.0.0.1', ['10.0.0.1']],
      [
        'Loopback, 10.0.0.0/8 ,2001:db8::/32, 192.168.0.0/255.255.0.0,uniquelocal,linklocal',
        ['loopback', '10.0.0.0/8', '2001:db8::/32', '192.168.0.0/255.255.0.0', 'uniquelocal', 'linklocal'],
      ],
      ['::1, ::ffff:10.0.0.1, 10.0.0.1, 10.0.0.1', ['::1', '::ffff:10.0.0.1', '10.0.0.1']],
    ];
    for (const [raw, want] of cases) {
      const got = loadConfig(raw === undefined ? {} : { TRUST_PROXY: raw }).trustProxy;
      expect(got, String(raw)).to.deep.equal(want);
      // Express's own parser takes it (a value it refused would throw here).
      express().set('trust proxy', got);
    }
    // What Express then trusts: one hop trusts the socket's peer only; a list, only its ranges.
    const app = express().set('trust proxy', loadConfig({ TRUST_PROXY: 'true' }).trustProxy);
    const hops = app.get('trust proxy fn') as (addr: string, i: number) => boolean;
    expect([hops('203.0.113.1', 0), hops('203.0.113.1', 1)]).to.deep.equal([true, false]);
    app.set('trust proxy', loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy);
    const list = app.get('trust proxy fn') as (addr: string, i: number) => boolean;
    expect(['127.0.0.1', '::1', '10.9.8.7', '203.0.113.1', '11.0.0.1'].map((a) => list(a, 0))).to.deep.equal([
      true,
      true,
      true,
      false,
      false,
    ]);
  });

  it('refuses a bad TRUST_PROXY value or list entry, naming TRUST_PROXY and the entry', () => {
    for (const [raw, entry] of [
      ['maybe', 'maybe'],
      ['11', '11'],
      ['-1', '-1'],
      ['10.1', '10.1'],
      ['10.0.0.256', '10.0.0.256'],
      ['10.0.0.1/33', '10.0.0.1/33'],
      ['2001:db8::/129', '2001:db8::/129'],
      ['10.0.0.0/255.0.255.0', '10.0.0.0/255.0.255.0'],
      ['1.2.3.4/8/9', '1.2.3.4/8/9'],
      ['fe80::1%eth0', 'fe80::1%eth0'],
      ['10.0.0.1, evil.example', 'evil.example'],
      ['loopback,,10.0.0.1', ''],
      ['localhost', 'localhost'],
      ['10.0.0.1 10.0.0.2', '10.0.0.1 10.0.0.2'],
      ['2001:db8::/x', '2001:db8::/x'],
      ['0x7f000001', '0x7f000001'],
    ]) {
      expect(() => loadConfig({ TRUST_PROXY: raw }), raw).to.throw(ConfigError, /TRUST_PROXY must be/);
      if (!/^-?\d+$/.test(raw)) expect(() => loadConfig({ TRUST_PROXY: raw }), raw).to.throw(ConfigError, `"${entry}"`);
    }
  });

  it('reads RATE_LIMIT_IPV6_SUBNET from 32 to 64', () => {
    expect(loadConfig({ RATE_LIMIT_IPV6_SUBNET: '32' }).rateLimits.ipv6Subnet).to.equal(32);
    expect(loadConfig({ RATE_LIMIT_IPV6_SUBNET: '64' }).rateLimits.ipv6Subnet).to.equal(64);
    for (const bad of ['31', '65', '48.5', 'off', '0']) {
      expect(() => loadConfig({ RATE_LIMIT_IPV6_SUBNET: bad }), bad).to.throw(
        ConfigError,
        'RATE_LIMIT_IPV6_SUBNET must be a whole number from 32 to 64',
      );
    }
  });

  it('reads STAMPED_CACHE_OFF as a list of stamped cache spaces, none by default', () => {
    expect(loadConfig({}).stampedCacheOff).to.deep.equal([]);
    expect(loadConfig({ STAMPED_CACHE_OFF: ' insights , applicant-totals ' }).stampedCacheOff).to.deep.equal([
      'insights',
      'applicant-totals',
    ]);
    expect(() => loadConfig({ STAMPED_CACHE_OFF: 'insights,public-jobs' })).to.throw(
      ConfigError,
      'STAMPED_CACHE_OFF must be a comma-separated list of insights, applicant-totals',
    );
  });

  it('sizes the SQLite page cache from SQLITE_CACHE_MB, 64 MB by default', async () => {
    expect(loadConfig({}).sqliteCacheMb).to.equal(64);
    for (const bad of ['1', '4097', 'big', '2.5']) {
      expect(() => loadConfig({ SQLITE_CACHE_MB: bad }), bad).to.throw(
        ConfigError,
        'SQLITE_CACHE_MB must be a whole number from 2 to 4096',
      );
    }
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'careers-cache-'));
    const db = createDb(loadConfig({ DATA_DIR: dataDir, SQLITE_CACHE_MB: '8' }));
    try {
      expect(await db.raw('PRAGMA cache_size')).to.deep.equal([{ cache_size: -8192 }]);
    } finally {
      await db.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('lists every setting the README documents, so `careers-admin config` shows each one', () => {
    const readme = fs.readFileSync(path.join(loadConfig({}).rootDir, 'README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('| Variable | Default | Meaning |'));
    const rows = table.slice(0, table.indexOf('\n\n')).split('\n').slice(2);
    const documented = rows.flatMap((row) => [...row.split(' | ')[0].matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1]));
    expect(documented.length).to.be.greaterThan(30);
    expect(SETTINGS.map((s) => s.name)).to.include.members(documented);
  });

  it('describes the TRUST_PROXY setting for the start-up log', () => {
    expect(describeTrustProxy(false)).to.equal(null);
    expect(describeTrustProxy(1))
      .to.include('1 hop (what `true` means here)')
      .and.include('With a CDN or another proxy in front of that one');
    expect(describeTrustProxy(2)).to.include('2 hops').and.include('farthest of 2 proxies');
    expect(describeTrustProxy(['loopback', '10.0.0.0/8'])).to.include('proxies at loopback, 10.0.0.0/8');
  });
});
