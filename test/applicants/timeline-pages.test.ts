/**
 * The timeline's pages over HTTP on SQLite and MySQL (issue 33): an application with 200 entries
 * from all seven sources, most of them at one millisecond and with the same ids in different
 * tables, paged to the end 50 at a time (no entry twice, none missing, newest first); entries
 * written between two pages (newer ones, and one at the same millisecond as the cursor but before
 * it in the order) never show on the later pages; a cursor that is garbage, changed by hand, of
 * another application, too long or given twice is a 400 with its message, never a 500.
 */
import { expect } from 'chai';
import type { Knex } from 'knex';
import { toDbDate } from '../../src/db/codecs.js';
import { CURSOR_MESSAGES } from '../../src/timeline/lib/cursor.js';
import { databaseKinds } from '../helpers/db.js';
import { createHrUser, liveToken } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { hr, seedPeople } from './helpers.js';

type Row = Record<string, unknown>;

/** One millisecond most entries share; the newer ones come in the seconds after it, the older ones before. */
const T0 = Date.parse('2030-03-01T09:00:00.123Z');
const at = (ms: number) => toDbDate(new Date(ms));

/** Ids the rows are written with: the same numbers in email_posts, application_posts and post_attempts. */
const FIRST_ID = 5001;

/**
 * The 200 entries of `appId`'s timeline besides its application (199 rows' worth), and the ids
 * the timeline gives them. At T0: 60 audit entries, 10 emails (4 of them cancelled at T0), 10
 * webhook posts (7 with two attempts each at T0, 3 whose attempts were swept, delivered at T0).
 * After T0: 10 emails, 10 webhook posts (8 with two attempts, 2 swept). Before T0: 60 audit
 * entries, among them notes added and edited (one note since deleted).
 */
async function writeHistory(db: Knex, appId: number, jobId: number, userId: number): Promise<string[]> {
  const ids: string[] = ['applied'];
  const audits: Row[] = [];
  const notes: Row[] = [];
  for (let i = 0; i < 60; i++)
    audits.push({
      user_id: userId,
      action: 'status',
      entity: 'application',
      entity_id: appId,
      details: JSON.stringify({ from: 'NEW', to: `T0-${i}` }),
      created_at: at(T0),
    });
  const maxNote = Number(((await db('application_notes').max({ m: 'id' }).first()) as { m: unknown }).m ?? 0);
  for (let i = 0; i < 60; i++) {
    const when = at(T0 - (60 - i) * 1000);
    if (i < 5) {
      notes.push({ id: maxNote + 1 + i, application_id: appId, user_id: userId, text: `Note ${i}`, created_at: when, updated_at: when });
      audits.push({
        user_id: userId,
        action: 'note_added',
        entity: 'application',
        entity_id: appId,
        details: JSON.stringify({ note_id: maxNote + 1 + i }),
        created_at: when,
      });
    } else if (i === 5) {
      audits.push({
        user_id: userId,
        action: 'note_edited',
        entity: 'application',
        entity_id: appId,
        details: JSON.stringify({ note_id: 999_999 }),
        created_at: when,
      });
    } else {
      audits.push({
        user_id: null,
        action: 'stage',
        entity: 'application',
        entity_id: appId,
        details: JSON.stringify({ from: 'A', to: `B${i}` }),
        created_at: when,
      });
    }
  }
  await db('application_notes').insert(notes);
  for (let i = 0; i < audits.length; i += 50) await db('audit_log').insert(audits.slice(i, i + 50));
  const auditIds: { id: number }[] = await db('audit_log').where({ entity: 'application', entity_id: appId }).select('id');
  ids.push(...auditIds.map((a) => `audit-${a.id}`));

  const emails: Row[] = [];
  for (let i = 0; i < 20; i++) {
    const id = FIRST_ID + i;
    const created = i < 10 ? T0 : T0 + (i - 9) * 1000;
    const cancelled = i < 4;
    emails.push({
      id,
      application_id: appId,
      template: 'applicant_confirmation',
      payload: JSON.stringify({ to: `p${i}@example.com`, subject: `Update ${i}`, text: 'x', html: '<p>x</p>' }),
      status: cancelled ? 'CANCELLED' : 'SUCCESS',
      attempts: cancelled ? 0 : 1,
      delivered_at: cancelled ? null : at(created),
      cancelled_at: cancelled ? at(T0) : null,
      created_at: at(created),
      updated_at: at(created),
    });
    ids.push(`email-${id}`);
    if (cancelled) ids.push(`email-${id}-cancelled`);
  }
  await db('email_posts').insert(emails);

  const hooks: Row[] = [];
  const attempts: Row[] = [];
  let attemptId = FIRST_ID;
  for (let i = 0; i < 20; i++) {
    const id = FIRST_ID + i;
    const created = i < 10 ? T0 : T0 + (i - 9) * 1000 + 500;
    const swept = i >= 7 && i < 10 ? true : i >= 18;
    const delivered = i < 10 ? T0 : created + 100;
    hooks.push({
      id,
      application_id: appId,
      job_id: jobId,
      target_url: 'https://hooks.example.com/careers',
      payload: '{}',
      message_id: `msg_pages_${appId}_${id}`,
      status: 'SUCCESS',
      status_code: 200,
      attempts: 2,
      delivered_at: at(delivered),
      created_at: at(created),
      updated_at: at(delivered),
    });
    ids.push(`webhook-${id}`);
    if (swept) ids.push(`webhook-${id}-outcome`);
    else
      for (const status of ['FAILED', 'SUCCESS']) {
        attempts.push({
          id: attemptId,
          application_post_id: id,
          status,
          status_code: status === 'SUCCESS' ? 200 : 503,
          error: status === 'SUCCESS' ? null : 'Service Unavailable',
          duration_ms: 10,
          created_at: at(delivered),
        });
        ids.push(`webhook-attempt-${attemptId++}`);
      }
  }
  await db('application_posts').insert(hooks);
  await db('post_attempts').insert(attempts);
  return ids;
}

/** The rank of an entry among entries of the same millisecond (deliveries and cancellations over changes, over posts queued, over the application). */
function rankOf(e: { id: string; type: string; action: string }): number {
  if (e.type === 'applied') return 0;
  if (e.type === 'change' || e.type === 'note') return 2;
  return e.action === 'queued' || e.action === 'scheduled' ? 1 : 3;
}

for (const kind of databaseKinds()) {
  describe(`timeline pages and cursors [${kind}]`, function () {
    this.timeout(120_000);
    let s: TestServer;
    let token: string;
    let userId: number;
    let appId: number;
    let otherAppId: number;
    let expected: string[];

    before(async () => {
      s = await startTestServer(kind);
      const seeded = await seedPeople(s.ctx.db);
      appId = seeded.ids.get('priya@patel.dev')!;
      otherAppId = seeded.ids.get('liam.smith@example.com')!;
      userId = await createHrUser(s.ctx.db, 'alice');
      token = await liveToken(s.ctx.db, userId);
      expected = await writeHistory(s.ctx.db, appId, seeded.jobA.id, userId);
      // Another application's history at the same times, which no page of this one may show.
      await s.ctx.db('audit_log').insert(
        Array.from({ length: 60 }, (_, i) => ({
          user_id: userId,
          action: 'status',
          entity: 'application',
          entity_id: otherAppId,
          details: JSON.stringify({ from: 'NEW', to: `other-${i}` }),
          created_at: at(T0),
        })),
      );
    });
    after(() => s?.close());

    const get = (path: string) => hr(s.baseUrl, token, path);
    const base = () => `/api/hr/applications/${appId}/timeline/`;
    /** The path and query of a `next` link (its origin is PUBLIC_BASE_URL). */
    const pathOf = (next: string) => {
      const u = new URL(next);
      return u.pathname + u.search;
    };

    /** Every page from `first` to the end: the pages' bodies. */
    async function pagesFrom(first: string, between?: (page: number) => Promise<void>): Promise<any[]> {
      const pages: any[] = [];
      let next: string | null = first;
      while (next) {
        const r = await get(next);
        expect(r.status, JSON.stringify(r.body)).to.equal(200);
        pages.push(r.body);
        next = r.body.next === null ? null : pathOf(r.body.next);
        if (between) await between(pages.length);
        expect(pages.length).to.be.below(10);
      }
      return pages;
    }

    it('has 200 entries, paged 50 at a time newest first to the end, each once and none missing', async () => {
      expect(expected).to.have.length(200);
      const pages = await pagesFrom(base());
      expect(pages.map((p) => p.count)).to.deep.equal([50, 50, 50, 50]);
      expect(pages.map((p) => p.truncated)).to.deep.equal([true, true, true, false]);
      expect(pages.at(-1).next).to.equal(null);
      for (const p of pages.slice(0, -1))
        expect(pathOf(p.next)).to.match(new RegExp(`^/api/hr/applications/${appId}/timeline/\\?before=[A-Za-z0-9_-]+\\.[0-9a-f]{32}$`));
      for (const p of pages) expect(p).to.deep.include({ application_id: appId, order: 'newest_first' });
      const entries = pages.flatMap((p) => p.results);
      const ids = entries.map((e: any) => e.id);
      expect(new Set(ids).size).to.equal(ids.length);
      expect([...ids].sort()).to.deep.equal([...expected].sort());
      // Newest first; at one millisecond, deliveries and cancellations, then changes, then posts queued.
      for (let i = 1; i < entries.length; i++) {
        const [a, b] = [entries[i - 1], entries[i]];
        const [ta, tb] = [Date.parse(a.at), Date.parse(b.at)];
        expect(ta >= tb, `${a.id} before ${b.id}`).to.equal(true);
        if (ta === tb) expect(rankOf(a) >= rankOf(b), `${a.id} before ${b.id}`).to.equal(true);
      }
      expect(entries.at(-1).id).to.equal('applied');
      // The rows are read in full on every page: texts of notes, emails' deliveries, webhooks' targets.
      const byId = new Map(entries.map((e: any) => [e.id, e]));
      expect(entries.filter((e: any) => e.type === 'note').map((e: any) => e.text)).to.deep.equal([
        'Note edited (since deleted)',
        'Note added: Note 4',
        'Note added: Note 3',
        'Note added: Note 2',
        'Note added: Note 1',
        'Note added: Note 0',
      ]);
      expect((byId.get(`email-${FIRST_ID}`) as any).email).to.deep.include({ status: 'CANCELLED', to: 'p0@example.com' });
      expect((byId.get(`email-${FIRST_ID}-cancelled`) as any).text).to.equal(
        'Application receipt email to p0@example.com cancelled before it was sent',
      );
      expect((byId.get(`email-${FIRST_ID + 12}`) as any).email).to.deep.include({ status: 'SUCCESS', subject: 'Update 12', attempts: 1 });
      expect((byId.get(`webhook-attempt-${FIRST_ID}`) as any).text).to.equal(
        'Webhook post to hooks.example.com not delivered (HTTP 503: Service Unavailable)',
      );
      expect((byId.get(`webhook-${FIRST_ID + 8}-outcome`) as any).text).to.equal('Webhook post to hooks.example.com delivered (HTTP 200)');
      // The first page answers as it did before pages (the island and older callers read it alone).
      const first = pages[0];
      expect(Object.keys(first).sort()).to.deep.equal(['application_id', 'count', 'next', 'order', 'results', 'truncated']);
      expect((await get(`${base()}?before=`)).body).to.deep.equal(first);
    });

    it('neither repeats nor skips an entry when entries are written between pages', async () => {
      const db = s.ctx.db;
      const seen: string[] = [];
      const added: string[] = [];
      const pages = await pagesFrom(base(), async (page) => {
        if (page > 2) return;
        // Newer entries: a change and an email a day later.
        const later = at(T0 + 86_400_000 + page);
        await db('audit_log').insert({
          user_id: userId,
          action: 'status',
          entity: 'application',
          entity_id: appId,
          details: JSON.stringify({ from: 'A', to: `new-${page}` }),
          created_at: later,
        });
        const audit = await db('audit_log').where({ entity_id: appId }).max({ m: 'id' }).first();
        added.push(`audit-${(audit as { m: number }).m}`);
        const [emailId] = await db('email_posts').insert({
          application_id: appId,
          template: 'applicant_confirmation',
          payload: JSON.stringify({ to: 'late@example.com', subject: 'Late' }),
          status: 'PENDING',
          attempts: 0,
          created_at: later,
          updated_at: later,
        });
        added.push(`email-${emailId}`);
        // At the millisecond the first pages end in, but above them in the order: a delivery attempt with a larger id.
        if (page === 1) {
          const [attempt] = await db('post_attempts').insert({
            application_post_id: FIRST_ID,
            status: 'SUCCESS',
            status_code: 200,
            duration_ms: 5,
            created_at: at(T0),
          });
          added.push(`webhook-attempt-${attempt}`);
        }
      });
      for (const p of pages) seen.push(...p.results.map((e: any) => e.id));
      expect(pages.map((p) => p.count)).to.deep.equal([50, 50, 50, 50]);
      expect(new Set(seen).size).to.equal(seen.length);
      expect([...seen].sort()).to.deep.equal([...expected].sort());
      // A new first page starts with them.
      const fresh = (await get(base())).body.results.map((e: any) => e.id);
      expect(fresh.slice(0, 4).sort()).to.deep.equal(added.filter((id) => !id.startsWith('webhook')).sort());
      expect(fresh).to.include(added.find((id) => id.startsWith('webhook-attempt')));
      const all = (await pagesFrom(base())).flatMap((p) => p.results.map((e: any) => e.id));
      expect(all).to.have.length(205);
      expect(new Set(all).size).to.equal(205);
    });

    it('answers 400 with its message for a cursor it did not give for this timeline, never a 500', async () => {
      const first = (await get(base())).body;
      const valid = new URL(first.next).searchParams.get('before')!;
      const [payload, mac] = valid.split('.');
      const decoded = Buffer.from(payload, 'base64url').toString();
      const parts = decoded.split('.');
      const tamperedMs = Buffer.from([parts[0], String(Number(parts[1]) - 1), ...parts.slice(2)].join('.')).toString('base64url');
      const otherApp = Buffer.from([String(otherAppId), ...parts.slice(1)].join('.')).toString('base64url');
      const flipped = `${payload.slice(0, -1)}${payload.endsWith('A') ? 'B' : 'A'}.${mac}`;
      const otherCursor = new URL(
        (await get(`/api/hr/applications/${otherAppId}/timeline/`)).body.next ?? 'http://x/?before=none',
      ).searchParams.get('before');
      const cases: [string, string][] = [
        ['garbage', CURSOR_MESSAGES.invalid],
        ['12345', CURSOR_MESSAGES.invalid],
        ['%00', CURSOR_MESSAGES.invalid],
        [encodeURIComponent('<script>alert(1)</script>'), CURSOR_MESSAGES.invalid],
        [encodeURIComponent('é.😀'), CURSOR_MESSAGES.invalid],
        [`${payload}.`, CURSOR_MESSAGES.invalid],
        [`${payload}.${'0'.repeat(32)}`, CURSOR_MESSAGES.invalid],
        [`${tamperedMs}.${mac}`, CURSOR_MESSAGES.invalid],
        [`${otherApp}.${mac}`, CURSOR_MESSAGES.invalid],
        [flipped, CURSOR_MESSAGES.invalid],
        [`${valid}${'0'}`, CURSOR_MESSAGES.invalid],
        [`${Buffer.from('1.2.3').toString('base64url')}.${mac}`, CURSOR_MESSAGES.invalid],
        ['x'.repeat(201), CURSOR_MESSAGES.tooLong],
        ['A'.repeat(10_000), CURSOR_MESSAGES.tooLong],
        [`${valid}&before=${valid}`, CURSOR_MESSAGES.one],
        [`a&before=b`, CURSOR_MESSAGES.one],
      ];
      for (const [raw, message] of cases) {
        const r = await get(`${base()}?before=${raw}`);
        expect(r, raw.slice(0, 80)).to.deep.include({ status: 400, body: { before: [message] } });
      }
      // The other application's own cursor is not this one's.
      if (otherCursor) expect((await get(`${base()}?before=${otherCursor}`)).body).to.deep.equal({ before: [CURSOR_MESSAGES.invalid] });
      // A cursor of this timeline on another application: refused there too.
      expect((await get(`/api/hr/applications/${otherAppId}/timeline/?before=${valid}`)).body).to.deep.equal({
        before: [CURSOR_MESSAGES.invalid],
      });
      // The valid one still answers the second page.
      expect((await get(`${base()}?before=${valid}`)).status).to.equal(200);
    });
  });
}
