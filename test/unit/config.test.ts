import { expect } from 'chai';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../config/index.js';

describe('configuration', () => {
  it('has safe defaults', () => {
    const c = loadConfig({});
    expect(c.port).to.equal(3000);
    expect(c.databaseUrl).to.equal(null);
    expect(c.dataDir).to.equal(path.resolve(c.rootDir, 'data'));
    expect(c.publicBaseUrl).to.equal('http://localhost:3000');
    expect(c.sessionTtlSeconds).to.equal(3600);
    expect(c.env).to.equal('development');
    expect(c.rateLimits.apply).to.deep.equal({ limit: 10, windowSeconds: 600 });
    expect(c.rateLimits.login).to.deep.equal({ limit: 10, windowSeconds: 900 });
    expect(c.postsSweepCron).to.equal('* * * * *');
    expect(c.webhookAllowPrivate).to.equal(false);
  });

  it('reads every documented variable', () => {
    const c = loadConfig({
      PORT: '8080', DATABASE_URL: 'mysql://u:p@db:3306/careers', DATA_DIR: '/tmp/x', PUBLIC_BASE_URL: 'https://jobs.example.com/',
      NODE_ENV: 'production', SESSION_TTL_SECONDS: '7200', TRUST_PROXY: 'true', APPLY_RATE_LIMIT: '0', APPLY_RATE_WINDOW_SECONDS: '60',
      WEBHOOK_ALLOW_PRIVATE: '1', POSTS_SWEEP_CRON: 'off', COMPANY_NAME: 'Globex', COMPANY_ABOUT_URL: 'https://globex.example/about',
      COMPANY_NETWORK_URL: 'https://www.linkedin.com/company/globex', CAREERS_EMAIL: 'jobs@globex.example', SMTP_URL: 'smtp://mail:25',
      COMPANY_LOGO_URL: ' https://cdn.globex.example/logo.png ',
    });
    expect(c).to.deep.include({ port: 8080, databaseUrl: 'mysql://u:p@db:3306/careers', dataDir: '/tmp/x', publicBaseUrl: 'https://jobs.example.com', env: 'production', sessionTtlSeconds: 7200, trustProxy: true, webhookAllowPrivate: true, postsSweepCron: null });
    expect(c.rateLimits.apply).to.deep.equal({ limit: 0, windowSeconds: 60 });
    expect(c.company).to.deep.equal({ name: 'Globex', aboutUrl: 'https://globex.example/about', networkUrl: 'https://www.linkedin.com/company/globex', careersEmail: 'jobs@globex.example', logoUrl: 'https://cdn.globex.example/logo.png' });
    expect(c.mail.smtpUrl).to.equal('smtp://mail:25');
  });

  it('refuses bad values with a message naming each variable', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'postgres://x', SESSION_TTL_SECONDS: '-5', TRUST_PROXY: 'maybe', PUBLIC_BASE_URL: 'ftp://x', CAREERS_EMAIL: 'nope', NODE_ENV: 'staging', POSTS_SWEEP_CRON: 'every minute' });
      expect.fail('should throw');
    } catch (err) {
      expect(err).to.be.instanceOf(ConfigError);
      const msg = (err as Error).message;
      for (const name of ['PORT', 'DATABASE_URL', 'SESSION_TTL_SECONDS', 'TRUST_PROXY', 'PUBLIC_BASE_URL', 'CAREERS_EMAIL', 'NODE_ENV', 'POSTS_SWEEP_CRON']) expect(msg).to.include(name);
    }
  });

  it('reads COMPANY_LOGO_URL as an optional http(s) URL, unset by default', () => {
    expect(loadConfig({}).company.logoUrl).to.equal(null);
    for (const blank of ['', '   ']) expect(loadConfig({ COMPANY_LOGO_URL: blank }).company.logoUrl, JSON.stringify(blank)).to.equal(null);
    for (const ok of ['http://logo.example/a.svg', 'https://cdn.example.com:8443/brand/logo.png?v=2']) {
      expect(loadConfig({ COMPANY_LOGO_URL: ok }).company.logoUrl).to.equal(ok);
    }
    const bad = ['logo.png', '/static/logo.png', '//cdn.example/logo.png', 'ftp://cdn.example/logo.png', 'javascript:alert(1)', 'data:image/png;base64,AAAA', 'https://', 'https://exa mple.com/logo.png'];
    for (const v of bad) expect(() => loadConfig({ COMPANY_LOGO_URL: v }), v).to.throw(ConfigError, 'COMPANY_LOGO_URL must be a http: or https: URL');
    // It is published on every job page: credentials in it would be too.
    try {
      loadConfig({ COMPANY_LOGO_URL: 'https://user:s3cret@cdn.example/logo.png' });
      expect.fail('should throw');
    } catch (err) {
      expect((err as Error).message).to.include('COMPANY_LOGO_URL must not contain a user name or password').and.not.include('s3cret');
    }
  });

  it('refuses cron expressions node-cron would not run, and base URLs that are more than an origin', () => {
    for (const cron of ['61 * * * *', 'a b c d e', '* * * *']) {
      expect(() => loadConfig({ POSTS_SWEEP_CRON: cron }), cron).to.throw(ConfigError, 'POSTS_SWEEP_CRON');
    }
    expect(loadConfig({ POSTS_SWEEP_CRON: '*/5 * * * *' }).postsSweepCron).to.equal('*/5 * * * *');
    for (const base of ['https://x.example/path', 'https://x.example/?q=1', 'https://x.example/#top', 'https://user:pw@x.example']) {
      expect(() => loadConfig({ PUBLIC_BASE_URL: base }), base).to.throw(ConfigError, 'PUBLIC_BASE_URL must be only a scheme, host and optional port');
    }
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://jobs.example.com:8443/' }).publicBaseUrl).to.equal('https://jobs.example.com:8443');
  });
});
