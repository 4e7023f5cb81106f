/**
 * PHONE_RULE (issue 30) over HTTP on both databases: the spec's dial code + 10 digits stays the
 * default; `international` takes any number valid for its country and stores it in E.164; a bad
 * PHONE_RULE stops the config with a clear message. The shared check (src/shared/phone-rule.ts).
 */
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { toFormData, validFields } from '../fixtures/apply.js';
import { ConfigError, loadConfig } from '../../config/index.js';
import { internationalPhone } from '../../src/shared/phone-rule.js';

describe('the international phone check', () => {
  it('gives E.164 for a valid number of its country, null otherwise', () => {
    expect(internationalPhone('+44 20 7946 0958')).to.equal('+442079460958');
    expect(internationalPhone('020 7946 0958', 'GB')).to.equal('+442079460958');
    expect(internationalPhone('(415) 555-2671', 'us')).to.equal('+14155552671');
    expect(internationalPhone('98765 43210', 'IN')).to.equal('+919876543210');
    expect(internationalPhone('030 901820', 'DE')).to.equal('+4930901820');
    for (const bad of ['', '+44 12', '12345', 'abc', '+1 415 555 2671 ext 3', '9'.repeat(60), '+91 98765 43210<script>'])
      expect(internationalPhone(bad, 'GB'), bad).to.equal(null);
    // A national number needs its country.
    expect(internationalPhone('020 7946 0958')).to.equal(null);
  });

  it('PHONE_RULE takes ten-digits (the default) or international, any case; anything else stops the config', () => {
    expect(loadConfig({}).phoneRule).to.equal('ten-digits');
    expect(loadConfig({ PHONE_RULE: 'International' }).phoneRule).to.equal('international');
    expect(() => loadConfig({ PHONE_RULE: 'e164' })).to.throw(
      ConfigError,
      'PHONE_RULE must be one of ten-digits, international (got "e164")',
    );
  });
});

for (const kind of databaseKinds()) {
  describe(`apply API phone rule [${kind}]`, function () {
    this.timeout(60_000);
    const post = async (s: TestServer, phone: string, email: string) => {
      const res = await fetch(`${s.baseUrl}/api/jobs/phone-1/apply/`, { method: 'POST', body: toFormData(validFields({ phone, email })) });
      return { status: res.status, body: await res.json() };
    };
    const stored = async (s: TestServer, email: string) => (await s.ctx.db('applications').where({ email }).first('phone'))?.phone;

    describe('PHONE_RULE unset (ten-digits)', () => {
      let s: TestServer;
      before(async () => {
        s = await startTestServer(kind, { APPLY_RATE_LIMIT: '0' });
        await makeJob(s.ctx.db, { public_id: 'phone-1' });
      });
      after(() => s.close());

      it("keeps the spec's rule: a listed dial code and 10 digits", async () => {
        expect((await post(s, '+1 415 555 2671', 'us@example.com')).status).to.equal(201);
        expect(await stored(s, 'us@example.com')).to.equal('+14155552671');
        const uk = await post(s, '+44 20 7946 09581', 'uk@example.com');
        expect(uk).to.deep.equal({ status: 400, body: { phone: ['Provided phone number is not valid (10 digits).'] } });
        const de = await post(s, '+49 30 901820', 'de@example.com');
        expect(de.body).to.deep.equal({ phone: ['Provided phone number is not valid (10 digits).'] });
      });
    });

    describe('PHONE_RULE=international', () => {
      let s: TestServer;
      before(async () => {
        s = await startTestServer(kind, { APPLY_RATE_LIMIT: '0', PHONE_RULE: 'international' });
        await makeJob(s.ctx.db, { public_id: 'phone-1' });
      });
      after(() => s.close());

      it('takes any number valid for its country and stores it in E.164', async () => {
        for (const [phone, email, e164] of [
          ['+49 30 901820', 'de@example.com', '+4930901820'],
          ['+44 (20) 7946-0958', 'uk@example.com', '+442079460958'],
          ['+919876543210', 'in@example.com', '+919876543210'],
          ['+1 415 555 2671', 'us@example.com', '+14155552671'],
        ]) {
          expect((await post(s, phone, email)).status, phone).to.equal(201);
          expect(await stored(s, email)).to.equal(e164);
        }
      });

      it('refuses numbers that are no valid number of their country, empty and hostile ones, with the messages', async () => {
        for (const phone of ['+44 12', '+1 000 000 0000', '02079460958', 'call me', '+'.repeat(200), '+91 98765 43210\u0000<b>']) {
          expect(await post(s, phone, 'bad@example.com'), phone).to.deep.equal({
            status: 400,
            body: { phone: ['Provided phone number is not valid for the chosen country.'] },
          });
        }
        for (const phone of ['', '   ', '+91']) {
          expect(await post(s, phone, 'empty@example.com'), JSON.stringify(phone)).to.deep.equal({
            status: 400,
            body: { phone: ["Phone number can't be empty"] },
          });
        }
        expect(await s.ctx.db('applications').whereIn('email', ['bad@example.com', 'empty@example.com']).first()).to.equal(undefined);
      });

      it('gives the wizard the rule', async () => {
        const html = await (await fetch(`${s.baseUrl}/careers/phone-1/apply`)).text();
        expect(html).to.include('"phoneRule":"international"');
      });
    });
  });
}
