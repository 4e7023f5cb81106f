/**
 * The read models behind the interview screens (issue 32) over HTTP on SQLite and MySQL, with
 * interviews written straight to the tables: a board card's next scheduled interview (and the
 * board's cache seeing a new, moved or cancelled one), the dashboard's "Today's interviews" in the
 * asker's zone (every interview for admins and recruiters, one's own for other roles; bad zones
 * 400), and the report's "Time to schedule" per stage (median hours from entering a stage to the
 * first interview there being booked), in the workbook too.
 */
import ExcelJS from 'exceljs';
import { expect } from 'chai';
import { DateTime } from 'luxon';
import { toDbDate } from '../../src/db/codecs.js';
import type { Job } from '../../src/jobs/types.js';
import { databaseKinds } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { createHrUser, hrSession, liveToken } from '../helpers/hr.js';
import { insertApplications } from '../helpers/applications.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const H = 3600_000;

for (const kind of databaseKinds()) {
  describe(`interview screens: board, dashboard, report [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    let token: string;
    let job: Job;
    let ids: number[];
    let stages: { id: number; name: string }[];
    let uid = 0;
    const call = async (path: string, t: string = token) => {
      const res = await fetch(`${s.baseUrl}${path}`, { headers: { Authorization: `Bearer ${t}` } });
      return { status: res.status, body: await res.json() };
    };
    /** An interview row as the interviews feature writes it; answers its id. */
    const interview = async (
      applicationId: number,
      startsAt: Date,
      o: { status?: string; stage?: { id: number; name: string }; createdAt?: Date; userIds?: number[] } = {},
    ) => {
      const stage = o.stage ?? stages[0];
      const now = toDbDate(o.createdAt ?? new Date());
      const [id] = await s.ctx.db('interviews').insert({
        application_id: applicationId,
        stage_id: stage.id,
        stage_name: stage.name,
        type: 'video',
        starts_at: toDbDate(startsAt),
        ends_at: toDbDate(new Date(startsAt.getTime() + H)),
        time_zone: 'Europe/Berlin',
        uid: `test-${++uid}@careers.test`,
        status: o.status ?? 'scheduled',
        created_at: now,
        updated_at: now,
      });
      const interviewId = Number(typeof id === 'object' ? (id as { id: number }).id : id);
      for (const userId of o.userIds ?? [])
        await s.ctx
          .db('interview_participants')
          .insert({ interview_id: interviewId, hr_user_id: userId, email: `u${userId}@example.com`, name: `User ${userId}` });
      return interviewId;
    };

    before(async () => {
      s = await startTestServer(kind, { POSTS_WORKER: 'off' });
      ({ token } = await hrSession(s.ctx.db, 'screens-admin'));
      job = await makeJob(s.ctx.db, { title: 'Backend Engineer', public_id: 'backend-engineer', status: 'ACTIVE' });
      await insertApplications(
        s.ctx.db,
        job.id,
        ['Asha', 'Ben', 'Cleo', 'Dev'].map((n) => ({ first_name: n, last_name: 'Rao', email: `${n}@example.com`, phone: '+15550000000' })),
        [],
      );
      ids = (await s.ctx.db('applications').where('job_id', job.id).orderBy('id').select('id')).map((r) => Number(r.id));
      stages = (await s.ctx.db('job_stages').where('job_id', job.id).orderBy('position').select('id', 'name')).map((r) => ({
        id: Number(r.id),
        name: String(r.name),
      }));
    });
    after(() => s?.close());

    it("shows a card's next scheduled interview, and the cached board sees every change", async () => {
      const cardOf = async (id: number) => {
        const { status, body } = await call(`/api/hr/jobs/${job.id}/board/`);
        expect(status).to.equal(200);
        return body.columns.flatMap((c: { cards: unknown[] }) => c.cards).find((c: { id: number }) => c.id === id);
      };
      expect((await cardOf(ids[0])).next_interview_at).to.equal(null);
      const soon = new Date(Date.now() + 48 * H);
      const later = new Date(Date.now() + 96 * H);
      // A past one and a cancelled one are no "next" interview; the earliest upcoming one is.
      await interview(ids[0], new Date(Date.now() - 24 * H));
      await interview(ids[0], new Date(Date.now() + 24 * H), { status: 'cancelled' });
      const laterId = await interview(ids[0], later);
      expect((await cardOf(ids[0])).next_interview_at).to.equal(later.toISOString());
      const soonId = await interview(ids[0], soon);
      expect((await cardOf(ids[0])).next_interview_at).to.equal(soon.toISOString());
      expect((await cardOf(ids[1])).next_interview_at).to.equal(null);
      // Cancelled (updated_at moves on): the next one shows.
      await s.ctx
        .db('interviews')
        .where('id', soonId)
        .update({ status: 'cancelled', updated_at: toDbDate(new Date(Date.now() + 1000)) });
      expect((await cardOf(ids[0])).next_interview_at).to.equal(later.toISOString());
      await s.ctx
        .db('interviews')
        .whereIn('id', [laterId])
        .update({ status: 'cancelled', updated_at: toDbDate(new Date(Date.now() + 2000)) });
      expect((await cardOf(ids[0])).next_interview_at).to.equal(null);
    });

    it("lists today's interviews in the asker's zone: all for admins, one's own for other roles; bad zones are 400", async () => {
      const manager = await createHrUser(s.ctx.db, 'screens-manager', { role: 'hiring_manager' });
      const managerToken = await liveToken(s.ctx.db, manager);
      await s.ctx
        .db('job_team_members')
        .insert({ job_id: job.id, user_id: manager, role: 'hiring_manager', created_at: toDbDate(new Date()) });
      const zones = ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'UTC'];
      // Interviews half an hour into and before the end of today in each zone.
      const made: { id: number; at: number; mine: boolean }[] = [];
      for (const [n, zone] of zones.entries()) {
        const day = DateTime.now().setZone(zone).startOf('day');
        for (const at of [day.plus({ minutes: 30 }), day.plus({ hours: 23, minutes: 30 })]) {
          const mine = n === 0;
          made.push({ id: await interview(ids[2], at.toJSDate(), { userIds: mine ? [manager] : [] }), at: at.toMillis(), mine });
        }
      }
      await interview(ids[3], DateTime.now().setZone('UTC').startOf('day').plus({ hours: 12 }).toJSDate(), { status: 'cancelled' });
      const todayIn = (zone: string, mineOnly = false) => {
        const day = DateTime.now().setZone(zone).startOf('day');
        return made
          .filter((m) => m.at >= day.toMillis() && m.at < day.plus({ days: 1 }).toMillis() && (!mineOnly || m.mine))
          .sort((a, b) => a.at - b.at || a.id - b.id)
          .map((m) => m.id);
      };
      for (const zone of zones) {
        const { status, body } = await call(`/api/hr/dashboard/interviews/?tz=${encodeURIComponent(zone)}`);
        expect(status).to.equal(200);
        expect(body.time_zone).to.equal(zone);
        expect(body.mine_only).to.equal(false);
        expect(body.items.map((i: { id: number }) => i.id)).to.deep.equal(todayIn(zone));
      }
      const first = (await call('/api/hr/dashboard/interviews/?tz=UTC')).body.items[0];
      expect(first).to.include({ application_id: ids[2], applicant: 'Cleo Rao', job_title: 'Backend Engineer', type: 'video' });
      expect(first.stage_name).to.equal(stages[0].name);
      // No zone: UTC's day.
      expect((await call('/api/hr/dashboard/interviews/')).body.items.map((i: { id: number }) => i.id)).to.deep.equal(todayIn('UTC'));
      const own = await call('/api/hr/dashboard/interviews/?tz=Pacific/Kiritimati', managerToken);
      expect(own.status).to.equal(200);
      expect(own.body.mine_only).to.equal(true);
      expect(own.body.items.map((i: { id: number }) => i.id)).to.deep.equal(todayIn('Pacific/Kiritimati', true));
      for (const bad of ['Mars/Olympus', 'Europe/Berlin&tz=UTC', '<script>alert(1)</script>', 'A'.repeat(5000), '../../etc/passwd']) {
        const res = await call(`/api/hr/dashboard/interviews/?tz=${bad.includes('&') ? bad : encodeURIComponent(bad)}`);
        expect(res.status, bad).to.equal(400);
        expect(res.body.tz).to.deep.equal(['Give a time zone by its IANA name, e.g. Europe/Berlin.']);
      }
      expect((await fetch(`${s.baseUrl}/api/hr/dashboard/interviews/`)).status).to.equal(401);
    });

    it('reports the median hours from entering a stage to its first interview being booked, in the workbook too', async () => {
      const report = await makeJob(s.ctx.db, { title: 'Report Role', public_id: 'report-role', status: 'ACTIVE' });
      const D0 = Date.parse('2026-03-02T09:00:00Z');
      const at = (hours: number) => new Date(D0 + hours * H);
      await insertApplications(
        s.ctx.db,
        report.id,
        ['r1', 'r2', 'r3', 'r4'].map((n) => ({
          first_name: n,
          last_name: 'T',
          email: `${n}@example.com`,
          phone: '+15550000000',
          created_at: at(0),
        })),
        [],
      );
      const rid = (await s.ctx.db('applications').where('job_id', report.id).orderBy('id').select('id')).map((r) => Number(r.id));
      const st = (await s.ctx.db('job_stages').where('job_id', report.id).orderBy('position').select('id', 'name')).map((r) => ({
        id: Number(r.id),
        name: String(r.name),
      }));
      const [applied, screen] = st;
      const ledger = (application_id: number, to: number, hours: number, from: number | null = applied.id) => ({
        application_id,
        job_id: report.id,
        from_stage_id: from,
        to_stage_id: to,
        at: toDbDate(at(hours)),
      });
      await s.ctx
        .db('stage_transitions')
        .insert([
          ...rid.map((id) => ledger(id, applied.id, 0, null)),
          ledger(rid[0], screen.id, 10),
          ledger(rid[1], screen.id, 10),
          ledger(rid[2], screen.id, 10),
        ]);
      // Applied: r1 booked 2 h after applying. Screen: 4 h and 8 h after entering it (the first
      // booking of r2's two counts); r3's was booked before it entered the stage: not counted.
      await interview(rid[0], at(200), { stage: applied, createdAt: at(2) });
      await interview(rid[0], at(200), { stage: screen, createdAt: at(14) });
      await interview(rid[1], at(200), { stage: screen, createdAt: at(18), status: 'cancelled' });
      await interview(rid[1], at(200), { stage: screen, createdAt: at(30) });
      await interview(rid[2], at(200), { stage: screen, createdAt: at(5) });
      const q = `job_id=${report.id}&from=2026-03-01&to=2026-03-05`;
      const { status, body } = await call(`/api/hr/reports/?${q}`);
      expect(status).to.equal(200);
      const line = (name: string) => body.time_to_schedule.find((l: { name: string }) => l.name === name);
      expect(line(applied.name)).to.deep.include({ count: 1, median_seconds: 2 * 3600 });
      expect(line(screen.name)).to.deep.include({ count: 2, median_seconds: 6 * 3600, p90_seconds: 8 * 3600 });
      expect(body.time_to_schedule.some((l: { hired: boolean }) => l.hired)).to.equal(false);

      const res = await fetch(`${s.baseUrl}/api/hr/reports/export/?${q}`, { headers: { Authorization: `Bearer ${token}` } });
      expect(res.status).to.equal(200);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
      const sheet = book.getWorksheet('Time to schedule')!;
      expect(sheet.getRow(1).values).to.deep.equal([undefined, 'Stage', 'Interviews booked', 'Median (hours)', 'p90 (hours)']);
      const rows = sheet.getSheetValues().slice(2) as unknown[][];
      expect(rows.find((r) => r?.[1] === screen.name)?.slice(1)).to.deep.equal([screen.name, 2, 6, 8]);
    });
  });
}
