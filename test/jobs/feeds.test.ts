/**
 * The job feeds (issue 21) over HTTP: RSS 2.0 and Indeed's XML parse and carry their required
 * elements, the JSON Feed is version 1 with an item per open job; only open jobs are listed, each
 * link names its feed as source; the list's filters apply (an unknown choice is a 400); a job
 * write shows at once; ETag and 304; hostile texts stay text.
 */
import http from 'node:http';
import { DOMParser, type Element } from '@xmldom/xmldom';
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** The document element of well-formed XML (a warning or error of the parser fails the test). */
function parseXml(text: string): Element {
  const doc = new DOMParser({
    onError: (level, message) => {
      throw new Error(`XML ${level}: ${message}`);
    },
  }).parseFromString(text, 'text/xml');
  return doc.documentElement!;
}
/** The direct children of `parent` named `name`. */
const children = (parent: Element, name: string): Element[] =>
  Array.from(parent.childNodes).filter((n): n is Element => n.nodeType === 1 && (n as Element).tagName === name);
const child = (parent: Element, name: string): Element | undefined => children(parent, name)[0];
/** The text (CDATA included) of the child `name`. */
const text = (parent: Element, name: string): string => child(parent, name)?.textContent ?? '';

/** A GET through node:http (fetch would add Cache-Control: no-cache to a conditional request). */
function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      })
      .on('error', reject);
  });
}

for (const kind of databaseKinds()) {
  describe(`job feeds [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    before(async () => {
      s = await startTestServer(kind, {
        PUBLIC_CACHE_SECONDS: '60',
        PUBLIC_BASE_URL: 'https://jobs.example.com',
        COMPANY_NAME: 'Acme & Sons',
      });
      await makeJob(s.ctx.db, {
        title: 'Payroll Specialist',
        location: 'Austin, TX, United States',
        job_type: 'FULL_TIME',
        work_mode: 'ONSITE',
        public_id: 'payroll',
        min_salary: 60000,
        max_salary: 80000,
        currency: 'USD',
      });
      await makeJob(s.ctx.db, {
        title: 'Remote <b>Engineer</b> ]]> & "quotes"',
        location: 'Remote — Europe',
        job_type: 'CONTRACT',
        work_mode: 'REMOTE',
        public_id: 'remote-eng',
      });
      await makeJob(s.ctx.db, { title: 'Closed Role', status: 'INACTIVE', public_id: 'closed-role' });
      await makeJob(s.ctx.db, { title: 'Removed Role', status: 'REMOVED', public_id: 'removed-role' });
    });
    after(() => s.close());

    it('GET /feeds/jobs.rss is RSS 2.0 with one item per open job, links naming the feed', async () => {
      const res = await fetch(`${s.baseUrl}/feeds/jobs.rss`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('application/rss+xml; charset=utf-8');
      expect(res.headers.get('etag')).to.match(/^W\/"/);
      const rss = parseXml(await res.text());
      expect(rss.tagName).to.equal('rss');
      expect(rss.getAttribute('version')).to.equal('2.0');
      const channel = child(rss, 'channel')!;
      expect(text(channel, 'title')).to.equal('Jobs at Acme & Sons');
      expect(text(channel, 'link')).to.equal('https://jobs.example.com/careers');
      expect(text(channel, 'description')).to.not.equal('');
      const items = children(channel, 'item');
      expect(items.map((i) => text(i, 'title')).sort()).to.deep.equal(['Payroll Specialist', 'Remote <b>Engineer</b> ]]> & "quotes"']);
      for (const item of items) {
        expect(text(item, 'link')).to.match(
          /^https:\/\/jobs\.example\.com\/careers\/(payroll|remote-eng)\?utm_source=rss&utm_medium=feed$/,
        );
        expect(text(item, 'guid')).to.match(/^https:\/\/jobs\.example\.com\/careers\//);
        expect(new Date(text(item, 'pubDate')).getTime()).to.be.greaterThan(0);
        expect(text(item, 'description')).to.not.equal('');
      }
    });

    it('GET /feeds/jobs.json is a JSON Feed of the open jobs', async () => {
      const res = await fetch(`${s.baseUrl}/feeds/jobs.json`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('application/feed+json; charset=utf-8');
      const feed = (await res.json()) as {
        version: string;
        title: string;
        home_page_url: string;
        feed_url: string;
        items: { id: string; url: string; title: string; content_html: string; date_published: string }[];
      };
      expect(feed.version).to.equal('https://jsonfeed.org/version/1');
      expect(feed.title).to.equal('Jobs at Acme & Sons');
      expect(feed.feed_url).to.equal('https://jobs.example.com/feeds/jobs.json');
      expect(feed.items).to.have.length(2);
      const payroll = feed.items.find((i) => i.title === 'Payroll Specialist')!;
      expect(payroll.url).to.equal('https://jobs.example.com/careers/payroll?utm_source=json-feed&utm_medium=feed');
      expect(payroll.id).to.equal('https://jobs.example.com/careers/payroll');
      expect(payroll.content_html).to.include('<strong>Job Description</strong>');
    });

    it("GET /feeds/indeed.xml has Indeed's required fields for each open job, in CDATA", async () => {
      const res = await fetch(`${s.baseUrl}/feeds/indeed.xml`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('application/xml; charset=utf-8');
      const body = await res.text();
      expect(body).to.match(/^<\?xml version="1.0" encoding="utf-8"\?>/);
      expect(body).to.include('<title><![CDATA[Payroll Specialist]]></title>');
      const source = parseXml(body);
      expect(source.tagName).to.equal('source');
      const jobs = children(source, 'job');
      expect(jobs).to.have.length(2);
      for (const job of jobs) {
        for (const field of ['title', 'date', 'referencenumber', 'requisitionid', 'url', 'company', 'description', 'jobtype']) {
          expect(text(job, field), field).to.not.equal('');
          // Every value in CDATA, as Indeed asks.
          expect(child(job, field)!.firstChild!.nodeType, field).to.equal(4);
        }
      }
      const payroll = jobs.find((j) => text(j, 'referencenumber') === 'payroll')!;
      expect(text(payroll, 'city')).to.equal('Austin');
      expect(text(payroll, 'state')).to.equal('TX');
      expect(text(payroll, 'country')).to.equal('US');
      expect(text(payroll, 'jobtype')).to.equal('fulltime');
      expect(text(payroll, 'salary')).to.include('60');
      expect(text(payroll, 'url')).to.equal('https://jobs.example.com/careers/payroll?utm_source=indeed&utm_medium=feed');
      expect(child(payroll, 'remotetype')).to.equal(undefined);
      const remote = jobs.find((j) => text(j, 'referencenumber') === 'remote-eng')!;
      expect(text(remote, 'remotetype')).to.equal('Fully remote');
      // 'Remote — Europe' is no city and names no country or region: the fields are there, empty.
      expect(child(remote, 'city')).to.equal(undefined);
      expect([text(remote, 'state'), text(remote, 'country')]).to.deep.equal(['', '']);
      expect(text(remote, 'jobtype')).to.equal('contract');
      // A title holding the CDATA end marker still parses, its text kept as it is.
      expect(text(remote, 'title')).to.equal('Remote <b>Engineer</b> ]]> & "quotes"');
    });

    it('Indeed: a location without a region has an empty <state>; a remote job takes its country from its location or its applicant countries', async () => {
      const extra = [
        await makeJob(s.ctx.db, { title: 'Pune Analyst', location: 'Pune, India', public_id: 'pune-an', status: 'ACTIVE' }),
        await makeJob(s.ctx.db, {
          title: 'US Remote',
          location: 'Remote — United States',
          work_mode: 'REMOTE',
          public_id: 'us-remote',
          status: 'ACTIVE',
        }),
        await makeJob(s.ctx.db, {
          title: 'Anywhere Dev',
          location: 'Anywhere',
          work_mode: 'REMOTE',
          applicant_countries: ['CA', 'MX'],
          public_id: 'any-dev',
          status: 'ACTIVE',
        }),
      ];
      s.ctx.cache.clear('public-jobs'); // the feed is kept for PUBLIC_CACHE_SECONDS here
      const jobs = children(parseXml(await (await fetch(`${s.baseUrl}/feeds/indeed.xml`)).text()), 'job');
      await s.ctx
        .db('jobs')
        .whereIn(
          'id',
          extra.map((j) => j.id),
        )
        .del();
      s.ctx.cache.clear('public-jobs');
      const of = (id: string) => jobs.find((j) => text(j, 'referencenumber') === id)!;
      expect([text(of('pune-an'), 'city'), text(of('pune-an'), 'state'), text(of('pune-an'), 'country')]).to.deep.equal(['Pune', '', 'IN']);
      expect([child(of('us-remote'), 'city'), text(of('us-remote'), 'country')]).to.deep.equal([undefined, 'US']);
      expect([child(of('any-dev'), 'city'), text(of('any-dev'), 'state'), text(of('any-dev'), 'country')]).to.deep.equal([
        undefined,
        '',
        'CA',
      ]);
    });

    it("takes the list's filters; an unknown choice is a 400; unknown parameters are ignored", async () => {
      const remote = await fetch(`${s.baseUrl}/feeds/jobs.json?work_mode=REMOTE`);
      expect(((await remote.json()) as { items: unknown[] }).items).to.have.length(1);
      const byTitle = await fetch(`${s.baseUrl}/feeds/jobs.rss?title=payroll&utm_source=x`);
      expect(children(child(parseXml(await byTitle.text()), 'channel')!, 'item')).to.have.length(1);
      expect((await fetch(`${s.baseUrl}/feeds/indeed.xml?job_type=NOPE`)).status).to.equal(400);
      expect((await fetch(`${s.baseUrl}/feeds/jobs.rss?title=${'x'.repeat(5000)}`)).status).to.equal(200);
      expect((await fetch(`${s.baseUrl}/feeds/jobs.rss?location=%27%20OR%201%3D1--`)).status).to.equal(200);
    });

    it('the job list names the RSS and JSON feeds for feed readers', async () => {
      const html = await (await fetch(`${s.baseUrl}/careers`)).text();
      expect(html).to.include(
        '<link rel="alternate" type="application/rss+xml" title="Jobs at Acme &amp; Sons (RSS)" href="/feeds/jobs.rss">',
      );
      expect(html).to.include(
        '<link rel="alternate" type="application/feed+json" title="Jobs at Acme &amp; Sons (JSON Feed)" href="/feeds/jobs.json">',
      );
    });

    it('answers If-None-Match with 304, and shows a job write at once', async () => {
      const first = await fetch(`${s.baseUrl}/feeds/jobs.rss`);
      const etag = first.headers.get('etag')!;
      expect((await get(`${s.baseUrl}/feeds/jobs.rss`, { 'If-None-Match': etag })).status).to.equal(304);
      await makeJob(s.ctx, { title: 'Newest Role', public_id: 'newest-role' });
      const after = await get(`${s.baseUrl}/feeds/jobs.rss`, { 'If-None-Match': etag });
      expect(after.status).to.equal(200);
      expect(children(child(parseXml(after.body), 'channel')!, 'item').map((i) => text(i, 'title'))).to.include('Newest Role');
    });
  });
}

/**
 * Issue 28 item 4: texts written to break out of CDATA (two `]]>` in a title or a description), and
 * characters XML 1.0 does not allow stored before the save rule refused them, still give
 * well-formed XML 1.0, every text kept as text (nothing becomes markup) and the bad characters left out.
 */
for (const kind of databaseKinds()) {
  describe(`job feeds with hostile stored texts [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    const injected = 'Hi ]]> there ]]><link>https://evil.example/</link><![CDATA[ end';
    before(async () => {
      s = await startTestServer(kind, { PUBLIC_BASE_URL: 'https://jobs.example.com' });
      const job = await makeJob(s.ctx.db, {
        title: 'placeholder',
        public_id: 'hostile',
        description: '<p>one ]]> two ]]> three &lt;x&gt;</p>',
        department: 'Ops',
        location: 'Berlin, Germany',
      });
      // Written as texts saved before the one-line rule was: the feed must clean them at write time.
      await s.ctx.db('jobs').where({ id: job.id }).update({
        title: injected,
        department: 'Dept \uFFFE\uFFFF\uFDD0 ]]> <x> \u0001 &',
        location: 'Berlin ]]> \uFFFF\u0008, Germany',
        experience_required: 'A ]]> B ]]> C \u{1FFFE}',
      });
    });
    after(() => s.close());

    it('RSS stays well-formed: the title with two ]]> is one text with no extra <link>, the bad characters dropped', async () => {
      const body = await (await fetch(`${s.baseUrl}/feeds/jobs.rss`)).text();
      const item = children(child(parseXml(body), 'channel')!, 'item')[0];
      expect(text(item, 'title')).to.equal(injected);
      expect(children(item, 'link')).to.have.length(1);
      expect(text(item, 'link')).to.equal('https://jobs.example.com/careers/hostile?utm_source=rss&utm_medium=feed');
      expect(text(item, 'description')).to.include('one ]]> two ]]> three <x>');
      expect(text(item, 'description')).to.include('Dept  ]]> <x>  &');
      expect(children(item, 'category').map((c) => c.textContent)).to.include('Dept  ]]> <x>  &');
      expect(body).to.not.match(/[\uFFFE\uFFFF\uFDD0\u0001\u0008]/);
    });

    it('Indeed XML stays well-formed with every value in CDATA and the texts kept', async () => {
      const body = await (await fetch(`${s.baseUrl}/feeds/indeed.xml`)).text();
      const job = children(parseXml(body), 'job')[0];
      expect(text(job, 'title')).to.equal(injected);
      expect(children(job, 'link')).to.have.length(0);
      expect(text(job, 'category')).to.equal('Dept  ]]> <x>  &');
      expect(text(job, 'experience')).to.equal('A ]]> B ]]> C ');
      expect(text(job, 'city')).to.equal('Berlin ]]> ');
      for (const node of Array.from(child(job, 'title')!.childNodes)) expect(node.nodeType).to.equal(4);
      expect(body).to.not.match(/[\uFFFE\uFFFF\uFDD0\u0001\u0008]|\u{1FFFE}/u);
    });

    it('the JSON Feed carries the same texts without the bad characters', async () => {
      const feed = (await (await fetch(`${s.baseUrl}/feeds/jobs.json`)).json()) as { items: { title: string; tags: string[] }[] };
      expect(feed.items[0].title).to.equal(injected);
      expect(feed.items[0].tags).to.include('Dept  ]]> <x>  &');
    });
  });
}
