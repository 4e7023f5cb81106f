/**
 * Issue 21's job fields over real HTTP, on both databases: departments (HR API, suggestions,
 * /careers grouping and filter, kept pages per filter), closing dates (API, job page, wizard page,
 * apply API, list, locations, sitemap, JSON-LD, HR lists, a job closing with no write while its
 * pages are cached), public ids made from titles (clash, concurrency, non-ASCII, length),
 * applicant countries and pay periods (JSON-LD and display), and bad input for each.
 */
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { makeJob } from '../helpers/factories.js';
import { hrSession } from '../helpers/hr.js';
import { hrJobsApi, payload } from './hr-jobs.helpers.js';
import { validFields } from '../fixtures/apply.js';

/** The JobPosting JSON-LD of a job page's HTML (undefined when the page has none). */
function jsonLdOf(html: string): Record<string, any> | undefined {
  const m = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html);
  return m ? JSON.parse(m[1]) : undefined;
}

/** A multipart body of the apply API. */
function applyForm(fields: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    if (v && typeof v === 'object' && 'data' in (v as object)) {
      const f = v as { data: Buffer; filename: string; type: string };
      form.append(k, new Blob([new Uint8Array(f.data)], { type: f.type }), f.filename);
    } else if (v !== undefined) form.append(k, String(v));
  }
  return form;
}

const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const kind of databaseKinds()) {
  describe(`jobs: departments, closing dates, readable ids, countries, pay periods [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    let token: string;
    before(async () => {
      s = await startTestServer(kind);
      ({ token } = await hrSession(s.ctx.db));
    });
    after(() => s.close());
    const { call, post, create, jobCount } = hrJobsApi(() => ({ s, token }));
    const get = (path: string) => fetch(s.baseUrl + path);
    const html = async (path: string) => (await get(path)).text();

    describe('departments', () => {
      it('creates, reads, updates and clears a department; the HR list and the suggestions show it', async () => {
        const job = await create(payload({ title: 'Dept Engineer', department: '  Platform   Engineering ', status: 'ACTIVE' }));
        expect(job.department).to.equal('Platform Engineering');
        const read = await (await call('GET', `/api/hr/jobs/${job.id}/`)).json();
        expect(read.department).to.equal('Platform Engineering');
        const updated = await (await call('PUT', `/api/hr/jobs/${job.id}/`, { ...read, department: 'Data' })).json();
        expect(updated.department).to.equal('Data');
        const list = await (await call('GET', '/api/hr/jobs/')).json();
        expect(list.results.find((r: any) => r.id === job.id).department).to.equal('Data');
        await create(payload({ title: 'Other Data Job', department: 'Data' }));
        await create(payload({ title: 'Design Job', department: 'Design' }));
        const removed = await create(payload({ title: 'Removed Job', department: 'Gone Dept' }));
        await call('PUT', `/api/hr/jobs/${removed.id}/`, { ...removed, status: 'REMOVED' });
        const suggestions = await call('GET', '/api/hr/jobs/departments/');
        expect(suggestions.status).to.equal(200);
        expect((await suggestions.json()).results).to.deep.equal(['Data', 'Design']);
        const cleared = await (await call('PUT', `/api/hr/jobs/${job.id}/`, { ...updated, department: '' })).json();
        expect(cleared.department).to.equal(null);
        // The editor's page carries the same suggestions.
        const editor = await (await fetch(`${s.baseUrl}/hr/jobs/new`, { headers: { Cookie: `jwt=${token}` } })).text();
        const props = JSON.parse(/<script type="application\/json" id="island-job-editor-props">([\s\S]*?)<\/script>/.exec(editor)![1]);
        expect(props.departments).to.deep.equal(['Data', 'Design']);
      });

      it('refuses a department that is too long or not one line, and non-text, saving nothing', async () => {
        const before = await jobCount();
        for (const [department, message] of [
          ['x'.repeat(192), 'Ensure this field has no more than 191 characters.'],
          ['Eng\nineering', 'Enter this on one line, without control characters.'],
          ['Eng\u0007', 'Enter this on one line, without control characters.'],
          [['Eng'], 'Must be text.'],
          [12, 'Must be text.'],
        ] as const) {
          const r = await post(payload({ department }));
          expect(r.status, String(department)).to.equal(400);
          expect(r.body.department, JSON.stringify(r.body)).to.deep.equal([message]);
        }
        const huge = await post(payload({ department: 'D'.repeat(200_000) }));
        expect(huge.status).to.equal(400);
        expect(await jobCount()).to.equal(before);
      });

      it('/careers groups by department (jobs without one last) and filters by it; each filter keeps its own page', async () => {
        await makeJob(s.ctx, { public_id: 'g-eng-1', title: 'Group Eng One', department: 'Engineering', status: 'ACTIVE' });
        await makeJob(s.ctx, { public_id: 'g-eng-2', title: 'Group Eng Two', department: 'Engineering', status: 'ACTIVE' });
        await makeJob(s.ctx, { public_id: 'g-sales', title: 'Group Sales', department: 'Sales & <Ops>', status: 'ACTIVE' });
        await makeJob(s.ctx, { public_id: 'g-none', title: 'Group None', status: 'ACTIVE' });
        const page = await html('/careers');
        const headings = [...page.matchAll(/<h2 class="job-group-heading"[^>]*>([^<]*)<\/h2>/g)].map((m) => m[1]);
        expect(headings).to.include.members(['Engineering', 'Sales &amp; &lt;Ops&gt;', 'Other roles']);
        expect(headings.at(-1)).to.equal('Other roles');
        expect(headings.indexOf('Engineering')).to.be.lessThan(headings.indexOf('Sales &amp; &lt;Ops&gt;'));
        expect(page).to.include('<option value="Engineering">Engineering</option>');

        const eng = await html('/careers?department=Engineering');
        expect(eng).to.include('Group Eng One').and.include('Group Eng Two').and.not.include('Group Sales').and.not.include('Group None');
        expect(eng).to.include('<option value="Engineering" selected>');
        const sales = await html(`/careers?department=${encodeURIComponent('Sales & <Ops>')}`);
        expect(sales).to.include('Group Sales').and.not.include('Group Eng One');
        // Asked again (kept pages and cached HTML): still each filter's own page.
        expect(await html('/careers?department=Engineering')).to.not.include('Group Sales');
        expect(await html(`/careers?department=${encodeURIComponent('Sales & <Ops>')}`)).to.not.include('Group Eng One');
        // An unknown department is an empty list, not an error; a control character is dropped.
        const none = await get('/careers?department=Nope');
        expect(none.status).to.equal(200);
        expect(await none.text()).to.include('No jobs match the current filters');
        expect(await html('/careers?department=Engi%00neering')).to.include('Group Eng One');

        const api = await (await get('/api/jobs/?department=Engineering')).json();
        expect(api.results.map((j: any) => j.public_id).sort()).to.deep.equal(['g-eng-1', 'g-eng-2']);
        expect(api.results[0].department).to.equal('Engineering');
        const job = await html('/careers/g-sales');
        expect(job).to.include('<dt>Department</dt><dd>Sales &amp; &lt;Ops&gt;</dd>');
      });

      it('departments ignore case on both databases: one group, one filter entry, one suggestion, each spelled one way', async () => {
        await makeJob(s.ctx, { public_id: 'c-1', title: 'Case Job One', department: 'Customer Care', status: 'ACTIVE' });
        await makeJob(s.ctx, { public_id: 'c-2', title: 'Case Job Two', department: 'customer care', status: 'ACTIVE' });
        await makeJob(s.ctx, { public_id: 'c-3', title: 'Case Job Three', department: 'Customer Care', status: 'ACTIVE' });
        const page = await html('/careers');
        const headings = [...page.matchAll(/<h2 class="job-group-heading"[^>]*>([^<]*)<\/h2>/g)].map((m) => m[1]);
        expect(headings.filter((h) => h.toLowerCase() === 'customer care')).to.deep.equal(['Customer Care']);
        const options = [...page.matchAll(/<option value="([^"]*)"/g)].map((m) => m[1]).filter((o) => o.toLowerCase() === 'customer care');
        expect(options).to.deep.equal(['Customer Care']);
        for (const q of ['Customer Care', 'customer care', 'CUSTOMER CARE']) {
          const api = await (await get(`/api/jobs/?department=${encodeURIComponent(q)}`)).json();
          expect(api.results.map((j: any) => j.public_id).sort(), q).to.deep.equal(['c-1', 'c-2', 'c-3']);
          const list = await html(`/careers?department=${encodeURIComponent(q)}`);
          expect(list).to.include('Case Job One').and.include('Case Job Two').and.include('Case Job Three');
        }
        const suggestions = await (await call('GET', '/api/hr/jobs/departments/')).json();
        const list = Array.isArray(suggestions) ? suggestions : suggestions.results;
        expect(list.filter((d: string) => d.toLowerCase() === 'customer care')).to.deep.equal(['Customer Care']);
        await s.ctx.db('jobs').whereIn('public_id', ['c-1', 'c-2', 'c-3']).del();
      });

      it('the demo jobs and `jobs seed --file` records carry departments', async () => {
        const { seedDemoJobs, importJobRecords } = await import('../../src/jobs/index.js');
        await seedDemoJobs(s.ctx.db);
        const demo = await s.ctx.db('jobs').where({ public_id: 'senior-backend-engineer' }).first();
        expect(demo.department).to.equal('Engineering');
        await importJobRecords(s.ctx.db, [
          payload({ title: 'Seeded Analyst', department: 'Finance' }),
          payload({ title: 'Seeded Analyst' }),
        ]);
        const seeded = await s.ctx.db('jobs').where({ title: 'Seeded Analyst' }).orderBy('id');
        expect(seeded.map((r: any) => [r.public_id, r.department])).to.deep.equal([
          ['seeded-analyst', 'Finance'],
          ['seeded-analyst-2', null],
        ]);
      });
    });

    describe('closing dates', () => {
      it('stores a closing instant as UTC, shows it on the job page and in the HR lists, and in JSON-LD validThrough', async () => {
        const at = '2099-12-31T18:30:00+01:00';
        const job = await create(payload({ title: 'Closing Later', closes_at: at, status: 'ACTIVE' }));
        expect(job.closes_at).to.equal('2099-12-31T17:30:00.000Z');
        const page = await html(`/careers/${job.public_id}`);
        expect(page).to.include('Applications close').and.include('31 Dec 2099, 17:30 UTC').and.include('Apply Now');
        expect(jsonLdOf(page)!.validThrough).to.equal('2099-12-31T17:30:00.000Z');
        const pub = await (await get(`/api/jobs/${job.public_id}/`)).json();
        expect(pub).to.include({ closes_at: '2099-12-31T17:30:00.000Z', accepting_applications: true });
        const hr = await (await fetch(`${s.baseUrl}/hr/jobs`, { headers: { Cookie: `jwt=${token}` } })).text();
        // Written in UTC with the instant, rewritten in the viewer's zone by the page's script (data-local).
        expect(hr).to.match(
          /Closes <time datetime="2099-12-31T17:30:00\.000Z" data-local="time"><span class="time-part">Dec 31, 2099,<\/span> <span class="time-part">5:30 PM<\/span> <span class="time-part">UTC<\/span><\/time>/,
        );
        // Without a closing date, no validThrough.
        const open = await create(payload({ title: 'No Closing', status: 'ACTIVE' }));
        expect(jsonLdOf(await html(`/careers/${open.public_id}`))).to.not.have.property('validThrough');
      });

      it('refuses a closing date in the past on create, and on update unless it comes back unchanged', async () => {
        const before = await jobCount();
        const past = await post(payload({ closes_at: '2020-01-01T00:00:00Z' }));
        expect(past.status).to.equal(400);
        expect(past.body.closes_at).to.deep.equal(['The closing date must be in the future.']);
        expect(await jobCount()).to.equal(before);
        // A job created when its date was ahead (the factory's clock), now past: edits keep it.
        const closed = await makeJob(
          s.ctx,
          { public_id: 'was-open', title: 'Was Open', closes_at: '2026-01-02T00:00:00Z', status: 'ACTIVE' },
          new Date('2026-01-01T00:00:00Z'),
        );
        const hrJob = await (await call('GET', `/api/hr/jobs/${closed.id}/`)).json();
        const same = await call('PUT', `/api/hr/jobs/${closed.id}/`, { ...hrJob, title: 'Was Open (edited)' });
        expect(same.status).to.equal(200);
        const moved = await call('PUT', `/api/hr/jobs/${closed.id}/`, { ...hrJob, closes_at: '2026-01-03T00:00:00Z' });
        expect(moved.status).to.equal(400);
        expect((await moved.json()).closes_at).to.deep.equal(['The closing date must be in the future.']);
        const reopened = await call('PUT', `/api/hr/jobs/${closed.id}/`, { ...hrJob, closes_at: null });
        expect((await reopened.json()).closes_at).to.equal(null);
      });

      it('refuses dates it cannot read or that name no time zone', async () => {
        for (const closes_at of [
          '2099-12-31',
          '2099-12-31T17:00',
          '2099-02-30T10:00:00Z',
          '2099-13-01T10:00:00Z',
          '2099-12-31T25:00:00Z',
          'tomorrow',
          '1999-12-31T10:00:00Z',
          '+275760-09-13T00:00:00Z',
          4102444800000,
          true,
          ['2099-12-31T10:00:00Z'],
          '<script>',
        ]) {
          const r = await post(payload({ closes_at }));
          expect(r.status, String(closes_at)).to.equal(400);
          expect(r.body.closes_at, String(closes_at)).to.deep.equal([
            'Enter a date and time with its time zone, such as 2026-12-31T17:00:00Z.',
          ]);
        }
      });

      it('an inactive job whose closing date is still ahead does not say "Applications closed" with that date', async () => {
        await makeJob(s.ctx, { public_id: 'paused-1', title: 'Paused Role', closes_at: '2099-12-31T17:30:00Z', status: 'INACTIVE' });
        const page = await html('/careers/paused-1');
        expect(page).to.include('This job post has stopped taking application');
        expect(page).to.not.include('Applications closed').and.not.include('Applications close<').and.not.include('31 Dec 2099');
      });

      it('a job past its closing date stays ACTIVE but takes no applications and leaves the list, locations and sitemap', async () => {
        await makeJob(
          s.ctx,
          {
            public_id: 'closed-1',
            title: 'Closed Role',
            location: 'Closedville, Iceland',
            department: 'Closed Dept',
            closes_at: '2026-01-02T00:00:00Z',
            status: 'ACTIVE',
          },
          new Date('2026-01-01T00:00:00Z'),
        );
        const hrRow = await s.ctx.db('jobs').where({ public_id: 'closed-1' }).first();
        expect(hrRow.status).to.equal('ACTIVE');
        const page = await html('/careers/closed-1');
        expect(page).to.include('This job post has stopped taking application').and.include('Applications closed');
        expect(page).to.not.include('Apply Now');
        expect(jsonLdOf(page)).to.equal(undefined);
        const wizard = await html('/careers/closed-1/apply');
        expect(wizard).to.include('Applications Closed');
        const apply = await fetch(`${s.baseUrl}/api/jobs/closed-1/apply/`, { method: 'POST', body: applyForm(validFields()) });
        expect(apply.status).to.equal(400);
        expect(await apply.json()).to.deep.equal({ detail: 'This job post has stopped taking application.' });
        const list = await html('/careers');
        expect(list).to.not.include('Closed Role').and.not.include('Closedville, Iceland').and.not.include('Closed Dept');
        const api = await (await get('/api/jobs/?title=Closed')).json();
        expect(api.count).to.equal(0);
        expect(await html('/sitemap.xml')).to.not.include('closed-1');
        const pub = await (await get('/api/jobs/closed-1/')).json();
        expect(pub.accepting_applications).to.equal(false);
        const hr = await (await fetch(`${s.baseUrl}/hr/jobs/list`, { headers: { Cookie: `jwt=${token}` } })).text();
        expect(hr).to.match(/<span class="status status-closed">Closed<\/span>/);
      });

      it('a job closes at its instant with no write, even while its pages are kept (long cache)', async () => {
        const cached = await startTestServer(kind, { PUBLIC_CACHE_SECONDS: '300' });
        try {
          const { token: t } = await hrSession(cached.ctx.db);
          const closesAt = inSeconds(3);
          const res = await fetch(`${cached.baseUrl}/api/hr/jobs/`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${t}`, 'Content-Type': 'application/json' },
            body: JSON.stringify(
              payload({ public_id: 'soon', title: 'Closing Soon', location: 'Soonland, Norway', closes_at: closesAt, status: 'ACTIVE' }),
            ),
          });
          expect(res.status).to.equal(201);
          const fetchText = async (p: string) => (await fetch(cached.baseUrl + p)).text();
          // Read (and kept) while open.
          expect(await fetchText('/careers')).to.include('Closing Soon');
          expect(await fetchText('/careers/soon')).to.include('Apply Now');
          expect(await fetchText('/careers/soon/apply')).to.not.include('Applications Closed');
          expect((await (await fetch(`${cached.baseUrl}/api/jobs/`)).json()).count).to.equal(1);
          await sleep(Date.parse(closesAt) - Date.now() + 200);
          expect(await fetchText('/careers')).to.not.include('Closing Soon');
          expect(await fetchText('/careers')).to.not.include('Soonland, Norway');
          expect(await fetchText('/careers/soon')).to.include('This job post has stopped taking application');
          expect(await fetchText('/careers/soon/apply')).to.include('Applications Closed');
          expect((await (await fetch(`${cached.baseUrl}/api/jobs/`)).json()).count).to.equal(0);
          expect((await (await fetch(`${cached.baseUrl}/api/jobs/soon/`)).json()).accepting_applications).to.equal(false);
          const apply = await fetch(`${cached.baseUrl}/api/jobs/soon/apply/`, { method: 'POST', body: applyForm(validFields()) });
          expect(apply.status).to.equal(400);
          expect(await fetchText('/sitemap.xml')).to.not.include('/careers/soon');
        } finally {
          await cached.close();
        }
      });
    });

    describe('readable public ids', () => {
      it('makes the id from the title, then -2, -3 on a clash; a given id is kept and never changes', async () => {
        const a = await create(payload({ title: 'Senior Backend Architect' }));
        const b = await create(payload({ title: 'Senior  Backend architect!' }));
        const c = await create(payload({ title: 'senior backend ARCHITECT' }));
        expect([a.public_id, b.public_id, c.public_id]).to.deep.equal([
          'senior-backend-architect',
          'senior-backend-architect-2',
          'senior-backend-architect-3',
        ]);
        const given = await create(payload({ title: 'Senior Backend Architect', public_id: 'my-own-id' }));
        expect(given.public_id).to.equal('my-own-id');
        const renamed = await (await call('PUT', `/api/hr/jobs/${a.id}/`, { ...a, title: 'Principal Engineer' })).json();
        expect(renamed.public_id).to.equal('senior-backend-architect');
      });

      it('transliterates other scripts and accents, keeps ids within 64 characters, and falls back to a random id', async () => {
        const fr = await create(payload({ title: 'Développeur Back-end & API' }));
        expect(fr.public_id).to.equal('developpeur-back-end-and-api');
        const ru = await create(payload({ title: 'Инженер-программист' }));
        expect(ru.public_id).to.equal('inzhener-programmist');
        const de = await create(payload({ title: 'Straßenbahn Fahrer' }));
        expect(de.public_id).to.equal('strassenbahn-fahrer');
        const long = 'Staff Software Engineer Distributed Systems Storage Infrastructure Platform Team';
        const l1 = await create(payload({ title: long }));
        const l2 = await create(payload({ title: long }));
        expect(l1.public_id.length).to.be.at.most(64);
        expect(l2.public_id.length).to.be.at.most(64);
        // Cut at a word where one is near the limit.
        expect(l1.public_id).to.equal('staff-software-engineer-distributed-systems-storage');
        expect(l2.public_id).to.equal('staff-software-engineer-distributed-systems-storage-2');
        const w1 = await create(payload({ title: 'W'.repeat(100) }));
        const w2 = await create(payload({ title: 'W'.repeat(100) }));
        expect(w1.public_id).to.equal('w'.repeat(64));
        expect(w2.public_id).to.equal(`${'w'.repeat(62)}-2`);
        const cjk = await create(payload({ title: '软件工程师' }));
        expect(cjk.public_id).to.match(/^[A-Za-z2-9]{10}$/);
      });

      it('two creates with the same title at once both succeed, with different ids', async () => {
        const results = await Promise.all(Array.from({ length: 6 }, () => post(payload({ title: 'Concurrent Role' }))));
        expect(results.map((r) => r.status)).to.deep.equal([201, 201, 201, 201, 201, 201]);
        const ids = results.map((r) => r.body.public_id);
        expect(new Set(ids).size).to.equal(6);
        expect(ids).to.include('concurrent-role');
        for (const id of ids) expect(id).to.match(/^concurrent-role(-\d+)?$|^[A-Za-z2-9]{10}$/);
      });
    });

    describe('applicant countries and pay periods', () => {
      it('gives JSON-LD applicantLocationRequirements from the countries HR set, else from the location', async () => {
        const job = await create(
          payload({
            public_id: 'remote-eu',
            // Open to countries with pay rules (issue 34): a range, as they want.
            min_salary: 60000,
            max_salary: 80000,
            title: 'Remote EU',
            location: 'Remote — Europe',
            work_mode: 'REMOTE',
            applicant_countries: ['de', 'FR', ' pl ', 'DE'],
            status: 'ACTIVE',
          }),
        );
        expect(job.applicant_countries).to.deep.equal(['DE', 'FR', 'PL']);
        const ld = jsonLdOf(await html('/careers/remote-eu'))!;
        expect(ld.jobLocationType).to.equal('TELECOMMUTE');
        expect(ld.applicantLocationRequirements).to.deep.equal([
          { '@type': 'Country', name: 'Germany' },
          { '@type': 'Country', name: 'France' },
          { '@type': 'Country', name: 'Poland' },
        ]);
        await create(
          payload({
            public_id: 'remote-us',
            // Open to countries with pay rules (issue 34): a range, as they want.
            min_salary: 60000,
            max_salary: 80000,
            title: 'Remote US',
            location: 'Remote — United States',
            work_mode: 'REMOTE',
            status: 'ACTIVE',
          }),
        );
        expect(jsonLdOf(await html('/careers/remote-us'))!.applicantLocationRequirements).to.deep.equal({
          '@type': 'Country',
          name: 'United States',
        });
        const one = await create(
          payload({
            public_id: 'remote-ca',
            // Open to countries with pay rules (issue 34): a range, as they want.
            min_salary: 60000,
            max_salary: 80000,
            title: 'Remote CA',
            location: 'Anywhere',
            work_mode: 'REMOTE',
            applicant_countries: ['CA'],
            status: 'ACTIVE',
          }),
        );
        expect(one.applicant_countries).to.deep.equal(['CA']);
        expect(jsonLdOf(await html('/careers/remote-ca'))!.applicantLocationRequirements).to.deep.equal({
          '@type': 'Country',
          name: 'Canada',
        });
      });

      it('refuses codes that are not ISO 3166-1 alpha-2 countries, and lists that are not lists, saving nothing', async () => {
        const before = await jobCount();
        for (const [applicant_countries, message] of [
          [['US', 'ZZ'], 'ZZ is not an ISO 3166-1 alpha-2 country code.'],
          [['XK'], 'XK is not an ISO 3166-1 alpha-2 country code.'],
          [['EU'], 'EU is not an ISO 3166-1 alpha-2 country code.'],
          [['USA'], 'USA is not an ISO 3166-1 alpha-2 country code.'],
          [['United States'], 'UNITED STATES is not an ISO 3166-1 alpha-2 country code.'],
          [["' OR 1=1 --"], "' OR 1=1 -- is not an ISO 3166-1 alpha-2 country code."],
          ['US', 'Give a list of ISO 3166-1 alpha-2 country codes, such as ["US", "CA"].'],
          [[1], 'Give a list of ISO 3166-1 alpha-2 country codes, such as ["US", "CA"].'],
          [{ US: true }, 'Give a list of ISO 3166-1 alpha-2 country codes, such as ["US", "CA"].'],
          [Array.from({ length: 251 }, () => 'US').map((c, i) => (i < 250 ? `${c}${i}` : c)), 'At most 250 countries.'],
        ] as const) {
          const r = await post(payload({ work_mode: 'REMOTE', applicant_countries }));
          expect(r.status, JSON.stringify(applicant_countries).slice(0, 40)).to.equal(400);
          expect(r.body.applicant_countries, JSON.stringify(r.body)).to.deep.equal([message]);
        }
        expect(await jobCount()).to.equal(before);
      });

      it('uses the pay period for JSON-LD unitText and the salary display; YEAR by default; refuses others', async () => {
        const hourly = await create(
          payload({ public_id: 'hourly', title: 'Hourly Role', min_salary: 22.5, max_salary: 30, salary_period: 'HOUR', status: 'ACTIVE' }),
        );
        expect(hourly.salary_period).to.equal('HOUR');
        const page = await html('/careers/hourly');
        expect(page).to.include('$22.50 – $30.00 per hour');
        expect(jsonLdOf(page)!.baseSalary).to.deep.equal({
          '@type': 'MonetaryAmount',
          currency: 'USD',
          value: { '@type': 'QuantitativeValue', unitText: 'HOUR', minValue: 22.5, maxValue: 30 },
        });
        await create(
          payload({
            public_id: 'monthly',
            title: 'Monthly Role',
            currency: 'EUR',
            min_salary: 4000,
            salary_period: 'MONTH',
            status: 'ACTIVE',
          }),
        );
        const list = await (await get('/api/jobs/?title=Monthly')).json();
        expect(list.results[0]).to.include({ salary_display: 'From €4,000 per month', salary_period: 'MONTH' });
        expect(await html('/careers?title=Monthly')).to.include('From €4,000 per month');
        expect(jsonLdOf(await html('/careers/monthly'))!.baseSalary.value.unitText).to.equal('MONTH');
        const yearly = await create(payload({ public_id: 'yearly', title: 'Yearly Role', max_salary: 90000, status: 'ACTIVE' }));
        expect(yearly.salary_period).to.equal('YEAR');
        expect(jsonLdOf(await html('/careers/yearly'))!.baseSalary.value.unitText).to.equal('YEAR');
        expect(await html('/careers/yearly')).to.include('Up to $90,000 per year');
        for (const salary_period of ['WEEK', 'year', 5, ['YEAR']]) {
          const r = await post(payload({ salary_period }));
          expect(r.status, String(salary_period)).to.equal(400);
          expect(r.body.salary_period[0]).to.match(/YEAR, MONTH, HOUR/);
        }
      });
    });
  });
}
