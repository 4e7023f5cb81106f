/**
 * The apply funnel over HTTP (issue 21), on SQLite and MySQL: the wizard's beacons, the pages and
 * the apply API counted per job, step, event, UTC day and device class after a flush; DNT and
 * Sec-GPC ignored; bad beacons refused without a count; a flood limited; two app instances on one
 * database adding up exactly; and the HR read with its drops.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { expect } from 'chai';
import { databaseKinds, type DbKind } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { makeJob } from '../helpers/factories.js';
import { hrSession } from '../helpers/hr.js';
import { toFormData, validFields } from '../fixtures/apply.js';
import { createApp } from '../../src/app.js';
import { createAppContext } from '../../src/wiring.js';
import type { AppContext } from '../../src/context.js';
import { listenHttp } from '../../src/http/listen.js';
import { addFunnelCounts } from '../../src/funnel/repo.js';
import { FUNNEL_MESSAGES } from '../../src/funnel/schema.js';
import type { JobFunnel } from '../../src/funnel/types.js';
import type { Job } from '../../src/jobs/types.js';

const NOW = new Date('2026-03-15T23:59:30.000Z');
const TODAY = '2026-03-15';
const PHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const TABLET_UA = 'Mozilla/5.0 (Linux; Android 13; SM-X200) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';
const DESKTOP_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

type Row = { step: string; event: string; device: string; day: string; count: number };

async function counts(db: AppContext['db'], jobId: number): Promise<Row[]> {
  const rows = await db('job_funnel_counts')
    .where('job_id', jobId)
    .select('step', 'event', 'device', 'day', 'count')
    .orderBy(['step', 'event', 'device', 'day']);
  return rows.map((r) => ({ step: r.step, event: r.event, device: r.device, day: r.day, count: Number(r.count) }));
}

/** A second app (its own context, pool and counter) on the database of `s`. */
async function secondInstance(s: TestServer): Promise<{ baseUrl: string; ctx: AppContext; close: () => Promise<void> }> {
  const ctx = createAppContext(s.testDb.config, { now: () => NOW });
  const server: Server = await listenHttp(createApp(ctx), { port: 0, host: '127.0.0.1' });
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    ctx,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await ctx.funnel.flush().catch(() => undefined);
      await ctx.db.destroy();
    },
  };
}

function beacon(baseUrl: string, publicId: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${baseUrl}/api/jobs/${encodeURIComponent(publicId)}/funnel/`, {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'Content-Type': 'text/plain;charset=UTF-8', 'User-Agent': DESKTOP_UA, ...headers },
  });
}

for (const kind of databaseKinds() as DbKind[]) {
  describe(`apply funnel API [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    let token: string;
    let job: Job;
    let other: Job;
    const auth = () => ({ Authorization: `Bearer ${token}` });
    const funnel = async (id: number, query = '') => {
      const res = await fetch(`${s.baseUrl}/api/hr/jobs/${id}/funnel/${query}`, { headers: auth() });
      return { status: res.status, body: (await res.json()) as JobFunnel & { detail?: string; days?: string[] } };
    };

    before(async () => {
      s = await startTestServer(kind, {}, { now: () => NOW });
      token = (await hrSession(s.ctx.db)).token;
      job = await makeJob(s.ctx, {
        title: 'Funnel Engineer',
        questions: [{ text: 'Why us?', answer_type: 'short_text', required: false }],
      });
      other = await makeJob(s.ctx, { title: 'Other Job' });
    });
    after(() => s?.close());

    it('counts beacons per step, event, device class and UTC day after a flush; answers 204 with no body', async () => {
      const sent = [
        [{ step: 'basic', event: 'reached' }, PHONE_UA],
        [{ step: 'basic', event: 'reached' }, PHONE_UA],
        [{ step: 'basic', event: 'reached' }, TABLET_UA],
        [{ step: 'basic', event: 'completed' }, PHONE_UA],
        [{ step: 'basic', event: 'reached' }, DESKTOP_UA],
        [{ step: 'education_skills', event: 'completed' }, DESKTOP_UA],
      ] as const;
      for (const [body, ua] of sent) {
        const res = await beacon(s.baseUrl, job.public_id, { events: [body] }, { 'User-Agent': ua });
        expect(res.status).to.equal(204);
        expect(await res.text()).to.equal('');
      }
      // A Blob with its type, as sendBeacon sends one: application/json; several events in one beacon each count.
      const events = [
        { step: 'review', event: 'reached' },
        { step: 'review', event: 'completed' },
      ];
      const json = await beacon(s.baseUrl, job.public_id, { events }, { 'Content-Type': 'application/json' });
      expect(json.status).to.equal(204);
      expect(await counts(s.ctx.db, job.id), 'nothing before the flush').to.deep.equal([]);
      await s.ctx.funnel.flush();
      expect(await counts(s.ctx.db, job.id)).to.deep.equal([
        { step: 'basic', event: 'completed', device: 'phone', day: TODAY, count: 1 },
        { step: 'basic', event: 'reached', device: 'desktop', day: TODAY, count: 1 },
        { step: 'basic', event: 'reached', device: 'phone', day: TODAY, count: 3 },
        { step: 'education_skills', event: 'completed', device: 'desktop', day: TODAY, count: 1 },
        { step: 'review', event: 'completed', device: 'desktop', day: TODAY, count: 1 },
        { step: 'review', event: 'reached', device: 'desktop', day: TODAY, count: 1 },
      ]);
      // A second flush adds to the rows (the upsert), it does not replace them.
      await beacon(s.baseUrl, job.public_id, { events: [{ step: 'basic', event: 'reached' }] }, { 'User-Agent': PHONE_UA });
      await s.ctx.funnel.flush();
      expect(
        (await counts(s.ctx.db, job.id)).find((r) => r.step === 'basic' && r.event === 'reached' && r.device === 'phone')!.count,
      ).to.equal(4);
    });

    it('counts job views, Apply clicks and accepted applications from the server, by device; jobs.views keeps counting every view', async () => {
      const viewsBefore = Number((await s.ctx.db('jobs').where('id', other.id).first('views')).views);
      for (const ua of [PHONE_UA, DESKTOP_UA, DESKTOP_UA])
        expect((await fetch(`${s.baseUrl}/careers/${other.public_id}`, { headers: { 'User-Agent': ua } })).status).to.equal(200);
      expect((await fetch(`${s.baseUrl}/careers/${other.public_id}/apply`, { headers: { 'User-Agent': PHONE_UA } })).status).to.equal(200);
      const applied = await fetch(`${s.baseUrl}/api/jobs/${other.public_id}/apply/`, {
        method: 'POST',
        body: toFormData(validFields()),
        headers: { 'User-Agent': PHONE_UA, 'X-Apply-Wizard': '1' },
      });
      expect(applied.status).to.equal(201);
      // An application without the wizard's header (the API, another site's form) is counted apart.
      const direct = await fetch(`${s.baseUrl}/api/jobs/${other.public_id}/apply/`, {
        method: 'POST',
        body: toFormData(validFields({ email: 'direct@example.com' })),
        headers: { 'User-Agent': DESKTOP_UA, 'X-Apply-Wizard': 'yes' },
      });
      expect(direct.status).to.equal(201);
      // A honeypot's discarded form is not an application.
      const bot = await fetch(`${s.baseUrl}/api/jobs/${other.public_id}/apply/`, {
        method: 'POST',
        body: toFormData(validFields({ website: 'spam', email: 'bot@example.com' })),
        headers: { 'User-Agent': PHONE_UA },
      });
      expect(bot.status).to.equal(201);
      // Refusing tracking: the page is served and jobs.views counts it, the funnel does not.
      expect((await fetch(`${s.baseUrl}/careers/${other.public_id}`, { headers: { 'User-Agent': PHONE_UA, DNT: '1' } })).status).to.equal(
        200,
      );
      expect(
        (await fetch(`${s.baseUrl}/careers/${other.public_id}/apply`, { headers: { 'User-Agent': PHONE_UA, 'Sec-GPC': '1' } })).status,
      ).to.equal(200);
      await Promise.all([s.ctx.funnel.flush(), s.ctx.views.flush()]);
      expect(await counts(s.ctx.db, other.id)).to.deep.equal([
        { step: 'apply', event: 'reached', device: 'phone', day: TODAY, count: 1 },
        { step: 'submitted', event: 'reached', device: 'phone', day: TODAY, count: 1 },
        { step: 'submitted_direct', event: 'reached', device: 'desktop', day: TODAY, count: 1 },
        { step: 'view', event: 'reached', device: 'desktop', day: TODAY, count: 2 },
        { step: 'view', event: 'reached', device: 'phone', day: TODAY, count: 1 },
      ]);
      expect(Number((await s.ctx.db('jobs').where('id', other.id).first('views')).views)).to.equal(viewsBefore + 4);
    });

    it('ignores beacons that send DNT: 1 or Sec-GPC: 1 (204, nothing counted)', async () => {
      const before = await counts(s.ctx.db, job.id);
      for (const h of [{ DNT: '1' }, { 'Sec-GPC': '1' }, { DNT: '1', 'Sec-GPC': '1' }] as Record<string, string>[]) {
        expect((await beacon(s.baseUrl, job.public_id, { events: [{ step: 'basic', event: 'reached' }] }, h)).status).to.equal(204);
      }
      // Even a bad beacon gets the same 204 and is not looked at.
      expect((await beacon(s.baseUrl, 'no-such-job', { events: [{ step: 'nope' }] }, { DNT: '1' })).status).to.equal(204);
      await s.ctx.funnel.flush();
      expect(await counts(s.ctx.db, job.id)).to.deep.equal(before);
    });

    it('refuses unknown jobs, steps and events, bad bodies, huge bodies and other content types with a clear 4xx and no count', async () => {
      const before = await counts(s.ctx.db, job.id);
      const expectError = async (res: Response, status: number, body: Record<string, unknown>) => {
        expect(res.status, JSON.stringify(body)).to.equal(status);
        expect(await res.json()).to.deep.equal(body);
      };
      await expectError(await beacon(s.baseUrl, 'no-such-job', { events: [{ step: 'basic', event: 'reached' }] }), 404, {
        detail: 'Not found.',
      });
      await expectError(await beacon(s.baseUrl, `../${job.public_id}`, { events: [{ step: 'basic', event: 'reached' }] }), 404, {
        detail: 'Not found.',
      });
      await expectError(await beacon(s.baseUrl, 'x'.repeat(300), { events: [{ step: 'basic', event: 'reached' }] }), 404, {
        detail: 'Not found.',
      });
      const removed = await makeJob(s.ctx, { status: 'REMOVED' });
      await expectError(await beacon(s.baseUrl, removed.public_id, { events: [{ step: 'basic', event: 'reached' }] }), 404, {
        detail: 'Not found.',
      });
      await expectError(await beacon(s.baseUrl, job.public_id, { events: [{ step: 'payment', event: 'reached' }] }), 400, {
        'events.0.step': [FUNNEL_MESSAGES.step],
      });
      await expectError(await beacon(s.baseUrl, job.public_id, { events: [{ step: 'view', event: 'reached' }] }), 400, {
        'events.0.step': [FUNNEL_MESSAGES.step],
      });
      await expectError(
        await beacon(s.baseUrl, job.public_id, { events: [{ step: "basic'; DROP TABLE jobs; --", event: 'reached' }] }),
        400,
        { 'events.0.step': [FUNNEL_MESSAGES.step] },
      );
      await expectError(await beacon(s.baseUrl, job.public_id, { events: [{ step: 'basic', event: 'abandoned' }] }), 400, {
        'events.0.event': [FUNNEL_MESSAGES.event],
      });
      await expectError(await beacon(s.baseUrl, job.public_id, { events: [{ step: 1, event: ['reached'] }] }), 400, {
        'events.0.step': [FUNNEL_MESSAGES.step],
        'events.0.event': [FUNNEL_MESSAGES.event],
      });
      await expectError(await beacon(s.baseUrl, job.public_id, {}), 400, { events: [FUNNEL_MESSAGES.events] });
      // The old one-event body, an empty list, a list too long for one page load, an event that is not an object.
      await expectError(await beacon(s.baseUrl, job.public_id, { step: 'basic', event: 'reached' }), 400, {
        events: [FUNNEL_MESSAGES.events],
      });
      await expectError(await beacon(s.baseUrl, job.public_id, { events: [] }), 400, { events: [FUNNEL_MESSAGES.events] });
      await expectError(await beacon(s.baseUrl, job.public_id, { events: 'basic' }), 400, { events: [FUNNEL_MESSAGES.events] });
      const eleven = Array.from({ length: 11 }, () => ({ step: 'basic', event: 'reached' }));
      await expectError(await beacon(s.baseUrl, job.public_id, { events: eleven }), 400, { events: [FUNNEL_MESSAGES.events] });
      await expectError(await beacon(s.baseUrl, job.public_id, { events: [{ step: 'basic', event: 'reached' }, 'basic', null] }), 400, {
        'events.1': [FUNNEL_MESSAGES.events],
        'events.2': [FUNNEL_MESSAGES.events],
      });
      // Issue 28 item 5: a step and event pair may come once per beacon; ten copies of one are refused, not counted ten times.
      const tenCopies = Array.from({ length: 10 }, () => ({ step: 'basic', event: 'completed' }));
      await expectError(await beacon(s.baseUrl, job.public_id, { events: tenCopies }), 400, { events: [FUNNEL_MESSAGES.repeated] });
      await expectError(
        await beacon(s.baseUrl, job.public_id, {
          events: [
            { step: 'basic', event: 'reached' },
            { step: 'experience', event: 'reached' },
            { step: 'basic', event: 'reached' },
          ],
        }),
        400,
        { events: [FUNNEL_MESSAGES.repeated] },
      );
      await expectError(await beacon(s.baseUrl, job.public_id, { events: tenCopies }, { 'Content-Type': 'application/json' }), 400, {
        events: [FUNNEL_MESSAGES.repeated],
      });
      await expectError(await beacon(s.baseUrl, job.public_id, 'step=basic'), 400, { detail: FUNNEL_MESSAGES.body });
      await expectError(await beacon(s.baseUrl, job.public_id, ''), 400, { detail: FUNNEL_MESSAGES.body });
      await expectError(await beacon(s.baseUrl, job.public_id, '[1,2]'), 400, { detail: FUNNEL_MESSAGES.body });
      await expectError(await beacon(s.baseUrl, job.public_id, 'null'), 400, { detail: FUNNEL_MESSAGES.body });
      const huge = JSON.stringify({ events: [{ step: 'basic', event: 'reached' }], pad: 'x'.repeat(2000) });
      await expectError(await beacon(s.baseUrl, job.public_id, huge), 413, { detail: FUNNEL_MESSAGES.tooLarge });
      await expectError(await beacon(s.baseUrl, job.public_id, huge, { 'Content-Type': 'application/json' }), 413, {
        detail: FUNNEL_MESSAGES.tooLarge,
      });
      await expectError(await beacon(s.baseUrl, job.public_id, 'x'.repeat(2_000_000)), 413, { detail: FUNNEL_MESSAGES.tooLarge });
      for (const type of [
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'text/html',
        'application/octet-stream',
      ]) {
        await expectError(
          await beacon(s.baseUrl, job.public_id, { events: [{ step: 'basic', event: 'reached' }] }, { 'Content-Type': type }),
          415,
          { detail: FUNNEL_MESSAGES.contentType },
        );
      }
      const noType = await fetch(`${s.baseUrl}/api/jobs/${job.public_id}/funnel/`, {
        method: 'POST',
        body: new Uint8Array(Buffer.from('{"step":"basic","event":"reached"}')),
      });
      await expectError(noType, 415, { detail: FUNNEL_MESSAGES.contentType });
      await s.ctx.funnel.flush();
      expect(await counts(s.ctx.db, job.id)).to.deep.equal(before);
    });

    it('two app instances on one database counting at the same time give exact totals', async () => {
      const b = await secondInstance(s);
      try {
        const target = await makeJob(s.ctx, { title: 'Busy Job' });
        const ROUNDS = 6;
        const PER_ROUND = 15;
        for (let round = 0; round < ROUNDS; round++) {
          const sends: Promise<Response>[] = [];
          for (let i = 0; i < PER_ROUND; i++) {
            for (const base of [s.baseUrl, b.baseUrl]) {
              sends.push(
                beacon(
                  base,
                  target.public_id,
                  { events: [{ step: 'experience', event: 'reached' }] },
                  { 'User-Agent': i % 3 ? DESKTOP_UA : PHONE_UA },
                ),
              );
            }
          }
          expect((await Promise.all(sends)).map((r) => r.status)).to.deep.equal(sends.map(() => 204));
          // Many counts in memory too, then both processes write at the same moment.
          for (let i = 0; i < 50; i++) {
            s.ctx.funnel.countAll(target.id, [{ step: 'view', event: 'reached' }], 'phone');
            b.ctx.funnel.countAll(target.id, [{ step: 'view', event: 'reached' }], 'phone');
          }
          await Promise.all([s.ctx.funnel.flush(), b.ctx.funnel.flush()]);
        }
        expect(await counts(s.ctx.db, target.id)).to.deep.equal([
          { step: 'experience', event: 'reached', device: 'desktop', day: TODAY, count: ROUNDS * 2 * 10 },
          { step: 'experience', event: 'reached', device: 'phone', day: TODAY, count: ROUNDS * 2 * 5 },
          { step: 'view', event: 'reached', device: 'phone', day: TODAY, count: ROUNDS * 2 * 50 },
        ]);
      } finally {
        await b.close();
      }
    });

    it('HR funnel: 401 without a token, 404 for an unknown job, 400 for a bad period', async () => {
      const anon = await fetch(`${s.baseUrl}/api/hr/jobs/${job.id}/funnel/`);
      expect(anon.status).to.equal(401);
      expect((await fetch(`${s.baseUrl}/api/hr/jobs/${job.id}/funnel/`, { headers: { Authorization: 'Bearer nope' } })).status).to.equal(
        401,
      );
      for (const id of ['999999', 'abc', '0', '-1', '2147483648']) expect((await funnel(id as unknown as number)).status, id).to.equal(404);
      for (const days of ['0', '366', '-1', 'abc', '1.5', '1e2', '9999']) {
        const res = await funnel(job.id, `?days=${encodeURIComponent(days)}`);
        expect(res.status, days).to.equal(400);
        expect(res.body).to.deep.equal({ days: [FUNNEL_MESSAGES.days] });
      }
      for (const [q, days] of [
        ['', 30],
        ['?days=', 30],
        ['?days=1', 1],
        ['?days=365', 365],
        ['?days=%207%20', 7],
      ] as const) {
        const res = await funnel(job.id, q);
        expect(res.status, q).to.equal(200);
        expect(res.body.days).to.equal(days);
        expect(res.body.to).to.equal(TODAY);
      }
    });

    it('HR funnel: views, Apply clicks, each step, submitted and the drops, overall and by device, over the period', async () => {
      const j = await makeJob(s.ctx, { title: 'Measured', questions: [{ text: 'Why?', answer_type: 'short_text', required: false }] });
      const c = (day: string, step: string, event: string, device: string, count: number) =>
        ({ jobId: j.id, day, step, event, device, count }) as Parameters<typeof addFunnelCounts>[1][number];
      await addFunnelCounts(
        s.ctx.db,
        [
          c(TODAY, 'view', 'reached', 'phone', 60),
          c(TODAY, 'view', 'reached', 'desktop', 40),
          c('2026-03-09', 'view', 'reached', 'phone', 100), // 7 days back: outside ?days=6, inside ?days=7
          c('2025-01-01', 'view', 'reached', 'desktop', 1000), // long ago
          c(TODAY, 'apply', 'reached', 'phone', 30),
          c(TODAY, 'apply', 'reached', 'desktop', 20),
          c(TODAY, 'basic', 'reached', 'phone', 25),
          c(TODAY, 'basic', 'reached', 'desktop', 20),
          c(TODAY, 'basic', 'completed', 'phone', 20),
          c(TODAY, 'basic', 'completed', 'desktop', 20),
          c(TODAY, 'experience', 'reached', 'phone', 20),
          c(TODAY, 'experience', 'reached', 'desktop', 20),
          c(TODAY, 'experience', 'completed', 'phone', 10),
          c(TODAY, 'experience', 'completed', 'desktop', 18),
          c(TODAY, 'education_skills', 'reached', 'desktop', 18),
          c(TODAY, 'education_skills', 'completed', 'desktop', 16),
          c(TODAY, 'questions', 'reached', 'desktop', 16),
          c(TODAY, 'questions', 'completed', 'desktop', 15),
          c(TODAY, 'review', 'reached', 'desktop', 15),
          c(TODAY, 'review', 'completed', 'desktop', 12),
          c(TODAY, 'submitted', 'reached', 'desktop', 12),
          c(TODAY, 'view', 'reached', 'phone', 1), // a second write to the same row adds up
        ].slice(0, -1),
      );
      await addFunnelCounts(s.ctx.db, [c(TODAY, 'view', 'reached', 'phone', 1)]);
      const { status, body } = await funnel(j.id, '?days=7');
      expect(status).to.equal(200);
      expect(body).to.include({ job_id: j.id, days: 7, from: '2026-03-09', to: TODAY });
      const o = body.overall;
      expect(o.views).to.equal(201);
      expect(o.apply_clicks).to.equal(50);
      expect(o.submitted).to.equal(12);
      expect(o.steps.map((x) => [x.step, x.label, x.reached, x.completed])).to.deep.equal([
        ['basic', 'Basic Info', 45, 40],
        ['experience', 'Experience', 40, 28],
        ['education_skills', 'Education & Skills', 18, 16],
        ['questions', 'Questions', 16, 15],
        ['review', 'Review', 15, 12],
      ]);
      expect(o.lines.map((l) => [l.key, l.count, l.drop, l.drop_percent])).to.deep.equal([
        ['views', 201, null, null],
        ['apply_clicks', 50, 151, 75.1],
        ['basic.reached', 45, 5, 10],
        ['basic.completed', 40, 5, 11.1],
        ['experience.reached', 40, 0, 0],
        ['experience.completed', 28, 12, 30],
        ['education_skills.reached', 18, 10, 35.7],
        ['education_skills.completed', 16, 2, 11.1],
        ['questions.reached', 16, 0, 0],
        ['questions.completed', 15, 1, 6.3],
        ['review.reached', 15, 0, 0],
        ['review.completed', 12, 3, 20],
        ['submitted', 12, 0, 0],
      ]);
      expect(o.lines[2].label).to.equal('Basic Info: reached');
      const phone = body.devices.phone;
      expect([phone.views, phone.apply_clicks, phone.submitted]).to.deep.equal([161, 30, 0]);
      expect(phone.lines.find((l) => l.key === 'education_skills.reached')).to.deep.include({ count: 0, drop: 10, drop_percent: 100 });
      expect(phone.lines.find((l) => l.key === 'education_skills.completed')).to.deep.include({ count: 0, drop: 0, drop_percent: null });
      expect([body.devices.desktop.views, body.devices.desktop.submitted]).to.deep.equal([40, 12]);

      const day = await funnel(j.id, '?days=1');
      expect(day.body.overall.views).to.equal(101);
      expect(day.body.from).to.equal(TODAY);
      const year = await funnel(j.id, '?days=365');
      expect(year.body.overall.views).to.equal(201);

      // A job without questions and no Questions beacons lists four steps; an empty funnel is all zeros, drops without a percent.
      const plain = await funnel(other.id, '?days=30');
      expect(plain.body.overall.steps.map((x) => x.step)).to.deep.equal(['basic', 'experience', 'education_skills', 'review']);
      const empty = await makeJob(s.ctx, {});
      const none = (await funnel(empty.id)).body.overall;
      expect(none.lines.every((l) => l.count === 0 && (l.drop === null || l.drop === 0) && l.drop_percent === null)).to.equal(true);
      expect(none.submitted_direct).to.equal(0);
    });

    it('HR funnel: applications without the wizard are counted apart, and a line above the one before it is no negative drop', async () => {
      const j = await makeJob(s.ctx, { title: 'Mostly API' });
      const c = (step: string, count: number) =>
        ({ jobId: j.id, day: TODAY, step, event: 'reached', device: 'desktop', count }) as Parameters<typeof addFunnelCounts>[1][number];
      // Counts like those from before the wizard's submissions were told apart: 20 submitted after 4 Review completions.
      await addFunnelCounts(s.ctx.db, [
        c('view', 10),
        c('apply', 4),
        c('basic', 4),
        c('review', 4),
        { ...c('review', 4), event: 'completed' },
        c('submitted', 20),
        c('submitted_direct', 375),
      ]);
      const o = (await funnel(j.id, '?days=7')).body.overall;
      expect(o.submitted).to.equal(20);
      expect(o.submitted_direct).to.equal(375);
      const submitted = o.lines.find((l) => l.key === 'submitted');
      expect(submitted).to.deep.include({ count: 20, drop: 0, drop_percent: 0 });
      expect(
        o.lines.every(
          (l) => l.drop === null || (l.drop >= 0 && (l.drop_percent === null || (l.drop_percent >= 0 && l.drop_percent <= 100))),
        ),
      ).to.equal(true);
      expect(o.lines.map((l) => l.key)).to.not.include('submitted_direct');
    });
  });

  describe(`apply funnel beacon flood [${kind}]`, () => {
    let s: TestServer;
    let job: Job;
    before(async () => {
      s = await startTestServer(kind, { FUNNEL_RATE_LIMIT: '3', FUNNEL_RATE_WINDOW_SECONDS: '600' });
      job = await makeJob(s.ctx, {});
    });
    after(() => s?.close());

    it('answers 429 with Retry-After past FUNNEL_RATE_LIMIT, and counts only the beacons let through', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await beacon(s.baseUrl, job.public_id, { events: [{ step: 'basic', event: 'reached' }] });
        statuses.push(res.status);
        if (res.status === 429) {
          expect(Number(res.headers.get('retry-after'))).to.be.greaterThan(0);
          expect(await res.json()).to.deep.equal({ detail: 'Too many funnel reports. Please try again in 10 minutes.' });
        }
      }
      expect(statuses).to.deep.equal([204, 204, 204, 429, 429, 429]);
      // A refused beacon carrying every pair writes nothing either.
      const every = ['basic', 'experience', 'education_skills', 'questions', 'review'].flatMap((step) => [
        { step, event: 'reached' },
        { step, event: 'completed' },
      ]);
      expect((await beacon(s.baseUrl, job.public_id, { events: every })).status).to.equal(429);
      await s.ctx.funnel.flush();
      expect(await counts(s.ctx.db, job.id)).to.deep.equal([
        { step: 'basic', event: 'reached', device: 'desktop', day: new Date().toISOString().slice(0, 10), count: 3 },
      ]);
    });
  });
}
