/**
 * Source attribution (issue 21) over HTTP, on both databases: the first touch of a campaign link
 * or a tracking link is kept in a signed cookie and stored with the application; later touches,
 * forged, tampered and expired cookies change nothing; values are cleaned and cut; tracking links
 * (create, clash, bad input, follow, clicks, unknown slugs); the Sources report; the applicants
 * list's source filter, column and export column; the webhook payload's source only for a job
 * that opted in; HR routes refuse a missing token.
 */
import ExcelJS from 'exceljs';
import { expect } from 'chai';
import { addFunnelCounts } from '../../src/funnel/repo.js';
import { fromDbJson } from '../../src/db/codecs.js';
import type { Job } from '../../src/jobs/types.js';
import { databaseKinds } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { hrSession } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { toFormData, validFields } from '../fixtures/apply.js';

/** The careers_src cookie a response sets, as a Cookie header value; null when it sets none. */
function setCookie(res: Response): string | null {
  const c = res.headers.getSetCookie().find((v) => v.startsWith('careers_src='));
  return c ? c.split(';')[0] : null;
}

for (const kind of databaseKinds()) {
  describe(`source attribution [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    let token: string;
    let job: Job;
    let hooked: Job;
    let n = 0;
    const hr = async (path: string, init: { method?: string; body?: unknown } = {}) => {
      const res = await fetch(`${s.baseUrl}${path}`, {
        method: init.method ?? 'GET',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    };
    /** Applies to `target` with the cookie given; the new application's row. */
    const apply = async (target: Job, cookie: string | null) => {
      n += 1;
      const email = `src${n}@example.com`;
      const res = await fetch(`${s.baseUrl}/api/jobs/${target.public_id}/apply/`, {
        method: 'POST',
        body: toFormData(validFields({ email })),
        headers: cookie ? { Cookie: cookie } : {},
      });
      expect(res.status, await res.clone().text()).to.equal(201);
      return s.ctx.db('applications').where({ email }).first();
    };

    before(async () => {
      s = await startTestServer(kind, { PUBLIC_CACHE_SECONDS: '60', APPLY_RATE_LIMIT: '1000', POSTS_WORKER: 'off' });
      token = (await hrSession(s.ctx.db, 'sources-hr')).token;
      job = await makeJob(s.ctx.db, { title: 'Payroll Specialist', public_id: 'payroll', status: 'ACTIVE' });
      hooked = await makeJob(s.ctx.db, {
        title: 'Hooked Role',
        public_id: 'hooked',
        status: 'ACTIVE',
        webhook_enabled: true,
        webhook_url: 'https://hooks.example.com/careers',
        webhook_include_source: true,
      });
    });
    after(() => s.close());

    it('keeps the first touch of a campaign link, signed, for 30 days, and stores it with the application', async () => {
      const first = await fetch(`${s.baseUrl}/careers/payroll?utm_source=linkedin&utm_medium=social&utm_campaign=spring`);
      expect(first.status).to.equal(200);
      const cookie = setCookie(first)!;
      expect(cookie).to.match(/^careers_src=[A-Za-z0-9_-]+\.[a-f0-9]{64}$/);
      const header = first.headers.getSetCookie().find((v) => v.startsWith('careers_src='))!;
      expect(header)
        .to.match(/Max-Age=2592000/)
        .and.match(/HttpOnly/)
        .and.match(/SameSite=Lax/);
      // The same page again (now answered from memory) with another campaign: the first touch stays.
      const later = await fetch(`${s.baseUrl}/careers/payroll?utm_source=twitter`, { headers: { Cookie: cookie } });
      expect(setCookie(later)).to.equal(null);
      const app = await apply(job, cookie);
      expect(app).to.include({ source: 'linkedin', medium: 'social', campaign: 'spring' });
      expect(app.tracking_link_id).to.equal(null);
      const detail = await hr(`/api/hr/applications/${app.id}/`);
      expect(detail.body.attribution).to.deep.equal({
        source: 'linkedin',
        medium: 'social',
        campaign: 'spring',
        tracking_link_id: null,
        tracking_link_name: null,
      });
    });

    it('a page answered from memory still sets the cookie for a new visitor; src= counts as a source', async () => {
      await fetch(`${s.baseUrl}/careers?src=newsletter`);
      const again = await fetch(`${s.baseUrl}/careers?src=newsletter`);
      const cookie = setCookie(again)!;
      expect(cookie).to.not.equal(null);
      expect(await apply(job, cookie)).to.include({ source: 'newsletter', medium: null, campaign: null });
    });

    it('ignores forged, tampered, expired and oversized cookies, and pages without a source', async () => {
      const good = setCookie(await fetch(`${s.baseUrl}/careers/payroll?utm_source=good`))!;
      const [payload, sig] = good.slice('careers_src='.length).split('.');
      const forged = Buffer.from(JSON.stringify({ s: 'forged', m: '', c: '', l: null, t: Date.now() })).toString('base64url');
      const expiredPayload = Buffer.from(JSON.stringify({ s: 'old', m: '', c: '', l: null, t: Date.now() - 31 * 86_400_000 })).toString(
        'base64url',
      );
      const expired = `${expiredPayload}.${await s.ctx.serverKey.hash(`attribution:${expiredPayload}`)}`;
      for (const value of [
        `${forged}.${sig}`,
        `${payload}.${'0'.repeat(64)}`,
        `${payload}x.${sig}`,
        payload,
        '',
        expired,
        `${'a'.repeat(5000)}.${sig}`,
        'not base64 . at all',
      ]) {
        expect(await apply(job, `careers_src=${value}`), value.slice(0, 40)).to.include({ source: null, medium: null, campaign: null });
      }
      expect(setCookie(await fetch(`${s.baseUrl}/careers/payroll?utm_medium=only-medium`))).to.equal(null);
      expect(setCookie(await fetch(`${s.baseUrl}/careers/payroll`))).to.equal(null);
      expect(await apply(job, null)).to.include({ source: null });
    });

    it('cleans control characters and cuts huge values to 100 characters', async () => {
      const q = new URLSearchParams({ utm_source: `news\u0000\u202eletter\r\n<script>`, utm_campaign: 'c'.repeat(10_000) });
      const cookie = setCookie(await fetch(`${s.baseUrl}/careers/payroll?${q}`))!;
      const app = await apply(job, cookie);
      expect(app.source).to.equal('news letter <script>');
      expect(app.campaign).to.equal('c'.repeat(100));
    });

    it('tracking links: create (slug from the name, -2 on a clash), refuse bad input, follow, count clicks and applications', async () => {
      const created = await hr('/api/hr/sources/links/', {
        method: 'POST',
        body: { name: 'Referral: Priya Sharma', source: 'referral', medium: 'employee', job_id: job.id },
      });
      expect(created.status).to.equal(201);
      expect(created.body).to.include({
        slug: 'referral-priya-sharma',
        name: 'Referral: Priya Sharma',
        source: 'referral',
        medium: 'employee',
        campaign: '',
        clicks: 0,
        applications: 0,
      });
      expect(created.body.url).to.match(/\/go\/referral-priya-sharma$/);
      expect(created.body.job).to.deep.equal({ id: job.id, title: 'Payroll Specialist' });
      const clash = await hr('/api/hr/sources/links/', { method: 'POST', body: { name: 'Referral: Priya Sharma!', source: 'referral' } });
      expect(clash.body.slug).to.equal('referral-priya-sharma-2');
      const taken = await hr('/api/hr/sources/links/', { method: 'POST', body: { name: 'X', source: 'x', slug: 'referral-priya-sharma' } });
      expect(taken.status).to.equal(400);
      expect(taken.body.slug).to.deep.equal(['This link name is already in use. Choose another.']);
      for (const [body, field] of [
        [{ source: 'x' }, 'name'],
        [{ name: 'x' }, 'source'],
        [{ name: 'x', source: '\u0000 ' }, 'source'],
        [{ name: 'x\ny', source: 'x' }, 'name'],
        [{ name: 'x'.repeat(192), source: 'x' }, 'name'],
        [{ name: 'x', source: 'x', slug: '../etc/passwd' }, 'slug'],
        [{ name: 'x', source: 'x', slug: '-bad' }, 'slug'],
        [{ name: 'x', source: 'x', job_id: 999999 }, 'job_id'],
        [{ name: 'x', source: 'x', job_id: 'abc' }, 'job_id'],
        [{ name: 'x', source: 'x', job_id: -1 }, 'job_id'],
        [{ name: 42, source: 'x' }, 'name'],
      ] as const) {
        const res = await hr('/api/hr/sources/links/', { method: 'POST', body });
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body, JSON.stringify(body)).to.have.property(field);
      }
      expect((await hr('/api/hr/sources/links/', { method: 'POST', body: [] })).status).to.equal(400);

      const go = await fetch(`${s.baseUrl}/go/referral-priya-sharma`, { redirect: 'manual' });
      expect(go.status).to.equal(302);
      expect(go.headers.get('location')).to.equal('/careers/payroll');
      const cookie = setCookie(go)!;
      const app = await apply(job, cookie);
      expect(app).to.include({ source: 'referral', medium: 'employee', campaign: null, tracking_link_id: created.body.id });
      // The detail names the link beside the source (issue 30).
      expect((await hr(`/api/hr/applications/${app.id}/`)).body.attribution).to.deep.equal({
        source: 'referral',
        medium: 'employee',
        campaign: '',
        tracking_link_id: created.body.id,
        tracking_link_name: 'Referral: Priya Sharma',
      });
      // Upper case and a link to the list: the job list.
      const upper = await fetch(`${s.baseUrl}/go/REFERRAL-PRIYA-SHARMA-2`, { redirect: 'manual' });
      expect(upper.headers.get('location')).to.equal('/careers');
      const links = await hr('/api/hr/sources/links/');
      const link = links.body.results.find((l: { id: number }) => l.id === created.body.id);
      expect(link).to.include({ clicks: 1, applications: 1 });
      expect(links.body.results.find((l: { slug: string }) => l.slug === 'referral-priya-sharma-2')).to.include({ clicks: 1 });
    });

    it('an unknown or hostile slug leads to the job list, not an error', async () => {
      for (const slug of ['nope', 'x'.repeat(500), '%2e%2e%2fetc', "'%20OR%201=1--", '%00']) {
        const res = await fetch(`${s.baseUrl}/go/${slug}`, { redirect: 'manual' });
        expect(res.status, slug).to.equal(302);
        expect(res.headers.get('location')).to.equal('/careers');
        expect(setCookie(res)).to.equal(null);
      }
    });

    it('removing a link keeps its applications and their source', async () => {
      const link = await hr('/api/hr/sources/links/', { method: 'POST', body: { name: 'Job fair', source: 'event' } });
      const app = await apply(job, setCookie(await fetch(`${s.baseUrl}/go/${link.body.slug}`, { redirect: 'manual' })));
      expect((await hr(`/api/hr/sources/links/${link.body.id}/`, { method: 'DELETE' })).status).to.equal(204);
      expect((await hr(`/api/hr/sources/links/${link.body.id}/`, { method: 'DELETE' })).status).to.equal(404);
      expect((await hr('/api/hr/sources/links/abc/', { method: 'DELETE' })).status).to.equal(404);
      expect(await s.ctx.db('applications').where({ id: app.id }).first()).to.include({ source: 'event' });
      // A cookie of the removed link still gives its source, without pointing at it.
      const stale = setCookie(await fetch(`${s.baseUrl}/careers/payroll?utm_source=x`))!;
      expect(stale).to.not.equal(null);
    });

    it('the Sources report counts applications per source per job; a bad period is a 400', async () => {
      const report = await hr('/api/hr/sources/');
      expect(report.status).to.equal(200);
      const payroll = report.body.jobs.find((j: { job_id: number }) => j.job_id === job.id);
      const total = Number((await s.ctx.db('applications').where({ job_id: job.id }).count({ n: '*' }))[0].n);
      expect(payroll.applications).to.equal(total);
      expect(payroll.sources.find((x: { source: string | null }) => x.source === 'linkedin')).to.deep.equal({
        source: 'linkedin',
        applications: 1,
      });
      expect(payroll.sources.find((x: { source: string | null }) => x.source === null).applications).to.be.greaterThan(5);
      expect(payroll.views).to.be.a('number');
      expect(report.body.totals.reduce((sum: number, t: { applications: number }) => sum + t.applications, 0)).to.equal(total);
      const month = await hr('/api/hr/sources/?days=30');
      expect(month.body.days).to.equal(30);
      for (const bad of ['0', '3651', 'abc', '1.5', '-1']) expect((await hr(`/api/hr/sources/?days=${bad}`)).status, bad).to.equal(400);
    });

    it("the conversion is of the period's counted visits, for every period, never above 100 %; two jobs with one title carry their public ids", async () => {
      const a = await makeJob(s.ctx.db, { public_id: 'twin-a', title: 'Twin Role' });
      const b = await makeJob(s.ctx.db, { public_id: 'twin-b', title: 'Twin Role' });
      const today = new Date().toISOString().slice(0, 10);
      const old = new Date(Date.now() - 40 * 86_400_000).toISOString().slice(0, 10);
      const c = (jobId: number, day: string, step: string, count: number) =>
        ({ jobId, day, step, event: 'reached', device: 'desktop', count }) as Parameters<typeof addFunnelCounts>[1][number];
      await addFunnelCounts(s.ctx.db, [
        c(a.id, today, 'view', 40),
        c(a.id, today, 'submitted', 10),
        c(a.id, old, 'view', 60),
        c(a.id, old, 'submitted', 5),
        c(b.id, today, 'view', 2),
        c(b.id, today, 'submitted', 7),
      ]);
      // Many applications of all time and few views: the old reading gave more than 100 %.
      await s.ctx.db('jobs').where('id', a.id).update({ views: 3 });
      const row = async (q: string, id: number) =>
        (await hr(`/api/hr/sources/${q}`)).body.jobs.find((j: { job_id: number }) => j.job_id === id);
      expect(await row('?days=30', a.id)).to.deep.include({
        public_id: 'twin-a',
        title: 'Twin Role',
        views: 3,
        counted_views: 40,
        conversion: 25,
      });
      expect(await row('?days=90', a.id)).to.deep.include({ counted_views: 100, conversion: 15 });
      expect(await row('', a.id)).to.deep.include({ counted_views: 100, conversion: 15 });
      // More wizard applications than counted views (counts from before views were counted): capped at 100.
      expect(await row('?days=7', b.id)).to.deep.include({ public_id: 'twin-b', counted_views: 2, conversion: 100 });
      // No counted view in the period: no conversion.
      const quiet = await makeJob(s.ctx.db, { public_id: 'quiet-one', title: 'Quiet' });
      await s.ctx.db('jobs').where('id', quiet.id).update({ views: 9 });
      expect(await row('?days=7', quiet.id)).to.deep.include({ counted_views: 0, conversion: null });
      // The tracking link form tells the twins apart too.
      const html = await (await fetch(`${s.baseUrl}/hr/sources`, { headers: { Cookie: `jwt=${token}` } })).text();
      expect(html).to.include('Twin Role (twin-a)').and.include('Twin Role (twin-b)');
    });

    it('the applicants list filters by source (and by none), shows it, and exports it', async () => {
      const linkedin = await hr('/api/hr/applications/?source=linkedin');
      expect(linkedin.body.results.map((r: { source: string }) => r.source)).to.deep.equal(['linkedin']);
      const direct = await hr('/api/hr/applications/?source=(direct)');
      expect(direct.body.results.length).to.be.greaterThan(5);
      for (const r of direct.body.results) expect(r.source).to.equal(null);
      expect((await hr(`/api/hr/applications/?source=${'x'.repeat(101)}`)).status).to.equal(400);
      const page = await fetch(`${s.baseUrl}/hr/applicants?source=linkedin`, { headers: { Cookie: `jwt=${token}` } });
      const html = await page.text();
      expect(html).to.include('value="linkedin"');
      expect(html).to.include('<span class="cell-text" title="linkedin">linkedin</span></td>');
      const xlsx = await fetch(`${s.baseUrl}/api/hr/applications/export/?source=linkedin`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(Buffer.from(await xlsx.arrayBuffer()) as never);
      const rows: unknown[][] = [];
      book.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
      expect(rows[0].at(-1)).to.equal('Source');
      expect(rows).to.have.length(2);
      expect(rows[1].at(-1)).to.equal('linkedin / social / spring');
    });

    it('the source filter ignores case on both databases, and its list offers each source seen once', async () => {
      const job = (await s.ctx.db('jobs').first('id')).id;
      const base = {
        job_id: job,
        first_name: 'Case',
        last_name: 'Test',
        phone: '+919876543210',
        status: 'NEW',
        created_at: new Date(),
        updated_at: new Date(),
      };
      await s.ctx.db('applications').insert([
        { ...base, email: 'case1@example.com', source: 'LinkedIn' },
        { ...base, email: 'case2@example.com', source: 'LINKEDIN' },
        { ...base, email: 'case3@example.com', source: 'Xing<script>' },
      ]);
      for (const q of ['linkedin', 'LinkedIn', 'LINKEDIN']) {
        const res = await hr(`/api/hr/applications/?source=${q}`);
        expect(res.body.results.map((r: { source: string }) => r.source).sort(), q).to.deep.equal(['LINKEDIN', 'LinkedIn', 'linkedin']);
      }
      const html = await (await fetch(`${s.baseUrl}/hr/applicants`, { headers: { Cookie: `jwt=${token}` } })).text();
      const options = [
        .../<datalist id="f-source-options">([\s\S]*?)<\/datalist>/.exec(html)![1].matchAll(/<option value="([^"]*)">/g),
      ].map((m) => m[1]);
      // One spelling per source (the most used, or the first seen on a tie), (direct) first, hostile text escaped.
      expect(options[0]).to.equal('(direct)');
      expect(options.filter((o) => o.toLowerCase() === 'linkedin')).to.have.length(1);
      expect(options).to.include('Xing&lt;script&gt;');
      expect(html).to.include('list="f-source-options"');
      await s.ctx.db('applications').where('first_name', 'Case').del();
    });

    it('the webhook payload carries the source only for a job that opted in', async () => {
      const cookie = setCookie(await fetch(`${s.baseUrl}/careers/hooked?utm_source=indeed&utm_medium=feed`))!;
      const app = await apply(hooked, cookie);
      const post = await s.ctx.db('application_posts').where({ application_id: app.id }).first();
      expect(fromDbJson(post.payload, null)).to.deep.equal({
        job_public_id: 'hooked',
        email: app.email,
        first_name: 'Asha',
        second_name: "D'Souza-Rao",
        phone: '+919876543210',
        source: { source: 'indeed', medium: 'feed', campaign: '', tracking_link_id: null },
      });
      const direct = await apply(hooked, null);
      const directPost = await s.ctx.db('application_posts').where({ application_id: direct.id }).first();
      expect(fromDbJson<Record<string, unknown>>(directPost.payload, {}).source).to.equal(null);
      const hr1 = await hr(`/api/hr/jobs/${hooked.id}/`);
      expect(hr1.body.webhook_include_source).to.equal(true);
      // A job that did not opt in: exactly the spec's keys.
      await s.ctx.db('jobs').where({ id: job.id }).update({ webhook_enabled: true, webhook_url: 'https://hooks.example.com/careers' });
      s.ctx.cache.clear('public-jobs');
      const plain = await apply(job, cookie);
      const plainPost = await s.ctx.db('application_posts').where({ application_id: plain.id }).first();
      expect(Object.keys(fromDbJson<Record<string, unknown>>(plainPost.payload, {}))).to.deep.equal([
        'job_public_id',
        'email',
        'first_name',
        'second_name',
        'phone',
      ]);
    });

    it('refuses the HR routes without a valid token', async () => {
      for (const [method, path] of [
        ['GET', '/api/hr/sources/'],
        ['GET', '/api/hr/sources/links/'],
        ['POST', '/api/hr/sources/links/'],
        ['DELETE', '/api/hr/sources/links/1/'],
      ]) {
        expect((await fetch(`${s.baseUrl}${path}`, { method })).status, path).to.equal(401);
        expect((await fetch(`${s.baseUrl}${path}`, { method, headers: { Authorization: 'Bearer forged' } })).status, path).to.equal(401);
      }
      const page = await fetch(`${s.baseUrl}/hr/sources`, { redirect: 'manual' });
      expect(page.status).to.equal(302);
    });
  });
}
