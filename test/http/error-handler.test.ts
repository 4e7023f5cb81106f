/**
 * The error handler on its own: errors from middleware that carry a 4xx status are the client's
 * fault: answered with that status and a generic message, never their own text, never logged.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import express from 'express';
import { pino } from 'pino';
import { errorHandler, lastResortHandler, loggable, notFoundHandler } from '../../src/http/error-handler.js';
import { loadManifest } from '../../src/render/assets.js';
import { safeJson } from '../../src/render/islands.js';

function failing(props: Record<string, unknown>, message = 'ENOENT: open /srv/app/secret/config.json'): Error {
  return Object.assign(new Error(message), props);
}

describe('error handler: client errors from middleware', () => {
  let server: Server;
  let base: string;
  const logged: Record<string, unknown>[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void logged.push(JSON.parse(line)) });

  before(async () => {
    const root = path.resolve('.');
    const app = express();
    app.set('view engine', 'ejs');
    app.set('views', path.join(root, 'views'));
    Object.assign(app.locals, {
      assets: loadManifest(root),
      company: { name: 'Acme', aboutUrl: 'https://a.example', networkUrl: 'https://n.example', careersEmail: 'c@a.example' },
      // What the site settings give every page (issue 35; app.ts sets their defaults).
      brand: {
        companyName: 'Acme',
        heroTitle: 'Join Acme',
        heroText: '',
        aboutHtml: '',
        emptyMessage: '',
        accentColor: null,
        themeUrl: null,
        footerLinks: [],
        logo: null,
      },
      publicBaseUrl: 'https://jobs.example.com',
      year: 2026,
      safeJson,
    });
    const boom =
      (props: Record<string, unknown>): express.RequestHandler =>
      (_req, _res, next) =>
        next(failing(props));
    for (const prefix of ['/api/x', '/page']) {
      app.get(`${prefix}/status-403`, boom({ status: 403 }));
      app.get(`${prefix}/statuscode-409`, boom({ statusCode: 409 }));
      app.get(`${prefix}/exposed-400`, boom({ status: 400, expose: true }));
      app.get(`${prefix}/status-404`, boom({ status: 404 }));
      app.get(`${prefix}/uri`, (_req, _res, next) =>
        next(Object.assign(new URIError("Failed to decode param '%'"), { status: 400, statusCode: 400 })),
      );
      app.get(`${prefix}/status-500`, boom({ status: 500 }));
      app.get(`${prefix}/plain`, boom({}));
    }
    app.use(notFoundHandler);
    app.use(errorHandler(log));
    app.use(lastResortHandler(log));
    server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    logged.length = 0;
  });

  it('answers JSON with the 4xx status and a generic detail, logging nothing', async () => {
    const cases: [string, number, unknown][] = [
      ['status-403', 403, { detail: 'Forbidden.' }],
      ['statuscode-409', 409, { detail: 'Conflict.' }],
      ['exposed-400', 400, { detail: 'Bad Request.' }],
      ['status-404', 404, { detail: 'Not found.' }],
      ['uri', 404, { detail: 'Not found.' }],
    ];
    for (const [name, status, body] of cases) {
      const res = await fetch(`${base}/api/x/${name}`);
      expect(res.status, name).to.equal(status);
      expect(await res.json(), name).to.deep.equal(body);
    }
    expect(logged).to.deep.equal([]);
  });

  it('answers pages with the 4xx status and no internal text, logging nothing', async () => {
    for (const [name, status] of [
      ['statuscode-409', 409],
      ['exposed-400', 400],
    ] as const) {
      const res = await fetch(`${base}/page/${name}`);
      const html = await res.text();
      expect(res.status, name).to.equal(status);
      expect(html, name).to.include('Request could not be completed').and.not.include('ENOENT').and.not.include('/srv/app');
    }
    // A 403 is the access-denied page (the one a recruiter gets on an admin page), with no internal text either.
    const denied = await fetch(`${base}/page/status-403`);
    expect(denied.status).to.equal(403);
    expect(await denied.text())
      .to.include('403 — Access Denied')
      .and.not.include('ENOENT')
      .and.not.include('/srv/app');
    for (const name of ['status-404', 'uri']) {
      const res = await fetch(`${base}/page/${name}`);
      expect(res.status, name).to.equal(404);
      expect(await res.text(), name)
        .to.include('404 — Page Not Found')
        .and.not.include('decode');
    }
    expect(logged).to.deep.equal([]);
  });

  it('still logs and hides server errors (5xx or no status)', async () => {
    for (const name of ['status-500', 'plain']) {
      const api = await fetch(`${base}/api/x/${name}`);
      expect(api.status, name).to.equal(500);
      expect(await api.json()).to.deep.equal({ detail: 'A server error occurred.' });
      const page = await fetch(`${base}/page/${name}`);
      expect(page.status, name).to.equal(500);
      expect(await page.text())
        .to.include('Unexpected Application Error!')
        .and.not.include('ENOENT');
    }
    expect(logged).to.have.length(4);
    // The route and method, never the URL with its query (an HR search holds names and emails).
    for (const line of logged) expect(line).to.include.keys('err', 'method', 'route').and.not.have.keys('url');
  });
});

describe('error handler: what is logged', () => {
  it('cuts long texts (a driver message holding a whole statement) and keeps the stack frames', () => {
    const sql = `insert into job_questions (job_id) values (${'7, '.repeat(25_000)}7)`;
    const err = Object.assign(new Error(`${sql} - ER_DATA_TOO_LONG`), { code: 'ER_DATA_TOO_LONG', errno: 1406, sql });
    const out = loggable(err) as Error & Record<string, unknown>;
    expect(out.message.length).to.be.below(2100);
    expect(out.message).to.match(/^insert into job_questions[\s\S]*more characters\]$/);
    expect(String(out.sql).length).to.be.below(2100);
    expect(out.code).to.equal('ER_DATA_TOO_LONG');
    expect(out.errno).to.equal(1406);
    expect(out.stack)
      .to.match(/^Error: insert into/)
      .and.match(/\n\s+at /);
    expect(out.stack!.length).to.be.below(2000 + 5000);
    const short = loggable(new TypeError('boom')) as Error;
    expect(short.message).to.equal('boom');
    expect(short.name).to.equal('TypeError');
    expect(loggable('y'.repeat(5000))).to.have.length.below(2100);
  });

  it("keeps no quoted value of a driver text: the statement's bound values and MySQL's own quotes", () => {
    const sql = "insert into `applications` (`email`, `first_name`, `job_id`) values ('asha.rao@example.com', 'O''Brien', 7)";
    const err = Object.assign(new Error(`${sql} - Duplicate entry 'asha.rao@example.com-7' for key 'applications_job_email_unique'`), {
      code: 'ER_DUP_ENTRY',
      errno: 1062,
      sql,
      sqlMessage: "Duplicate entry 'asha.rao@example.com-7' for key 'applications_job_email_unique'",
    });
    const out = loggable(err) as Error & Record<string, unknown>;
    for (const text of [out.message, out.sql, out.sqlMessage, out.stack]) expect(String(text)).to.not.match(/asha|Brien/);
    expect(out.message).to.equal(
      "insert into `applications` (`email`, `first_name`, `job_id`) values ('?', '?', 7) - Duplicate entry '?' for key '?'",
    );
    expect(out.code).to.equal('ER_DUP_ENTRY');
  });
});
