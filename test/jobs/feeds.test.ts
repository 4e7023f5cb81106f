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
  const doc = new DOMParser({ onError: (level, message) => { throw new Error(`XML ${level}: ${message}`); } }).parseFromString(text, 'text/xml');
  return doc.documentElement!;
}
/** The direct children of `parent` named `name`. */
const children = (parent: Element, name: string): Element[] => Array.from(parent.childNodes).filter((n): n is Element => n.nodeType === 1 && (n as Element).tagName === name);
const child = (parent: Element, name: string): Element | undefined => children(parent, name)[0];
/** The text (CDATA included) of the child `name`. */
const text = (parent: Element, name: string): string => child(parent, name)?.textContent ?? '';

/** A GET through node:http (fetch would add Cache-Control: no-cache to a conditional request). */
function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http.get(url, { headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    }).on('error', reject);
  });
}

for (const kind of databaseKinds()) {
  describe(`job feeds [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    before(async () => {
      s = await startTestServer(kind, { PUBLIC_CACHE_SECONDS: '60', PUBLIC_BASE_URL: 'https://jobs.example.com', COMPANY_NAME: 'Acme & Sons' });
      await makeJob(s.ctx.db, { title: 'Payroll Specialist', location: 'Austin, TX, United States', job_type: 'FULL_TIME', work_mode: 'ONSITE', public_id: 'payroll', min_salary: 60000, max_salary: 80000, currency: 'USD' });
      await makeJob(s.ctx.db, { title: 'Remote <b>Engineer</b> ]]> & "quotes"', location: 'Remote — Europe', job_type: 'CONTRACT', work_mode: 'REMOTE', public_id: 'remote-eng' });
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
        expect(text(item, 'link')).to.match(/^https:\/\/jobs\.example\.com\/careers\/(payroll|remote-eng)\?utm_source=rss&utm_medium=feed$/);
        expect(text(item, 'guid')).to.match(/^https:\/\/jobs\.example\.com\/careers\//);
        expect(new Date(text(item, 'pubDate')).getTime()).to.be.greaterThan(0);
        expect(text(item, 'description')).to.not.equal('');
      }
    });

    it('GET /feeds/jobs.json is a JSON Feed of the open jobs', async () => {
      const res = await fetch(`${s.baseUrl}/feeds/jobs.json`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('application/feed+json; charset=utf-8');
      const feed = (await res.json()) as { version: string; title: string; home_page_url: string; feed_url: string; items: { id: string; url: string; title: string; content_html: string; date_published: string }[] };
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
      expect(text(remote, 'jobtype')).to.equal('contract');
      // A title holding the CDATA end marker still parses, its text kept.
      expect(text(remote, 'title')).to.equal('Remote <b>Engineer</b> ]] > & "quotes"');
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
      expect(html).to.include('<link rel="alternate" type="application/rss+xml" title="Jobs at Acme &amp; Sons (RSS)" href="/feeds/jobs.rss">');
      expect(html).to.include('<link rel="alternate" type="application/feed+json" title="Jobs at Acme &amp; Sons (JSON Feed)" href="/feeds/jobs.json">');
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
