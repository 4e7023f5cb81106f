/**
 * Issue 34, the publishing checks over real HTTP: GET /api/hr/jobs/{id}/checks/ (pass, warn, block
 * with plain reasons), the 400 that refuses an activation naming each reason (create as active,
 * PUT to active, a save of an active job), an admin's override with a note (audited, shown on the
 * checklist, 403 for a recruiter), and bad overrides answered with exact messages.
 */
import { expect } from 'chai';
import { PUBLISHING_MESSAGES } from '../../src/publishing/index.js';

const ACTIVATION_REFUSED = PUBLISHING_MESSAGES.activationRefused;
import { databaseKinds } from '../helpers/db.js';
import { createHrUser, liveToken } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const RANGE_MISSING = (places: string, verb = 'requires') =>
  `${places} ${verb} a pay range in the posting: give both a minimum and a maximum salary.`;

/** A job payload; override any field. */
function job(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: 'Platform Engineer',
    location: 'Berlin, Germany',
    job_type: 'FULL_TIME',
    work_mode: 'HYBRID',
    description: '<p>Build the platform.</p>',
    status: 'INACTIVE',
    ...overrides,
  };
}

for (const kind of databaseKinds()) {
  describe(`job publishing checks [${kind}]`, function () {
    this.timeout(120_000);
    let s: TestServer;
    const token = { admin: '', recruiter: '' };

    before(async () => {
      s = await startTestServer(kind);
      token.admin = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'jc.admin'));
      token.recruiter = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'jc.recruiter', { role: 'recruiter' }));
    });
    after(() => s.close());

    const call = async (method: string, path: string, body?: unknown, who: keyof typeof token = 'recruiter') => {
      const res = await fetch(s.baseUrl + path, {
        method,
        headers: { Authorization: `Bearer ${token[who]}`, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    };
    const create = async (body: Record<string, unknown>, who: keyof typeof token = 'recruiter') => {
      const r = await call('POST', '/api/hr/jobs/', body, who);
      expect(r.status, JSON.stringify(r.body)).to.equal(201);
      return r.body;
    };
    const checks = async (id: number, who: keyof typeof token = 'recruiter') => {
      const r = await call('GET', `/api/hr/jobs/${id}/checks/`, undefined, who);
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      return r.body;
    };
    const check = async (id: number, key: string) => (await checks(id)).checks.find((c: any) => c.key === key);
    const jobCount = async () => Number((await s.ctx.db('jobs').count({ n: '*' }))[0].n);

    it('lists every check with pass, warn or block and a reason in plain words', async () => {
      const j = await create(job({ questions: [{ text: '<p>What is your <b>current salary</b>?</p>', answer_type: 'number' }] }));
      const body = await checks(j.id);
      expect(body).to.include({
        job_id: j.id,
        blocked: true,
        override: null,
        approval_on: false,
        approval: null,
        can_decide: false,
        can_override: false,
      });
      expect(body.checks.map((c: any) => [c.key, c.label, c.status, c.blocking])).to.deep.equal([
        ['pay_rule', 'Pay range', 'block', true],
        ['salary_history', 'No questions about current or past pay', 'block', true],
        ['closing_date', 'Closing date', 'warn', false],
        ['structured_data', "Google's job search data (JSON-LD)", 'warn', false],
        ['consent', 'Consent text', 'warn', false],
        ['retention', 'Retention period', 'warn', false],
      ]);
      const [pay, questions, closing, data, consent, retention] = body.checks;
      expect(pay).to.deep.include({ reason: RANGE_MISSING('Germany'), fields: ['min_salary', 'max_salary'], overridden: false });
      expect(questions).to.deep.include({
        reason:
          'Question 1 asks for current or past pay (“current salary”), which the EU and several US states forbid: remove it, or ask for the expected pay instead.',
        fields: ['questions.0.text'],
      });
      expect(closing.reason).to.equal('No closing date: set one, so the job leaves the careers site and search results when hiring ends.');
      expect(data.reason).to.equal(
        'It recommends validThrough (a closing date); baseSalary (a pay range); hiringOrganization.logo (COMPANY_LOGO_URL).',
      );
      expect(consent.reason).to.equal(
        'Applicants in DE are under the GDPR, but no consent text is set: set APPLY_CONSENT_TEXT, so the apply wizard asks for consent and keeps it with each application.',
      );
      expect(retention.reason).to.match(/^No retention period is set: applications are kept until someone purges them\./);
    });

    it('refuses activation (create as active, PUT to active) with a 400 naming each reason, and saves nothing', async () => {
      const before = await jobCount();
      const asked = job({
        status: 'ACTIVE',
        questions: [
          { text: '<p>Why us?</p>', answer_type: 'short_text' },
          { text: 'Salary history', help_text: '<p>Your last three salaries</p>', answer_type: 'long_text' },
        ],
      });
      expect(await call('POST', '/api/hr/jobs/', asked)).to.deep.equal({
        status: 400,
        body: {
          status: [ACTIVATION_REFUSED],
          min_salary: [RANGE_MISSING('Germany')],
          max_salary: [RANGE_MISSING('Germany')],
          'questions.1.text': [
            'Question 2 asks for current or past pay (“salary history”), which the EU and several US states forbid: remove it, or ask for the expected pay instead.',
          ],
        },
      });
      expect(await jobCount()).to.equal(before);

      const j = await create(job({ location: 'San Francisco, CA', min_salary: 100000 }));
      const r = await call('PUT', `/api/hr/jobs/${j.id}/`, { ...j, status: 'ACTIVE' });
      expect(r).to.deep.equal({
        status: 400,
        body: { status: [ACTIVATION_REFUSED], max_salary: [RANGE_MISSING('California')] },
      });
      expect((await call('GET', `/api/hr/jobs/${j.id}/`)).body.status).to.equal('INACTIVE');
      // With the range, it goes active; then a save that drops the range is refused too.
      const ok = await call('PUT', `/api/hr/jobs/${j.id}/`, { ...j, status: 'ACTIVE', max_salary: 140000 });
      expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
      expect(ok.body.status).to.equal('ACTIVE');
      expect((await call('PUT', `/api/hr/jobs/${j.id}/`, { ...ok.body, max_salary: null })).status).to.equal(400);
      // Deactivating or removing is never refused.
      const off = await call('PUT', `/api/hr/jobs/${j.id}/`, { ...ok.body, max_salary: null, status: 'REMOVED' });
      expect(off.status, JSON.stringify(off.body)).to.equal(200);
    });

    it('matches rules by region code or name, a remote job by its country, its applicant countries or none', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ location: 'New York, NY, United States' }, RANGE_MISSING('New York')],
        [{ location: 'Washington, D.C.' }, RANGE_MISSING('District of Columbia')],
        [{ location: 'Seattle, Washington, USA' }, RANGE_MISSING('Washington')],
        [{ location: 'Toronto, Ontario, Canada', currency: 'CAD' }, RANGE_MISSING('Ontario')],
        [{ location: 'Lisbon, Portugal' }, RANGE_MISSING('Portugal')],
        [
          { location: 'Remote — United States', work_mode: 'REMOTE' },
          RANGE_MISSING('California, Colorado, District of Columbia, Hawaii, Illinois and 7 more', 'require'),
        ],
        [{ location: 'Remote — California', work_mode: 'REMOTE' }, RANGE_MISSING('California')],
        [
          { location: 'Anywhere', work_mode: 'REMOTE', applicant_countries: ['NL', 'IE', 'GB'] },
          RANGE_MISSING('Ireland and Netherlands', 'require'),
        ],
      ];
      for (const [overrides, reason] of cases) {
        const j = await create(job(overrides));
        const pay = await check(j.id, 'pay_rule');
        expect(pay.status, JSON.stringify(overrides)).to.equal('block');
        expect(pay.reason, JSON.stringify(overrides)).to.equal(reason);
      }
      for (const location of ['Austin, TX, United States', 'Singapore', 'London, United Kingdom', 'Zürich, Switzerland', 'Paris']) {
        const j = await create(job({ location }));
        expect(await check(j.id, 'pay_rule'), location).to.deep.include({
          status: 'pass',
          reason: `No pay rule covers “${location}”. A range is still good practice.`,
        });
        const ok = await call('PUT', `/api/hr/jobs/${j.id}/`, { ...j, status: 'ACTIVE' });
        expect(ok.status, location).to.equal(200);
      }
      const met = await create(job({ location: 'Remote — United States', work_mode: 'REMOTE', min_salary: 1, max_salary: 2 }));
      expect((await check(met.id, 'pay_rule')).reason).to.equal(
        'Meets the pay rules of California, Colorado, District of Columbia, Hawaii, Illinois and 7 more.',
      );
    });

    it("holds a range to the rule's width: an amount per period (converted) or a percentage", async () => {
      const wide = await create(job({ location: 'Toronto, ON, Canada', currency: 'CAD', min_salary: 50000, max_salary: 120000 }));
      const reason = 'Ontario allows a pay range at most 50,000 CAD per year wide; this one is 70,000 wide (50,000–120,000 CAD per year).';
      expect(await check(wide.id, 'pay_rule')).to.deep.include({ status: 'block', reason, fields: ['max_salary'] });
      expect(await call('PUT', `/api/hr/jobs/${wide.id}/`, { ...wide, status: 'ACTIVE' })).to.deep.equal({
        status: 400,
        body: { status: [ACTIVATION_REFUSED], max_salary: [reason] },
      });
      const edge = await create(job({ location: 'Toronto, ON, Canada', currency: 'CAD', min_salary: 50000, max_salary: 100000 }));
      expect((await check(edge.id, 'pay_rule')).reason).to.equal('Meets the pay rule of Ontario.');
      const hourly = await create(
        job({ location: 'Toronto, ON, Canada', currency: 'CAD', min_salary: 20, max_salary: 50, salary_period: 'HOUR' }),
      );
      expect((await check(hourly.id, 'pay_rule')).reason).to.equal(
        'Ontario allows a pay range at most 50,000 CAD per year wide (24.03 per hour, counting 1 year as 12 months or 2,080 hours); this one is 30 wide (20–50 CAD per hour).',
      );
      const narrowHourly = await create(
        job({ location: 'Toronto, ON, Canada', currency: 'CAD', min_salary: 20, max_salary: 44, salary_period: 'HOUR' }),
      );
      expect((await check(narrowHourly.id, 'pay_rule')).status).to.equal('pass');

      const rule = await call(
        'POST',
        '/api/hr/pay-rules/',
        { label: 'Norway', country: 'NO', max_width: 20, width_unit: 'PERCENT', note: '' },
        'admin',
      );
      expect(rule.status).to.equal(201);
      const pct = await create(job({ location: 'Oslo, Norway', currency: 'NOK', min_salary: 600000, max_salary: 780000 }));
      expect((await check(pct.id, 'pay_rule')).reason).to.equal(
        'Norway allows a pay range whose maximum is at most 20% above its minimum; this one is 30% above (600,000–780,000 NOK per year).',
      );
      const zero = await create(job({ location: 'Oslo, Norway', currency: 'NOK', min_salary: 0, max_salary: 10 }));
      expect((await check(zero.id, 'pay_rule')).reason).to.equal(
        'Norway allows a pay range whose maximum is at most 20% above its minimum; this one is from 0 (0–10 NOK per year).',
      );
      // A rule edited or removed changes the answer at once.
      expect((await call('DELETE', `/api/hr/pay-rules/${rule.body.id}/`, undefined, 'admin')).status).to.equal(204);
      expect((await check(pct.id, 'pay_rule')).status).to.equal('pass');
    });

    it('flags salary-history questions by wording, in several phrasings and languages, and not expected pay', async () => {
      const flagged = [
        'What is your current salary?',
        'Current CTC',
        'Last drawn CTC (in lakhs)',
        'What do you currently earn?',
        'How much were you paid in your last job?',
        'Please state your previous annual base salary',
        'Salary at your current employer',
        'Pay history',
        'What was your pay?',
        'Your CTC?',
        'Please attach your latest payslip',
        'Current or expected compensation',
        'Aktuelles Gehalt (brutto)',
        'Votre salaire actuel',
        '¿Cuál es tu salario actual?',
        'Wat is je huidige salaris?',
        'Stipendio attuale',
      ];
      const allowed = [
        'What are your salary expectations?',
        'Expected CTC',
        'Desired pay per hour',
        'Describe your current role and the salary you expect',
      ];
      const j = await create(
        job({
          location: 'Singapore',
          questions: [...flagged, ...allowed].map((text) => ({ text: `<p>${text}</p>`, answer_type: 'short_text' })),
        }),
      );
      const c = await check(j.id, 'salary_history');
      expect(c.status).to.equal('block');
      expect(c.fields).to.deep.equal(flagged.map((_, i) => `questions.${i}.text`));
      // In help texts, placeholders and options too.
      const elsewhere = await create(
        job({
          location: 'Singapore',
          questions: [
            { text: 'Compensation', help_text: 'Tell us your current salary', answer_type: 'short_text' },
            { text: 'Money', placeholder: 'e.g. your previous pay', answer_type: 'short_text' },
            { text: 'Band', answer_type: 'single_choice', options: ['Below 50k', 'My current salary is private'] },
          ],
        }),
      );
      expect((await check(elsewhere.id, 'salary_history')).fields).to.deep.equal([
        'questions.0.help_text',
        'questions.1.placeholder',
        'questions.2.options',
      ]);
      const clean = await create(job({ location: 'Singapore', questions: allowed.map((text) => ({ text, answer_type: 'short_text' })) }));
      expect(await check(clean.id, 'salary_history')).to.deep.include({
        status: 'pass',
        reason: 'No screening question asks for current or past pay.',
      });
    });

    it('passes the warnings when a closing date, a logo, consent and retention are set; JSON-LD names what is missing', async () => {
      const t = await startTestServer(kind, {
        APPLY_CONSENT_TEXT: 'I agree that Acme keeps my application for 12 months.',
        APPLICATION_RETENTION_DAYS: '365',
        COMPANY_LOGO_URL: 'https://www.example.com/logo.png',
      });
      try {
        const tok = await liveToken(t.ctx.db, await createHrUser(t.ctx.db, 'jc.other'));
        const post = (body: unknown) =>
          fetch(`${t.baseUrl}/api/hr/jobs/`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${tok}`, 'Content-Type': 'application/json' },
            body: JSON.stringify(body),
          }).then((r) => r.json() as Promise<any>);
        const get = (id: number) =>
          fetch(`${t.baseUrl}/api/hr/jobs/${id}/checks/`, { headers: { Authorization: `Bearer ${tok}` } }).then(
            (r) => r.json() as Promise<any>,
          );
        const closes = new Date(Date.now() + 30 * 86_400_000).toISOString();
        const full = await post(job({ min_salary: 60000, max_salary: 70000, currency: 'EUR', closes_at: closes, status: 'ACTIVE' }));
        const all = await get(full.id);
        expect(all.blocked).to.equal(false);
        expect(all.checks.map((c: any) => c.status)).to.deep.equal(['pass', 'pass', 'pass', 'pass', 'pass', 'pass']);
        expect(all.checks.map((c: any) => c.reason)).to.deep.equal([
          'Meets the pay rule of Germany.',
          'The job has no screening questions.',
          `Applications close on ${all.checks[2].reason.slice('Applications close on '.length)}`,
          'Complete for Google: title, description, datePosted, hiringOrganization with its logo, the location, baseSalary and validThrough.',
          'Applicants agree to: “I agree that Acme keeps my application for 12 months.” (APPLY_CONSENT_TEXT).',
          'Applications are kept 365 days (APPLICATION_RETENTION_DAYS): careers-admin applicants purge removes older ones.',
        ]);
        expect(all.checks[2].reason).to.match(/^Applications close on \d/);
        const bare = await post(job({ location: 'Springfield', description: '', work_mode: 'ONSITE' }));
        expect((await get(bare.id)).checks[3]).to.deep.include({
          status: 'warn',
          reason:
            "Google's job search requires description (the job has no description text); jobLocation with its country (write the country last in Location, as in “Berlin, Germany”). It recommends validThrough (a closing date); baseSalary (a pay range).",
          fields: ['description', 'location', 'closes_at', 'min_salary'],
        });
        const remote = await post(
          job({ location: 'Anywhere', work_mode: 'REMOTE', description: '<p>x</p>', closes_at: closes, min_salary: 1, max_salary: 2 }),
        );
        expect((await get(remote.id)).checks[3].reason).to.equal(
          "Google's job search requires applicantLocationRequirements (the countries remote applicants may live in: set Applicant countries, or name one country in Location).",
        );
        expect((await get(remote.id)).checks[4].reason).to.equal(
          'Applicants agree to: “I agree that Acme keeps my application for 12 months.” (APPLY_CONSENT_TEXT).',
        );
      } finally {
        await t.close();
      }
    });

    it('lets an admin override a block with a note: audited, shown on the checklist, kept while the reasons stay', async () => {
      const j = await create(job({ title: 'Override me' }));
      const asked = { ...j, status: 'ACTIVE' };
      // A recruiter may not override.
      expect(await call('PUT', `/api/hr/jobs/${j.id}/`, { ...asked, override_checks: { note: 'Trust me' } })).to.deep.equal({
        status: 403,
        body: { detail: 'Only an admin may override the publishing checks. Ask an admin of your team.' },
      });
      // Bad overrides.
      const bad: [unknown, Record<string, string[]>][] = [
        ['yes', { override_checks: ['Send override_checks as an object: {"note": "why the checks may be overridden"}.'] }],
        [[{ note: 'x' }], { override_checks: ['Send override_checks as an object: {"note": "why the checks may be overridden"}.'] }],
        [{}, { 'override_checks.note': ['Write why the checks may be overridden.'] }],
        [{ note: '   ' }, { 'override_checks.note': ['Write why the checks may be overridden.'] }],
        [{ note: 42 }, { 'override_checks.note': ['Must be text.'] }],
        [{ note: 'n'.repeat(1001) }, { 'override_checks.note': ['Ensure this field has no more than 1000 characters.'] }],
      ];
      for (const [override_checks, expected] of bad) {
        expect(
          await call('PUT', `/api/hr/jobs/${j.id}/`, { ...asked, override_checks }, 'admin'),
          JSON.stringify(override_checks),
        ).to.deep.equal({
          status: 400,
          body: expected,
        });
      }
      const note = 'Posted in Germany by our US entity; <b>range</b> agreed with legal.\u202E';
      const r = await call('PUT', `/api/hr/jobs/${j.id}/`, { ...asked, override_checks: { note } }, 'admin');
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      expect(r.body.status).to.equal('ACTIVE');
      const audit = await s.ctx
        .db('audit_log')
        .where({ entity: 'job', entity_id: j.id, action: 'job.checks_override' })
        .select('details', 'user_id');
      expect(audit).to.have.length(1);
      const details = JSON.parse(audit[0].details);
      expect(details).to.deep.equal({
        note: 'Posted in Germany by our US entity; <b>range</b> agreed with legal.',
        reasons: [RANGE_MISSING('Germany')],
        status: 'ACTIVE',
      });
      const after = await checks(j.id, 'admin');
      expect(after).to.include({ blocked: false, can_override: true });
      expect(after.override).to.deep.include({ note: details.note, by: 'jc.admin', reasons: details.reasons });
      expect(after.checks[0]).to.deep.include({ status: 'block', overridden: true });
      // A later save by a recruiter with the same reasons is not refused again...
      const retitled = await call('PUT', `/api/hr/jobs/${j.id}/`, { ...r.body, title: 'Override me, renamed' });
      expect(retitled.status, JSON.stringify(retitled.body)).to.equal(200);
      // ...but a new reason is.
      const moved = await call('PUT', `/api/hr/jobs/${j.id}/`, {
        ...r.body,
        questions: [{ text: 'Current salary?', answer_type: 'number' }],
      });
      expect(moved.status).to.equal(400);
      expect(Object.keys(moved.body)).to.deep.equal(['status', 'min_salary', 'max_salary', 'questions.0.text']);
      // Created active with an override.
      const made = await call('POST', '/api/hr/jobs/', job({ status: 'ACTIVE', override_checks: { note: 'Internal posting.' } }), 'admin');
      expect(made.status).to.equal(201);
      expect(made.body.status).to.equal('ACTIVE');
      expect((await checks(made.body.id)).override.note).to.equal('Internal posting.');
    });

    it('answers 404 for an unknown or malformed job id', async () => {
      for (const id of ['999999', '0', 'abc', '1.5']) {
        expect(await call('GET', `/api/hr/jobs/${id}/checks/`), id).to.deep.equal({ status: 404, body: { detail: 'Not found.' } });
      }
    });

    it('blocks on the checks JOB_CHECKS_BLOCK names, and on none with "none"', async () => {
      for (const [setting, blocked] of [
        ['closing_date', true],
        ['none', false],
      ] as const) {
        const t = await startTestServer(kind, { JOB_CHECKS_BLOCK: setting });
        try {
          const tok = await liveToken(t.ctx.db, await createHrUser(t.ctx.db, 'jc.block'));
          const res = await fetch(`${t.baseUrl}/api/hr/jobs/`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${tok}`, 'Content-Type': 'application/json' },
            body: JSON.stringify(job({ status: 'ACTIVE', location: 'Singapore' })),
          });
          const body = (await res.json()) as any;
          if (blocked) {
            expect(res.status).to.equal(400);
            expect(body).to.deep.equal({
              status: [ACTIVATION_REFUSED],
              closes_at: ['No closing date: set one, so the job leaves the careers site and search results when hiring ends.'],
            });
          } else {
            expect(res.status).to.equal(201);
            const berlin = await fetch(`${t.baseUrl}/api/hr/jobs/`, {
              method: 'POST',
              headers: { Authorization: `Bearer ${tok}`, 'Content-Type': 'application/json' },
              body: JSON.stringify(job({ status: 'ACTIVE', questions: [{ text: 'Current salary', answer_type: 'number' }] })),
            });
            expect(berlin.status).to.equal(201);
          }
        } finally {
          await t.close();
        }
      }
    });
  });
}
