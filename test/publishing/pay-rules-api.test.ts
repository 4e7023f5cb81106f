/**
 * Issue 34, the pay rules over real HTTP: the defaults the migration writes, admins keeping them
 * (create, read, replace, delete, audited), recruiters reading them but refused every write, and
 * bad input (wrong types, huge values, hostile strings) answered with the exact 400 messages.
 */
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { createHrUser, liveToken } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const ADMIN_ONLY = 'You do not have permission to perform this action. Only admins can.';

const RULE = {
  label: 'Norway',
  country: 'no',
  region_code: '',
  region_name: '',
  range_required: true,
  max_width: 25,
  width_unit: 'PERCENT',
  salary_period: 'ANY',
  note: 'Our own rule.',
};

for (const kind of databaseKinds()) {
  describe(`pay rules API [${kind}]`, function () {
    this.timeout(120_000);
    let s: TestServer;
    const token = { admin: '', recruiter: '' };

    before(async () => {
      s = await startTestServer(kind);
      token.admin = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'pr.admin'));
      token.recruiter = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'pr.recruiter', { role: 'recruiter' }));
    });
    after(() => s.close());

    const call = async (method: string, path: string, body?: unknown, who: keyof typeof token = 'admin') => {
      const res = await fetch(s.baseUrl + path, {
        method,
        headers: { Authorization: `Bearer ${token[who]}`, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    };

    it('lists the defaults: every EU member state, Ontario and the US states with posting laws, all requiring a range', async () => {
      const { status, body } = await call('GET', '/api/hr/pay-rules/', undefined, 'recruiter');
      expect(status).to.equal(200);
      const rules = body.results as any[];
      expect(rules).to.have.length(40);
      expect(rules.every((r) => r.range_required)).to.equal(true);
      const eu = rules.filter((r) => r.region_code === '').map((r) => r.country);
      expect(eu).to.have.members('AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE'.split(' '));
      const us = rules.filter((r) => r.country === 'US').map((r) => `${r.region_code} ${r.region_name}`);
      expect(us).to.deep.equal([
        'CA California',
        'CO Colorado',
        'DC District of Columbia',
        'HI Hawaii',
        'IL Illinois',
        'MA Massachusetts',
        'MD Maryland',
        'MN Minnesota',
        'NJ New Jersey',
        'NY New York',
        'VT Vermont',
        'WA Washington',
      ]);
      const ontario = rules.find((r) => r.region_code === 'ON');
      expect(ontario).to.include({
        label: 'Ontario',
        country: 'CA',
        region_name: 'Ontario',
        max_width: 50000,
        width_unit: 'AMOUNT',
        salary_period: 'YEAR',
      });
      expect(ontario.note).to.contain('no wider than $50,000');
      expect(rules.find((r) => r.country === 'DE')).to.include({ label: 'Germany', max_width: null, salary_period: 'ANY' });
      expect(Object.keys(ontario).sort()).to.deep.equal(
        [
          'id',
          'label',
          'country',
          'region_code',
          'region_name',
          'range_required',
          'max_width',
          'width_unit',
          'salary_period',
          'note',
          'created_at',
          'updated_at',
        ].sort(),
      );
    });

    it('lets an admin create, read, replace and delete a rule, each audited', async () => {
      const created = await call('POST', '/api/hr/pay-rules/', RULE);
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect(created.body).to.include({
        label: 'Norway',
        country: 'NO',
        region_code: '',
        max_width: 25,
        width_unit: 'PERCENT',
        note: 'Our own rule.',
      });
      const id = created.body.id;
      expect((await call('GET', `/api/hr/pay-rules/${id}/`, undefined, 'recruiter')).body).to.deep.equal(created.body);

      const replaced = await call('PUT', `/api/hr/pay-rules/${id}/`, {
        ...RULE,
        label: 'Oslo',
        region_code: 'o.s.',
        region_name: 'Oslo',
        max_width: '30000.50',
        width_unit: 'AMOUNT',
        salary_period: 'MONTH',
        range_required: false,
      });
      expect(replaced.status, JSON.stringify(replaced.body)).to.equal(200);
      expect(replaced.body).to.include({
        label: 'Oslo',
        region_code: 'OS',
        region_name: 'Oslo',
        max_width: 30000.5,
        width_unit: 'AMOUNT',
        salary_period: 'MONTH',
        range_required: false,
      });

      expect((await call('DELETE', `/api/hr/pay-rules/${id}/`)).status).to.equal(204);
      expect(await call('GET', `/api/hr/pay-rules/${id}/`)).to.deep.equal({ status: 404, body: { detail: 'Pay rule not found.' } });
      expect(await call('DELETE', `/api/hr/pay-rules/${id}/`)).to.deep.equal({ status: 404, body: { detail: 'Pay rule not found.' } });
      expect(await call('PUT', `/api/hr/pay-rules/${id}/`, RULE)).to.deep.equal({ status: 404, body: { detail: 'Pay rule not found.' } });

      const audit = await s.ctx.db('audit_log').where({ entity: 'pay_rule', entity_id: id }).orderBy('id').select('action', 'details');
      expect(audit.map((a) => a.action)).to.deep.equal(['pay_rule.create', 'pay_rule.update', 'pay_rule.delete']);
      expect(JSON.parse(audit[1].details).from.label).to.equal('Norway');
      expect(JSON.parse(audit[1].details).to.label).to.equal('Oslo');
    });

    it('names nothing with a malformed id (404), and keeps one rule per place (400)', async () => {
      for (const bad of ['0', '-1', '1.5', 'abc', '99999999999', '007']) {
        expect(await call('GET', `/api/hr/pay-rules/${bad}/`), bad).to.deep.equal({ status: 404, body: { detail: 'Pay rule not found.' } });
      }
      expect(await call('POST', '/api/hr/pay-rules/', { ...RULE, country: 'de', label: 'Germany again' })).to.deep.equal({
        status: 400,
        body: { country: ['A rule for this place already exists: edit that one instead.'] },
      });
      expect(await call('POST', '/api/hr/pay-rules/', { ...RULE, country: 'us', region_code: 'ca', label: 'Cal' })).to.deep.equal({
        status: 400,
        body: { region_code: ['A rule for this place already exists: edit that one instead.'] },
      });
      const rules = (await call('GET', '/api/hr/pay-rules/')).body.results as any[];
      const colorado = rules.find((r) => r.region_code === 'CO');
      expect(await call('PUT', `/api/hr/pay-rules/${colorado.id}/`, { ...colorado, region_code: 'NY' })).to.deep.equal({
        status: 400,
        body: { region_code: ['A rule for this place already exists: edit that one instead.'] },
      });
    });

    it('refuses every write to a recruiter (403) and lets them read', async () => {
      const rules = (await call('GET', '/api/hr/pay-rules/', undefined, 'recruiter')).body.results as any[];
      const id = rules[0].id;
      expect(await call('POST', '/api/hr/pay-rules/', RULE, 'recruiter')).to.deep.equal({ status: 403, body: { detail: ADMIN_ONLY } });
      expect(await call('PUT', `/api/hr/pay-rules/${id}/`, RULE, 'recruiter')).to.deep.equal({ status: 403, body: { detail: ADMIN_ONLY } });
      expect(await call('DELETE', `/api/hr/pay-rules/${id}/`, undefined, 'recruiter')).to.deep.equal({
        status: 403,
        body: { detail: ADMIN_ONLY },
      });
      expect((await call('GET', `/api/hr/pay-rules/${id}/`, undefined, 'recruiter')).status).to.equal(200);
      expect((await call('GET', '/api/hr/pay-rules/')).body.results).to.have.length(40);
      // The page too: the 403 page for a recruiter, as the other settings pages.
      const page = await fetch(`${s.baseUrl}/hr/settings/pay-rules`, { headers: { Cookie: `jwt=${token.recruiter}` } });
      expect(page.status).to.equal(403);
      expect(await page.text()).to.contain('Only admins can open this page.');
      const adminPage = await fetch(`${s.baseUrl}/hr/settings/pay-rules`, { headers: { Cookie: `jwt=${token.admin}` } });
      expect(adminPage.status).to.equal(200);
      expect(await adminPage.text()).to.contain('<h1>Pay rules</h1>');
    });

    it('answers bad input with exact messages and writes nothing', async () => {
      const before = (await call('GET', '/api/hr/pay-rules/')).body.results.length;
      const cases: [unknown, Record<string, string[]>][] = [
        ['[1, 2]', { detail: 'Expected a JSON object.' } as any],
        ['"text"', { detail: 'JSON parse error: the request body is not valid JSON.' } as any],
        ['{"label": ', { detail: 'JSON parse error: the request body is not valid JSON.' } as any],
        [{}, { label: ['This field is required.'], country: ['Enter an ISO 3166-1 alpha-2 country code, such as DE or US.'] }],
        [{ ...RULE, label: 123 }, { label: ['Must be text.'] }],
        [{ ...RULE, label: 'x'.repeat(10_000) }, { label: ['Ensure this field has no more than 100 characters.'] }],
        [
          { ...RULE, label: 'Norway\u202Egpj.exe' },
          { label: ['Remove the invisible or text-direction characters (such as U+200B or U+202E).'] },
        ],
        [{ ...RULE, label: 'Two\nlines' }, { label: ['Enter this on one line, without control characters.'] }],
        [{ ...RULE, country: 'XX' }, { country: ['Enter an ISO 3166-1 alpha-2 country code, such as DE or US.'] }],
        [{ ...RULE, country: 'NOR' }, { country: ['Enter an ISO 3166-1 alpha-2 country code, such as DE or US.'] }],
        [{ ...RULE, country: 47 }, { country: ['Enter an ISO 3166-1 alpha-2 country code, such as DE or US.'] }],
        [{ ...RULE, country: 'N\u0000' }, { country: ['Enter an ISO 3166-1 alpha-2 country code, such as DE or US.'] }],
        [
          { ...RULE, region_code: 'C A' },
          {
            region_code: [
              'Use 1 to 10 letters or digits, as locations write the region (such as CA or ON), or leave it blank for the whole country.',
            ],
          },
        ],
        [
          { ...RULE, region_code: '<script>' },
          {
            region_code: [
              'Use 1 to 10 letters or digits, as locations write the region (such as CA or ON), or leave it blank for the whole country.',
            ],
          },
        ],
        [{ ...RULE, region_code: ['CA'] }, { region_code: ['Must be text.'] }],
        [
          { ...RULE, region_name: 'Oslo' },
          { region_name: ["Give the region's code too, or leave both blank for a rule of the whole country."] },
        ],
        [{ ...RULE, range_required: 'maybe' }, { range_required: ['Must be true or false.'] }],
        [
          { ...RULE, max_width: -5 },
          { max_width: ['The largest width must be a number greater than 0 with at most 2 decimals, or blank for no limit.'] },
        ],
        [
          { ...RULE, max_width: 0 },
          { max_width: ['The largest width must be a number greater than 0 with at most 2 decimals, or blank for no limit.'] },
        ],
        [
          { ...RULE, max_width: '12abc' },
          { max_width: ['The largest width must be a number greater than 0 with at most 2 decimals, or blank for no limit.'] },
        ],
        [
          { ...RULE, max_width: 1.234 },
          { max_width: ['The largest width must be a number greater than 0 with at most 2 decimals, or blank for no limit.'] },
        ],
        [
          { ...RULE, max_width: { n: 1 } },
          { max_width: ['The largest width must be a number greater than 0 with at most 2 decimals, or blank for no limit.'] },
        ],
        [{ ...RULE, width_unit: 'AMOUNT', max_width: 1e15 }, { max_width: ['Ensure this value is less than or equal to 999999999999.'] }],
        [{ ...RULE, width_unit: 'PERCENT', max_width: 5000 }, { max_width: ['A percentage must be at most 1000.'] }],
        [{ ...RULE, width_unit: 'EUR' }, { width_unit: ['Must be one of AMOUNT, PERCENT.'] }],
        [{ ...RULE, salary_period: 'WEEK' }, { salary_period: ['Must be one of ANY, YEAR, MONTH, HOUR.'] }],
        [{ ...RULE, note: 'n'.repeat(501) }, { note: ['Ensure this field has no more than 500 characters.'] }],
        [
          { ...RULE, range_required: false, max_width: null },
          {
            range_required: [
              'This rule requires no range and sets no largest width, so it checks nothing: require a range or set a width.',
            ],
          },
        ],
      ];
      for (const [body, expected] of cases) {
        const r = await call('POST', '/api/hr/pay-rules/', body);
        expect(r, JSON.stringify(body).slice(0, 80)).to.deep.equal({ status: 400, body: expected });
      }
      const rules = (await call('GET', '/api/hr/pay-rules/')).body.results as any[];
      const put = await call('PUT', `/api/hr/pay-rules/${rules[0].id}/`, { ...RULE, country: '' });
      expect(put).to.deep.equal({ status: 400, body: { country: ['Enter an ISO 3166-1 alpha-2 country code, such as DE or US.'] } });
      expect((await call('GET', '/api/hr/pay-rules/')).body.results).to.have.length(before);
    });
  });
}
