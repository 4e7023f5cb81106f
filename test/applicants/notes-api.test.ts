/**
 * Notes on an application over HTTP on SQLite and MySQL: add, list (newest first, paged), edit
 * and delete one's own; another user's note is 403; bad input (wrong types, blank, 100 KB, a
 * body that is not an object) is a 400 with nothing written; HTML is kept as the text it is;
 * unknown, malformed and removed applications and notes are 404; no token is 401; and a purge
 * or an erase takes the notes and the application's audit entries with it.
 */
import path from 'node:path';
import { expect } from 'chai';
import { removeApplications } from '../../src/applicants/retention.service.js';
import { LocalDiskStorage } from '../../src/storage/storage.js';
import { databaseKinds } from '../helpers/db.js';
import { createHrUser, liveToken } from '../helpers/hr.js';
import { captureLog } from '../helpers/log.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { hr, seedPeople, type Seeded } from './helpers.js';

for (const kind of databaseKinds()) {
  describe(`application notes API [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    let seeded: Seeded;
    let alice: { id: number; token: string };
    let bob: { id: number; token: string };
    let appId: number;
    let otherAppId: number;

    before(async () => {
      s = await startTestServer(kind);
      seeded = await seedPeople(s.ctx.db);
      const aliceId = await createHrUser(s.ctx.db, 'alice');
      const bobId = await createHrUser(s.ctx.db, 'bob');
      alice = { id: aliceId, token: await liveToken(s.ctx.db, aliceId) };
      bob = { id: bobId, token: await liveToken(s.ctx.db, bobId) };
      appId = seeded.ids.get('priya@patel.dev')!;
      otherAppId = seeded.ids.get('liam.smith@example.com')!;
    });
    after(() => s.close());

    const as =
      (who: { token: string }) =>
      (p: string, init: { method?: string; body?: unknown } = {}) =>
        hr(s.baseUrl, who.token, p, init);
    const notesOf = (id: number) => `/api/hr/applications/${id}/notes/`;
    const count = async (table: string, where: Record<string, unknown> = {}) =>
      Number((await s.ctx.db(table).where(where).count({ n: '*' }))[0].n);

    it('adds a note with its author and time, and lists the notes newest first, marking the caller’s own', async () => {
      const before = Date.now();
      const first = await as(alice)(notesOf(appId), {
        method: 'POST',
        body: { text: '  Strong on payroll compliance.\r\nCall back Monday.  ' },
      });
      expect(first.status, JSON.stringify(first.body)).to.equal(201);
      expect(first.body).to.deep.include({
        application_id: appId,
        text: 'Strong on payroll compliance.\nCall back Monday.',
        author: { id: alice.id, username: 'alice' },
        edited: false,
        mine: true,
      });
      expect(Date.parse(first.body.created_at)).to.be.within(before - 1000, Date.now() + 1000);
      expect(first.body.updated_at).to.equal(first.body.created_at);
      const second = await as(bob)(notesOf(appId), { method: 'POST', body: { text: 'Second opinion: yes.' } });
      expect(second.status).to.equal(201);

      const list = await as(alice)(notesOf(appId));
      expect(list.status).to.equal(200);
      expect(list.body).to.deep.include({ count: 2, next: null, previous: null });
      expect(list.body.results.map((n: any) => [n.text, n.author.username, n.mine])).to.deep.equal([
        ['Second opinion: yes.', 'bob', false],
        ['Strong on payroll compliance.\nCall back Monday.', 'alice', true],
      ]);
      // Bob sees the same notes from his side.
      expect((await as(bob)(notesOf(appId))).body.results.map((n: any) => n.mine)).to.deep.equal([true, false]);
      // Another application's notes are its own.
      expect((await as(alice)(notesOf(otherAppId))).body).to.deep.include({ count: 0, results: [] });
      // Every write is audited on the application, with the note's id and not its text.
      const audit = await s.ctx.db('audit_log').where({ entity: 'application', entity_id: appId, action: 'note_added' }).orderBy('id');
      expect(audit.map((a) => [Number(a.user_id), JSON.parse(a.details)])).to.deep.equal([
        [alice.id, { note_id: first.body.id }],
        [bob.id, { note_id: second.body.id }],
      ]);
    });

    it('pages the notes with page and page_size', async () => {
      const id = seeded.ids.get('mia.rossi@example.it')!;
      for (const n of [1, 2, 3])
        expect((await as(alice)(notesOf(id), { method: 'POST', body: { text: `Note ${n}` } })).status).to.equal(201);
      const p1 = await as(alice)(`${notesOf(id)}?page_size=2`);
      expect(p1.body.count).to.equal(3);
      expect(p1.body.results.map((n: any) => n.text)).to.deep.equal(['Note 3', 'Note 2']);
      expect(p1.body.next).to.match(/\/api\/hr\/applications\/\d+\/notes\/\?page_size=2&page=2$/);
      const p2 = await as(alice)(`${notesOf(id)}?page_size=2&page=2`);
      expect(p2.body.results.map((n: any) => n.text)).to.deep.equal(['Note 1']);
      expect((await as(alice)(`${notesOf(id)}?page=3&page_size=2`)).status).to.equal(404);
      expect((await as(alice)(`${notesOf(id)}?page=x`)).body).to.deep.equal({ page: ['A valid page number is required.'] });
    });

    it('keeps HTML and SQL as the plain text they are', async () => {
      const text = `<script>alert("x")</script><b>bold</b> & <img src=x onerror=alert(1)> '; DROP TABLE application_notes; --`;
      const r = await as(alice)(notesOf(appId), { method: 'POST', body: { text } });
      expect(r.status).to.equal(201);
      expect(r.body.text).to.equal(text);
      const stored = await s.ctx.db('application_notes').where({ id: r.body.id }).first('text');
      expect(stored.text).to.equal(text);
      await as(alice)(`${notesOf(appId)}${r.body.id}/`, { method: 'DELETE' });
    });

    it('refuses bad input with a 400 and writes nothing', async () => {
      const notes = await count('application_notes');
      const audits = await count('audit_log');
      const cases: [unknown, Record<string, unknown>][] = [
        [{}, { text: ['This field is required.'] }],
        [{ text: '' }, { text: ['This field may not be blank.'] }],
        [{ text: ' \n\t ' }, { text: ['This field may not be blank.'] }],
        [{ text: '\u0000\u0007' }, { text: ['This field may not be blank.'] }],
        [{ text: 42 }, { text: ['Must be text.'] }],
        [{ text: null }, { text: ['Must be text.'] }],
        [{ text: ['a'] }, { text: ['Must be text.'] }],
        [{ text: { a: 1 } }, { text: ['Must be text.'] }],
        [{ text: 'x'.repeat(100 * 1024) }, { text: ['Ensure this field has no more than 10000 characters.'] }],
        [{ text: '😀'.repeat(10_001) }, { text: ['Ensure this field has no more than 10000 characters.'] }],
        [['text'], { detail: 'Must be an object.' }],
      ];
      for (const [body, errors] of cases) {
        const r = await as(alice)(notesOf(appId), { method: 'POST', body });
        expect(r.status, JSON.stringify(body).slice(0, 60)).to.equal(400);
        expect(r.body, JSON.stringify(body).slice(0, 60)).to.deep.include(errors);
      }
      // A body that is not JSON at all.
      const raw = await fetch(`${s.baseUrl}${notesOf(appId)}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${alice.token}`, 'Content-Type': 'application/json' },
        body: '{"text":',
      });
      expect(raw.status).to.equal(400);
      expect(await count('application_notes')).to.equal(notes);
      expect(await count('audit_log')).to.equal(audits);
      // The longest note fits, in characters (4-byte ones too, on MySQL's TEXT).
      const longest = await as(alice)(notesOf(appId), { method: 'POST', body: { text: '😀'.repeat(10_000) } });
      expect(longest.status).to.equal(201);
      expect(longest.body.text).to.equal('😀'.repeat(10_000));
      expect((await as(alice)(`${notesOf(appId)}${longest.body.id}/`, { method: 'DELETE' })).status).to.equal(204);
    });

    it('lets only the author edit or delete a note: 403 for anyone else, nothing changed', async () => {
      const note = (await as(alice)(notesOf(appId), { method: 'POST', body: { text: 'Mine' } })).body;
      const url = `${notesOf(appId)}${note.id}/`;
      const audits = await count('audit_log');
      const deleted = await count('audit_log', { action: 'note_deleted' });
      for (const init of [{ method: 'PATCH', body: { text: 'Not yours' } }, { method: 'DELETE' }]) {
        const r = await as(bob)(url, init);
        expect(r.status, init.method).to.equal(403);
        expect(r.body).to.deep.equal({ detail: 'Only the author of a note may change or delete it.' });
      }
      expect((await s.ctx.db('application_notes').where({ id: note.id }).first('text')).text).to.equal('Mine');
      expect(await count('audit_log')).to.equal(audits);

      const edited = await as(alice)(url, { method: 'PATCH', body: { text: 'Mine, edited' } });
      expect(edited.status).to.equal(200);
      expect(edited.body).to.deep.include({ id: note.id, text: 'Mine, edited', edited: true, mine: true, created_at: note.created_at });
      expect(Date.parse(edited.body.updated_at)).to.be.greaterThan(Date.parse(note.created_at));
      expect(await count('audit_log', { action: 'note_edited' })).to.equal(1);
      // The same text again changes nothing and audits nothing.
      expect((await as(alice)(url, { method: 'PATCH', body: { text: ' Mine, edited ' } })).body.updated_at).to.equal(
        edited.body.updated_at,
      );
      expect(await count('audit_log', { action: 'note_edited' })).to.equal(1);
      // Bad input on an edit: 400 and the text stays.
      expect((await as(alice)(url, { method: 'PATCH', body: { text: 'y'.repeat(10_001) } })).status).to.equal(400);
      expect((await as(alice)(url, { method: 'PATCH', body: { note: 'x' } })).body).to.deep.include({ text: ['This field is required.'] });

      expect((await as(alice)(url, { method: 'DELETE' })).status).to.equal(204);
      expect(await count('application_notes', { id: note.id })).to.equal(0);
      expect(await count('audit_log', { action: 'note_deleted' })).to.equal(deleted + 1);
      // Gone: every call on it is a 404.
      expect((await as(alice)(url, { method: 'DELETE' })).status).to.equal(404);
      expect((await as(alice)(url, { method: 'PATCH', body: { text: 'again' } })).status).to.equal(404);
    });

    it('answers 404 for unknown, malformed or mismatched applications and notes', async () => {
      const note = (await as(alice)(notesOf(appId), { method: 'POST', body: { text: 'Here' } })).body;
      const notFound = { detail: 'Not found.' };
      for (const bad of ['999999', 'abc', '0', '-1', '1.5', '99999999999']) {
        expect(await as(alice)(`/api/hr/applications/${bad}/notes/`), bad).to.deep.include({ status: 404, body: notFound });
        expect(await as(alice)(`/api/hr/applications/${bad}/notes/`, { method: 'POST', body: { text: 'x' } }), bad).to.deep.include({
          status: 404,
          body: notFound,
        });
        expect((await as(alice)(`${notesOf(appId)}${bad}/`, { method: 'PATCH', body: { text: 'x' } })).status, bad).to.equal(404);
        expect((await as(alice)(`${notesOf(appId)}${bad}/`, { method: 'DELETE' })).status, bad).to.equal(404);
      }
      // The note through another application's path.
      expect((await as(alice)(`${notesOf(otherAppId)}${note.id}/`, { method: 'PATCH', body: { text: 'x' } })).status).to.equal(404);
      expect((await as(alice)(`${notesOf(otherAppId)}${note.id}/`, { method: 'DELETE' })).status).to.equal(404);
      expect((await s.ctx.db('application_notes').where({ id: note.id }).first('text')).text).to.equal('Here');
    });

    it('needs a token for every call, and the Bearer header for writes', async () => {
      const note = (await as(alice)(notesOf(appId), { method: 'POST', body: { text: 'Guarded' } })).body;
      const url = `${notesOf(appId)}${note.id}/`;
      for (const [method, p] of [
        ['GET', notesOf(appId)],
        ['POST', notesOf(appId)],
        ['PATCH', url],
        ['DELETE', url],
        ['GET', `/api/hr/applications/${appId}/timeline/`],
      ]) {
        const bare = await fetch(s.baseUrl + p, {
          method,
          headers: { 'Content-Type': 'application/json' },
          body: method === 'GET' || method === 'DELETE' ? undefined : '{"text":"x"}',
        });
        expect(bare.status, `${method} ${p}`).to.equal(401);
        const badToken = await fetch(s.baseUrl + p, { method, headers: { Authorization: 'Bearer nope' } });
        expect(badToken.status, `${method} ${p}`).to.equal(401);
      }
      // The cookie reads, but never writes.
      const cookie = { Cookie: `jwt=${alice.token}`, 'Content-Type': 'application/json' };
      expect((await fetch(`${s.baseUrl}${notesOf(appId)}`, { headers: cookie })).status).to.equal(200);
      expect((await fetch(`${s.baseUrl}${notesOf(appId)}`, { method: 'POST', headers: cookie, body: '{"text":"x"}' })).status).to.equal(
        401,
      );
      expect((await fetch(s.baseUrl + url, { method: 'DELETE', headers: cookie })).status).to.equal(401);
      expect((await s.ctx.db('application_notes').where({ id: note.id }).first('text')).text).to.equal('Guarded');
    });

    it('removes the notes and the audit entries with the application (erase, purge); its calls then answer 404', async () => {
      const target = seeded.ids.get('jose.muller@example.com')!;
      const keep = seeded.ids.get('jo.baker@example.org')!;
      for (const id of [target, keep]) {
        expect((await as(alice)(notesOf(id), { method: 'POST', body: { text: `About ${id}` } })).status).to.equal(201);
        expect(
          (await as(alice)(`/api/hr/applications/${id}/`, { method: 'PATCH', body: { status: id === target ? 'REVIEWED' : 'ARCHIVED' } }))
            .status,
        ).to.equal(200);
      }
      const note = (await s.ctx.db('application_notes').where({ application_id: target }).first('id')).id;
      const storage = new LocalDiskStorage(path.join(s.testDb.dataDir, 'uploads'));
      // The seeded resumes have no files: the removal logs that, quietly here.
      const log = captureLog();
      const erased = await removeApplications(
        { db: s.ctx.db, storage, now: () => new Date(), log: s.ctx.log },
        { email: 'jose.muller@example.com' },
        { action: 'erase' },
      ).finally(log.restore);
      expect(erased.applications).to.equal(1);
      expect(await count('application_notes', { application_id: target })).to.equal(0);
      expect(await count('audit_log', { entity: 'application', entity_id: target })).to.equal(0);
      // Other applications keep theirs; the erase itself is audited without an application.
      expect(await count('application_notes', { application_id: keep })).to.equal(1);
      expect(await count('audit_log', { entity: 'application', entity_id: keep })).to.equal(2);
      expect(await count('audit_log', { action: 'erase' })).to.equal(1);
      for (const [method, p, body] of [
        ['GET', notesOf(target)],
        ['POST', notesOf(target), { text: 'late' }],
        ['PATCH', `${notesOf(target)}${note}/`, { text: 'late' }],
        ['DELETE', `${notesOf(target)}${note}/`],
        ['GET', `/api/hr/applications/${target}/timeline/`],
      ] as [string, string, unknown?][]) {
        expect((await as(alice)(p, { method, body })).status, `${method} ${p}`).to.equal(404);
      }
      expect(await count('application_notes', { application_id: target })).to.equal(0);

      const quiet = captureLog();
      const purged = await removeApplications(
        { db: s.ctx.db, storage, now: () => new Date(), log: s.ctx.log },
        { createdBefore: new Date('2026-01-06T00:00:00Z'), status: 'ARCHIVED' },
        { action: 'purge' },
      ).finally(quiet.restore);
      expect(purged.applications).to.equal(1);
      expect(await count('application_notes', { application_id: keep })).to.equal(0);
      expect(await count('audit_log', { entity: 'application', entity_id: keep })).to.equal(0);
    });
  });
}
