/**
 * Issue 35, "A site HR can brand", over real HTTP on both databases: the settings an admin keeps
 * (GET/PUT /api/hr/settings/site/), the logo (POST/DELETE .../logo/, multipart) and what the public
 * pages, feeds and other processes show of them; admins only; bad input (wrong types, huge values,
 * hostile strings, a polyglot file, a 20 MB upload, an SVG bomb) refused with exact messages and
 * nothing half-written.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { expect } from 'chai';
import sharp from 'sharp';
import { createSite } from '../../src/app.js';
import { settleContext, type AppContext } from '../../src/context.js';
import { listenHttp } from '../../src/http/listen.js';
import { createAppContext } from '../../src/wiring.js';
import { BRANDING_MESSAGES } from '../../src/branding/schema.js';
import { databaseKinds } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { everyFieldForm } from '../forms/helpers.js';
import { createHrUser, liveToken } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const ADMIN_ONLY = 'You do not have permission to perform this action. Only admins can.';

const SETTINGS = {
  company_name: 'Globex Industries',
  hero_title: 'Build the future at Globex',
  hero_text: 'Small teams, real ownership.\nRemote friendly.',
  about_html: '<p>We make <b>widgets</b>.<script>alert(1)</script><img src=x onerror=alert(2)></p><a href="javascript:alert(3)">x</a>',
  empty_message: 'We are not hiring right now. Check back in spring!',
  accent_color: '#0F766E',
  footer_links: [
    { label: 'Engineering blog', url: 'https://blog.example.com/' },
    { label: 'Glassdoor', url: 'https://www.glassdoor.com/example' },
  ],
};

const HOSTILE_SVG = `<?xml version="1.0"?>
<!DOCTYPE svg [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="240" height="60" viewBox="0 0 240 60" onload="alert(1)">
  <script>alert(document.cookie)</script>
  <style>rect { fill: url(https://evil.example/track.svg#x) }</style>
  <linearGradient id="g"><stop offset="0" stop-color="#0f766e"/><stop offset="1" stop-color="#134e4a"/></linearGradient>
  <rect width="240" height="60" rx="8" fill="url(#g)" onclick="alert(2)"/>
  <image href="https://evil.example/pixel.png" width="1" height="1"/>
  <use xlink:href="https://evil.example/sprite.svg#logo"/>
  <a href="javascript:alert(3)"><text x="10" y="40">click</text></a>
  <foreignObject width="10" height="10"><iframe src="https://evil.example/"></iframe></foreignObject>
  <text x="20" y="38" fill="#ffffff" font-size="24">Globex &lol2;</text>
</svg>`;

for (const kind of databaseKinds()) {
  describe(`site settings API [${kind}]`, function () {
    this.timeout(120_000);
    let s: TestServer;
    const token = { admin: '', recruiter: '', none: '' };

    before(async () => {
      s = await startTestServer(kind, {
        PUBLIC_CACHE_SECONDS: '0',
        COMPANY_NAME: 'Acme Corporation',
        EMBED_ORIGINS: 'https://www.partner.example',
      });
      token.admin = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'brand.admin'));
      token.recruiter = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'brand.recruiter', { role: 'recruiter' }));
    });
    after(() => s.close());

    const call = async (method: string, path: string, body?: unknown, who: keyof typeof token = 'admin') => {
      const res = await fetch(s.baseUrl + path, {
        method,
        headers: {
          ...(token[who] ? { Authorization: `Bearer ${token[who]}` } : {}),
          ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    };
    const upload = async (bytes: Buffer, name = 'logo.png', field = 'logo', who: keyof typeof token = 'admin') => {
      const form = new FormData();
      form.append(field, new Blob([new Uint8Array(bytes)]), name);
      const res = await fetch(`${s.baseUrl}/api/hr/settings/site/logo/`, {
        method: 'POST',
        headers: token[who] ? { Authorization: `Bearer ${token[who]}` } : {},
        body: form,
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    };
    const page = async (path: string) => {
      const res = await fetch(s.baseUrl + path);
      return { status: res.status, html: await res.text(), headers: res.headers };
    };
    const blank = {
      company_name: '',
      hero_title: '',
      hero_text: '',
      about_html: '',
      empty_message: '',
      accent_color: '',
      footer_links: [],
    };
    const stored = () => s.ctx.db('site_settings').where({ id: 1 }).first();
    const version = async () => Number((await s.ctx.db('public_versions').where({ name: 'pages' }).first('version')).version);

    it('refuses callers without a session (401) and every role but admin (403), the page too', async () => {
      for (const [method, path] of [
        ['GET', '/api/hr/settings/site/'],
        ['PUT', '/api/hr/settings/site/'],
        ['POST', '/api/hr/settings/site/logo/'],
        ['DELETE', '/api/hr/settings/site/logo/'],
      ]) {
        expect((await call(method, path, method === 'PUT' ? blank : undefined, 'none')).status, `${method} ${path}`).to.equal(401);
        const r = await call(method, path, method === 'PUT' ? blank : undefined, 'recruiter');
        expect(r.status, `${method} ${path}`).to.equal(403);
        expect(r.body).to.deep.equal({ detail: ADMIN_ONLY });
      }
      const res = await fetch(`${s.baseUrl}/hr/settings/site`, { redirect: 'manual' });
      expect(res.status).to.equal(302);
      expect(res.headers.get('location')).to.contain('/hrviewlogin');
      const recruiter = await fetch(`${s.baseUrl}/hr/settings/site`, { headers: { Cookie: `jwt=${token.recruiter}` } });
      expect(recruiter.status).to.equal(403);
      const admin = await fetch(`${s.baseUrl}/hr/settings/site`, { headers: { Cookie: `jwt=${token.admin}` } });
      expect(admin.status).to.equal(200);
      expect(await admin.text()).to.contain('Site settings');
    });

    it('starts from the defaults: COMPANY_NAME, built-in hero and empty-site texts, no logo or accent', async () => {
      const { status, body } = await call('GET', '/api/hr/settings/site/');
      expect(status).to.equal(200);
      expect(body).to.deep.include({ ...blank, logo: null });
      expect(body.defaults).to.deep.equal({
        company_name: 'Acme Corporation',
        hero_title: 'Join Acme Corporation',
        hero_text: 'See our open positions and apply online.',
        empty_message: 'There are no open positions right now. Please check back soon.',
        accent_color: '#1d4ed8',
      });
      const careers = await page('/careers');
      expect(careers.html).to.contain('<h1>Join Acme Corporation</h1>');
      expect(careers.html).to.contain('There are no open positions right now. Please check back soon.');
      expect(careers.html).not.to.contain('No jobs match the current filters');
      expect(careers.html).not.to.contain('brand-mark');
      expect(careers.html).not.to.contain('Do the best work of your career');
      expect(careers.html).not.to.contain('/brand/theme-');
      // A filtered list that finds nothing still says so.
      expect((await page('/careers?title=nothing-like-this')).html).to.contain('No jobs match the current filters');
    });

    it('saves every setting (audited, the public version raised) and shows them on the public pages and feeds at once', async () => {
      await makeJob(s.ctx, { title: 'Widget Engineer', status: 'ACTIVE' });
      const before = await page('/careers');
      expect(before.html).to.contain('Widget Engineer');
      const v0 = await version();
      const { status, body } = await call('PUT', '/api/hr/settings/site/', SETTINGS);
      expect(status).to.equal(200);
      expect(await version()).to.equal(v0 + 1);
      expect(body).to.deep.include({
        company_name: 'Globex Industries',
        hero_title: 'Build the future at Globex',
        hero_text: 'Small teams, real ownership.\nRemote friendly.',
        about_html: '<p>We make <b>widgets</b>.</p><a href="#" target="_blank" rel="noopener noreferrer">x</a>',
        empty_message: 'We are not hiring right now. Check back in spring!',
        accent_color: '#0f766e',
        footer_links: SETTINGS.footer_links,
      });
      expect(body.defaults.company_name).to.equal('Acme Corporation');
      expect(body.updated_at).to.be.a('string');
      const audit = await s.ctx.db('audit_log').where({ entity: 'site_settings', action: 'site_settings.update' });
      expect(audit).to.have.length(1);

      const careers = await page('/careers');
      expect(careers.html).to.contain('<title>Careers at Globex Industries</title>');
      expect(careers.html).to.contain('<h1>Build the future at Globex</h1>');
      expect(careers.html).to.contain('<p class="hero-text">Small teams, real ownership.</p>');
      expect(careers.html).to.contain('<p class="hero-text">Remote friendly.</p>');
      expect(careers.html).to.contain('About Globex Industries');
      expect(careers.html).to.contain('<p>We make <b>widgets</b>.</p>');
      expect(careers.html).not.to.match(/<script>alert|onerror|javascript:/);
      expect(careers.html).to.contain('<a href="https://blog.example.com/" rel="noopener">Engineering blog</a>');
      expect(careers.html).to.contain('&copy; ');
      expect(careers.html).to.contain('Globex Industries. All rights reserved.');
      expect(careers.html).to.contain('<link rel="stylesheet" href="/brand/theme-0f766e.css">');
      expect(careers.html).to.contain('Globex Industries Careers');
      const theme = await page('/brand/theme-0f766e.css');
      expect(theme.status).to.equal(200);
      expect(theme.headers.get('content-type')).to.match(/^text\/css/);
      expect(theme.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
      expect(theme.html).to.contain('--brand: #0f766e;');
      for (const bad of [
        '/brand/theme-zzzzzz.css',
        '/brand/theme-0f766e.js',
        '/brand/theme-0f766.css',
        '/brand/logo-x.png',
        '/brand/%2e%2e%2fpackage.json',
      ])
        expect((await page(bad)).status, bad).to.equal(404);

      const [job] = await s.ctx.db('jobs').where({ title: 'Widget Engineer' });
      const jobPage = await page(`/careers/${job.public_id}`);
      expect(jobPage.html).to.contain('<title>Widget Engineer — Globex Industries Careers</title>');
      expect(jobPage.html).to.contain('"name":"Globex Industries"');
      expect((await page('/feeds/jobs.rss')).html).to.contain('<title>Jobs at Globex Industries</title>');
      expect((await page('/privacy')).html).to.contain('Privacy Policy — Globex Industries Careers');
      const embed = (await page('/embed/jobs')).html;
      expect(embed).to.contain('Open positions at Globex Industries');
      expect(embed).to.contain('<link rel="stylesheet" href="/brand/theme-0f766e.css">');

      // An empty site shows the configured message.
      await s.ctx.db('jobs').update({ status: 'INACTIVE' });
      await s.ctx.db('public_versions').where({ name: 'pages' }).increment('version', 1);
      s.ctx.cache.clear('public-jobs');
      const empty = await page('/careers');
      expect(empty.html).to.contain('We are not hiring right now. Check back in spring!');
      expect(empty.html).not.to.contain('No jobs match the current filters');
      await s.ctx.db('jobs').update({ status: 'ACTIVE' });
      await s.ctx.db('public_versions').where({ name: 'pages' }).increment('version', 1);
      s.ctx.cache.clear('public-jobs');
    });

    it('changes the pages another process kept at once (PUBLIC_CACHE_SECONDS=0, the version in the same transaction)', async () => {
      const other: AppContext = createAppContext(s.testDb.config);
      const server: Server = await listenHttp(createSite(other).listener, { port: 0, host: '127.0.0.1' });
      try {
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/careers`;
        const first = await (await fetch(url)).text();
        expect(first).to.contain('<h1>Build the future at Globex</h1>');
        // Kept by the other process: answered from memory while nothing changed.
        expect(await (await fetch(url)).text()).to.equal(first);
        expect((await call('PUT', '/api/hr/settings/site/', { ...SETTINGS, hero_title: 'Now hiring at Globex' })).status).to.equal(200);
        const after = await (await fetch(url)).text();
        expect(after).to.contain('<h1>Now hiring at Globex</h1>');
      } finally {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await settleContext(other);
        await other.db.destroy();
      }
    });

    it('refuses an accent colour below WCAG AA (4.5:1) naming its ratio, and colours that are not colours', async () => {
      const cases: [unknown, string][] = [
        ['#ffff00', BRANDING_MESSAGES.contrast('#ffff00', '1.02')],
        // #767676 passes 4.5:1 on white but not on the page background (#f9fafb).
        ['#767676', BRANDING_MESSAGES.contrast('#767676', '4.34')],
        ['#7dd3fc', BRANDING_MESSAGES.contrast('#7dd3fc', '1.59')],
        ['red', BRANDING_MESSAGES.color],
        ['#12345', BRANDING_MESSAGES.color],
        ['#1d4ed8; background:url(x)', BRANDING_MESSAGES.color],
        [12, 'Must be text.'],
      ];
      const before = await stored();
      for (const [accent, message] of cases) {
        const r = await call('PUT', '/api/hr/settings/site/', { ...SETTINGS, accent_color: accent });
        expect(r.status, String(accent)).to.equal(400);
        expect(r.body, String(accent)).to.deep.equal({ accent_color: [message] });
      }
      expect(BRANDING_MESSAGES.contrast('#ffff00', '1.02')).to.equal(
        'The accent colour #ffff00 has a contrast ratio of 1.02:1 against white text and the page background; WCAG AA needs at least 4.5:1. Choose a darker colour.',
      );
      expect(await stored()).to.deep.equal(before);
      // Short form and any case are fine when dark enough.
      const ok = await call('PUT', '/api/hr/settings/site/', { ...SETTINGS, accent_color: '#036' });
      expect(ok.status).to.equal(200);
      expect(ok.body.accent_color).to.equal('#003366');
    });

    it('refuses wrong types, huge values and hostile strings with field messages, saving nothing', async () => {
      const before = await stored();
      const cases: [unknown, Record<string, string[] | string>][] = [
        [[], { detail: BRANDING_MESSAGES.notObject }],
        [{ ...SETTINGS, company_name: 5 }, { company_name: ['Must be text.'] }],
        [{ ...SETTINGS, company_name: 'x'.repeat(101) }, { company_name: ['Ensure this field has no more than 100 characters.'] }],
        [
          { ...SETTINGS, company_name: 'Globex\u202eInc' },
          { company_name: ['Remove the invisible or text-direction characters (such as U+200B or U+202E).'] },
        ],
        [{ ...SETTINGS, hero_title: 'Line\nbreak' }, { hero_title: ['Enter this on one line, without control characters.'] }],
        [{ ...SETTINGS, hero_title: { a: 1 } }, { hero_title: ['Must be text.'] }],
        [{ ...SETTINGS, hero_text: 'y'.repeat(501) }, { hero_text: ['Ensure this field has no more than 500 characters.'] }],
        [{ ...SETTINGS, about_html: 'z'.repeat(20_001) }, { about_html: ['Ensure this field has no more than 20000 characters.'] }],
        [
          { ...SETTINGS, about_html: `${'<ul><li>'.repeat(30)}deep${'</li></ul>'.repeat(30)}` },
          { about_html: [BRANDING_MESSAGES.aboutTooDeep] },
        ],
        [{ ...SETTINGS, empty_message: ['list'] }, { empty_message: ['Must be text.'] }],
        [{ ...SETTINGS, footer_links: 'https://x.example' }, { footer_links: [BRANDING_MESSAGES.linksNotList] }],
        [
          { ...SETTINGS, footer_links: Array.from({ length: 7 }, (_, i) => ({ label: `L${i}`, url: 'https://x.example/' })) },
          { footer_links: [BRANDING_MESSAGES.links] },
        ],
        [{ ...SETTINGS, footer_links: ['x'] }, { 'footer_links.0': [BRANDING_MESSAGES.linkNotObject] }],
        [
          { ...SETTINGS, footer_links: [{ label: 'Evil', url: 'javascript:alert(1)' }] },
          { 'footer_links.0.url': [BRANDING_MESSAGES.linkUrl] },
        ],
        [
          { ...SETTINGS, footer_links: [{ label: 'Plain', url: 'http://example.com/' }] },
          { 'footer_links.0.url': [BRANDING_MESSAGES.linkUrl] },
        ],
        [
          { ...SETTINGS, footer_links: [{ label: 'Creds', url: 'https://user:pw@example.com/' }] },
          { 'footer_links.0.url': [BRANDING_MESSAGES.linkUrl] },
        ],
        [
          { ...SETTINGS, footer_links: [{ label: '', url: 'https://example.com/' }] },
          { 'footer_links.0.label': ['This field is required.'] },
        ],
        [
          { ...SETTINGS, footer_links: [{ label: 'l'.repeat(61), url: `https://example.com/${'p'.repeat(600)}` }] },
          {
            'footer_links.0.label': ['Ensure this field has no more than 60 characters.'],
            'footer_links.0.url': [BRANDING_MESSAGES.linkUrl],
          },
        ],
      ];
      for (const [body, errors] of cases) {
        const r = await call('PUT', '/api/hr/settings/site/', body);
        expect(r.status, JSON.stringify(body).slice(0, 80)).to.equal(400);
        for (const [key, messages] of Object.entries(errors))
          expect(r.body[key], `${JSON.stringify(body).slice(0, 80)} ${key}`).to.deep.equal(messages);
      }
      expect(await stored()).to.deep.equal(before);
      // Markup in plain texts is text: escaped on the page.
      const r = await call('PUT', '/api/hr/settings/site/', {
        ...SETTINGS,
        hero_title: '<script>alert(1)</script>',
        company_name: '"><img src=x>',
      });
      expect(r.status).to.equal(200);
      const html = (await page('/careers')).html;
      expect(html).to.contain('<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>');
      expect(html).not.to.contain('<img src=x>');
      expect((await call('PUT', '/api/hr/settings/site/', SETTINGS)).status).to.equal(200);
    });

    it('takes a PNG logo: resized, re-encoded, served content-hashed for a year, shown in the header and as the JSON-LD logo', async () => {
      const png = await sharp({ create: { width: 1600, height: 400, channels: 4, background: '#0f766e' } })
        .png()
        .toBuffer();
      const v0 = await version();
      const { status, body } = await upload(png);
      expect(status).to.equal(201);
      expect(await version()).to.equal(v0 + 1);
      expect(body.logo).to.include({ type: 'image/png', width: 800, height: 200 });
      expect(body.logo.url).to.match(/^\/brand\/logo-[0-9a-f]{24}\.png$/);
      expect(body.logo.png_url).to.match(/^\/brand\/logo-[0-9a-f]{24}-raster\.png$/);
      const served = await fetch(s.baseUrl + body.logo.url);
      expect(served.status).to.equal(200);
      expect(served.headers.get('content-type')).to.equal('image/png');
      expect(served.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
      // Webmail shows the email's logo from another origin.
      expect(served.headers.get('cross-origin-resource-policy')).to.equal('cross-origin');
      const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
      expect([meta.format, meta.width, meta.height]).to.deep.equal(['png', 800, 200]);
      const careers = (await page('/careers')).html;
      expect(careers).to.contain(`<img class="brand-logo" src="${body.logo.url}" alt="Globex Industries" width="800" height="200">`);
      const [job] = await s.ctx.db('jobs').where({ title: 'Widget Engineer' });
      expect((await page(`/careers/${job.public_id}`)).html).to.contain(`"logo":"${s.ctx.config.publicBaseUrl}${body.logo.png_url}"`);
      // A name that is not the logo's now is not found.
      expect((await fetch(`${s.baseUrl}/brand/logo-${'0'.repeat(24)}.png`)).status).to.equal(404);
      expect((await fetch(s.baseUrl + body.logo.url.replace('.png', '.svg'))).status).to.equal(404);
    });

    it('takes a WebP logo as WebP', async () => {
      const webp = await sharp({ create: { width: 300, height: 100, channels: 3, background: '#134e4a' } })
        .webp()
        .toBuffer();
      const { status, body } = await upload(webp, 'logo.webp');
      expect(status).to.equal(201);
      expect(body.logo).to.include({ type: 'image/webp', width: 300, height: 100 });
      const served = await fetch(s.baseUrl + body.logo.url);
      expect(served.headers.get('content-type')).to.equal('image/webp');
    });

    it('cleans a hostile SVG (scripts, handlers, styles, external references, entities) and serves it with a strict CSP', async () => {
      const { status, body } = await upload(Buffer.from(HOSTILE_SVG), 'logo.svg');
      expect(status).to.equal(201);
      expect(body.logo.type).to.equal('image/svg+xml');
      expect(body.logo.url).to.match(/\.svg$/);
      const served = await fetch(s.baseUrl + body.logo.url);
      expect(served.headers.get('content-type')).to.equal('image/svg+xml');
      expect(served.headers.get('content-security-policy')).to.equal("default-src 'none'; style-src 'unsafe-inline'; sandbox");
      expect(served.headers.get('x-content-type-options')).to.equal('nosniff');
      const svg = await served.text();
      for (const bad of [
        '<script',
        'onload',
        'onclick',
        '<style',
        'evil.example',
        'javascript:',
        '<image',
        '<use',
        'foreignObject',
        'iframe',
        'ENTITY',
        'lollol',
      ])
        expect(svg, bad).not.to.contain(bad);
      expect(svg).to.contain('<linearGradient id="g">');
      expect(svg).to.contain('fill="url(#g)"');
      expect(svg).to.contain('viewBox="0 0 240 60"');
      expect(svg).to.contain('Globex');
      const png = await fetch(s.baseUrl + body.logo.png_url);
      expect(png.headers.get('content-type')).to.equal('image/png');
      expect((await sharp(Buffer.from(await png.arrayBuffer())).metadata()).format).to.equal('png');
    });

    it('refuses what is no PNG, WebP or SVG, polyglots, a 20 MB upload and an SVG bomb, keeping the logo it had', async () => {
      const before = await stored();
      const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
        .gif()
        .toBuffer();
      const jpeg = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
        .jpeg()
        .toBuffer();
      const typeRefused = { logo: [BRANDING_MESSAGES.logoType] };
      expect(await upload(gif, 'logo.png')).to.deep.equal({ status: 400, body: typeRefused });
      expect(await upload(jpeg, 'logo.png')).to.deep.equal({ status: 400, body: typeRefused });
      expect(await upload(Buffer.from('%PDF-1.4\n<svg xmlns="http://www.w3.org/2000/svg"/>'), 'logo.svg')).to.deep.equal({
        status: 400,
        body: typeRefused,
      });
      expect(await upload(Buffer.from('<html><body><script>alert(1)</script></body></html>'), 'logo.svg')).to.deep.equal({
        status: 400,
        body: typeRefused,
      });
      expect(await upload(Buffer.from('MZ\x90\x00 not an image'), 'logo.png')).to.deep.equal({ status: 400, body: typeRefused });
      // A PNG with HTML after its image data (a polyglot): re-encoded, nothing of the HTML is served.
      const png = await sharp({ create: { width: 50, height: 20, channels: 3, background: '#0f766e' } })
        .png()
        .toBuffer();
      const polyglot = Buffer.concat([png, Buffer.from('<html><script>alert(1)</script></html>')]);
      const kept = await upload(polyglot, 'logo.html');
      expect(kept.status).to.equal(201);
      const bytes = Buffer.from(await (await fetch(s.baseUrl + kept.body.logo.url)).arrayBuffer());
      expect(bytes.toString('latin1')).not.to.contain('<script');
      // A PNG whose header says it is huge: refused before it is decoded.
      const bombPng = await sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: '#fff' } })
        .png({ compressionLevel: 9 })
        .toBuffer();
      expect(bombPng.length).to.be.below(2 * 1024 * 1024);
      expect(await upload(bombPng)).to.deep.equal({ status: 400, body: { logo: [BRANDING_MESSAGES.logoTooLarge] } });
      // An SVG bomb: an enormous canvas, and a "billion laughs" that is never expanded.
      const bombSvg = '<svg xmlns="http://www.w3.org/2000/svg" width="200000" height="200000"><rect width="200000" height="200000"/></svg>';
      expect(await upload(Buffer.from(bombSvg), 'logo.svg')).to.deep.equal({
        status: 400,
        body: { logo: [BRANDING_MESSAGES.logoTooLarge] },
      });
      const laughs = `<!DOCTYPE svg [${Array.from({ length: 10 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join('')}<!ENTITY l0 "lol">]><svg xmlns="http://www.w3.org/2000/svg" width="100" height="20"><text>&l10;</text></svg>`;
      const started = Date.now();
      const laughed = await upload(Buffer.from(laughs), 'logo.svg');
      expect(Date.now() - started).to.be.below(10_000);
      expect(laughed.status).to.equal(201);
      expect(await (await fetch(s.baseUrl + laughed.body.logo.url)).text()).not.to.contain('lol');
      // 20 MB: refused while it arrives.
      const huge = await upload(Buffer.concat([png.subarray(0, 8), Buffer.alloc(20 * 1024 * 1024)]), 'logo.png');
      expect(huge).to.deep.equal({ status: 400, body: { logo: [BRANDING_MESSAGES.logoTooLarge] } });
      expect((await stored()).logo_hash).to.equal(laughed.body.logo.url.slice(12, 36));
      expect(before.logo_hash).not.to.equal(null);
    });

    it('answers a request that is no upload of one logo with what is wrong', async () => {
      const wrong = await call('POST', '/api/hr/settings/site/logo/', { logo: 'x' });
      expect(wrong.status).to.equal(415);
      expect(wrong.body).to.deep.equal({ detail: 'Send the logo as multipart/form-data with the file in the field "logo".' });
      const form = new FormData();
      form.append('name', 'no file');
      const none = await fetch(`${s.baseUrl}/api/hr/settings/site/logo/`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token.admin}` },
        body: form,
      });
      expect(none.status).to.equal(400);
      expect(await none.json()).to.deep.equal({ logo: [BRANDING_MESSAGES.logoMissing] });
      const other = await upload(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'logo.svg', 'picture');
      expect(other.status).to.equal(400);
    });

    it('removes the logo (204): the header shows the name, the old URL is gone', async () => {
      const { body } = await call('GET', '/api/hr/settings/site/');
      const v0 = await version();
      const res = await call('DELETE', '/api/hr/settings/site/logo/');
      expect(res.status).to.equal(204);
      expect(await version()).to.equal(v0 + 1);
      expect((await call('GET', '/api/hr/settings/site/')).body.logo).to.equal(null);
      expect((await fetch(s.baseUrl + body.logo.url)).status).to.equal(404);
      const careers = (await page('/careers')).html;
      expect(careers).not.to.contain('brand-logo');
      expect(careers).to.contain('<span>Globex Industries Careers</span>');
      const row = await stored();
      expect([row.logo, row.logo_png, row.logo_hash]).to.deep.equal([null, null, null]);
    });

    it('goes back to the defaults when the settings are blanked', async () => {
      const r = await call('PUT', '/api/hr/settings/site/', {});
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.include(blank);
      const careers = (await page('/careers')).html;
      expect(careers).to.contain('<h1>Join Acme Corporation</h1>');
      expect(careers).not.to.contain('/brand/theme-');
      expect(careers).not.to.contain('About Acme');
    });
  });
}

for (const kind of databaseKinds()) {
  describe(`site settings with kept public pages (PUBLIC_CACHE_SECONDS=300) [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    let token = '';

    before(async () => {
      s = await startTestServer(kind, { PUBLIC_CACHE_SECONDS: '300' });
      token = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'brand.cache.admin'));
    });
    after(() => s.close());

    const put = (body: unknown) =>
      fetch(`${s.baseUrl}/api/hr/settings/site/`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });

    it('shows a save on the next request of pages this process kept, a public form included', async () => {
      const job = await makeJob(s.ctx, { title: 'Cache Engineer', status: 'ACTIVE' });
      const created = await fetch(`${s.baseUrl}/api/hr/forms/`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(everyFieldForm()),
      });
      expect(created.status).to.equal(201);
      const form = await created.json();
      const paths = ['/careers', `/careers/${job.public_id}`, '/feeds/jobs.rss', `/form/${form.public_id}`];
      for (const p of paths) {
        const first = await (await fetch(s.baseUrl + p)).text();
        expect(first, p).to.contain('Acme Corporation');
        expect(await (await fetch(s.baseUrl + p)).text(), p).to.equal(first);
      }
      expect((await put({ company_name: 'Initech', accent_color: '#9a3412' })).status).to.equal(200);
      for (const p of paths) {
        const now = await (await fetch(s.baseUrl + p)).text();
        expect(now, p).to.contain('Initech').and.not.contain('Acme Corporation');
        if (!p.startsWith('/feeds')) expect(now, p).to.contain('<link rel="stylesheet" href="/brand/theme-9a3412.css">');
      }
    });
  });
}
