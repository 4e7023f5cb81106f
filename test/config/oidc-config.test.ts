/** OIDC_* settings (issue 30, config/oidc.ts): all three or none, each problem named, the button's default label. */
import { expect } from 'chai';
import { ConfigError, SETTINGS, loadConfig } from '../../config/index.js';
import { defaultProviderName } from '../../config/oidc.js';

const BASE = { OIDC_ISSUER: 'https://login.example.com/realms/staff', OIDC_CLIENT_ID: 'careers', OIDC_CLIENT_SECRET: 's3cret-value' };

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('configuration: company sign-in (OIDC_*)', () => {
  it('is off unless set, and reads every setting', () => {
    expect(loadConfig({}).oidc).to.equal(null);
    expect(loadConfig(BASE).oidc).to.deep.equal({
      issuer: BASE.OIDC_ISSUER,
      clientId: 'careers',
      clientSecret: 's3cret-value',
      providerName: 'your company',
      autoCreate: 'off',
      only: false,
    });
    const c = loadConfig({ ...BASE, OIDC_PROVIDER_NAME: '  Acme   SSO ', OIDC_AUTO_CREATE: 'Recruiter', OIDC_ONLY: 'true' }).oidc!;
    expect(c).to.include({ providerName: 'Acme SSO', autoCreate: 'recruiter', only: true });
    expect(loadConfig({ ...BASE, OIDC_ISSUER: 'http://127.0.0.1:9999' }).oidc!.issuer).to.equal('http://127.0.0.1:9999');
  });

  it('names a default label from well-known issuers, else "your company"', () => {
    expect(defaultProviderName('https://accounts.google.com')).to.equal('Google');
    expect(defaultProviderName('https://login.microsoftonline.com/0000/v2.0')).to.equal('Microsoft');
    expect(defaultProviderName('https://acme.okta.com')).to.equal('Okta');
    expect(defaultProviderName('https://sso.acme.example/realms/staff')).to.equal('your company');
    expect(defaultProviderName('not a url')).to.equal('your company');
  });

  it('refuses half a configuration and bad values with messages naming the variable', () => {
    expect(problems({ OIDC_ISSUER: BASE.OIDC_ISSUER })).to.deep.equal([
      'OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set together (missing: OIDC_CLIENT_ID, OIDC_CLIENT_SECRET); leave all three unset to turn company sign-in off',
    ]);
    expect(problems({ OIDC_CLIENT_SECRET: 'x', OIDC_CLIENT_ID: 'y' })[0]).to.include('(missing: OIDC_ISSUER)');
    expect(problems({ OIDC_ONLY: 'true' })).to.deep.equal([
      'OIDC_ONLY needs company sign-in: set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET, or leave it unset',
    ]);
    expect(problems({ OIDC_AUTO_CREATE: 'recruiter', OIDC_PROVIDER_NAME: 'X' })[0]).to.equal(
      'OIDC_PROVIDER_NAME, OIDC_AUTO_CREATE need company sign-in: set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET, or leave them unset',
    );
    for (const issuer of ['http://login.example.com', 'login.example.com', 'ftp://x.example', 'javascript:alert(1)']) {
      expect(problems({ ...BASE, OIDC_ISSUER: issuer })[0], issuer).to.match(/^OIDC_ISSUER must be the provider's https:\/\/ issuer URL/);
    }
    expect(problems({ ...BASE, OIDC_ISSUER: 'https://u:p@login.example.com' })[0]).to.match(
      /^OIDC_ISSUER must be an issuer URL without user name/,
    );
    expect(problems({ ...BASE, OIDC_ISSUER: 'https://login.example.com/?a=1' })[0]).to.match(/^OIDC_ISSUER must be an issuer URL without/);
    expect(problems({ ...BASE, OIDC_CLIENT_ID: 'has space' })[0]).to.match(/^OIDC_CLIENT_ID must be 1 to 255 visible ASCII characters/);
    expect(problems({ ...BASE, OIDC_CLIENT_ID: 'x'.repeat(256) })[0]).to.match(/^OIDC_CLIENT_ID must be/);
    expect(problems({ ...BASE, OIDC_CLIENT_SECRET: 'é' })[0]).to.match(/^OIDC_CLIENT_SECRET must be 1 to 1024 visible ASCII characters/);
    expect(problems({ ...BASE, OIDC_PROVIDER_NAME: '<b>Acme</b>' })[0]).to.match(
      /^OIDC_PROVIDER_NAME must be at most 60 characters of plain text/,
    );
    expect(problems({ ...BASE, OIDC_PROVIDER_NAME: 'x'.repeat(61) })[0]).to.match(/^OIDC_PROVIDER_NAME must be/);
    expect(problems({ ...BASE, OIDC_AUTO_CREATE: 'admin' })).to.deep.equal(['OIDC_AUTO_CREATE must be off or recruiter (got "admin")']);
    expect(problems({ ...BASE, OIDC_ISSUER: 'https://accounts.google.com', OIDC_AUTO_CREATE: 'recruiter' })).to.deep.equal([
      "OIDC_AUTO_CREATE=recruiter must not be used with the public issuer https://accounts.google.com: anyone with an account there could sign in; leave it off and add your colleagues' addresses on /hr/users",
    ]);
    expect(problems({ ...BASE, OIDC_ISSUER: 'https://login.microsoftonline.com/common/v2.0', OIDC_AUTO_CREATE: 'recruiter' })[0]).to.match(
      /^OIDC_AUTO_CREATE=recruiter must not be used with the public issuer/,
    );
    expect(
      problems({
        ...BASE,
        OIDC_ISSUER: 'https://login.microsoftonline.com/0e5c9d0e-0000-4000-8000-000000000000/v2.0',
        OIDC_AUTO_CREATE: 'recruiter',
      }),
    ).to.deep.equal([]);
    expect(problems({ ...BASE, OIDC_ONLY: 'sometimes' })).to.deep.equal(['OIDC_ONLY must be true or false (got "sometimes")']);
  });

  it('lists the settings for careers-admin config, the secret masked', () => {
    const names = SETTINGS.filter((s) => s.name.startsWith('OIDC_'));
    expect(names.map((s) => s.name)).to.deep.equal([
      'OIDC_ISSUER',
      'OIDC_CLIENT_ID',
      'OIDC_CLIENT_SECRET',
      'OIDC_PROVIDER_NAME',
      'OIDC_AUTO_CREATE',
      'OIDC_ONLY',
    ]);
    expect(names.find((s) => s.name === 'OIDC_CLIENT_SECRET')!.secret).to.equal('all');
  });
});
