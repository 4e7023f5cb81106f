/**
 * An application's timeline over HTTP on SQLite and MySQL, from real events: an application
 * through the apply API to a job with a webhook (a receiver that fails once, then takes it) and
 * email on (a real SMTP server that refuses the applicant's address), delivered by the real
 * engine; a status change through the API; notes added, edited and deleted; and audit entries
 * of other kinds (stage, outcome) written as another part of the app would, shown generically.
 * Newest first, each entry with a type, time, actor and text; 404 for unknown applications; the
 * newest 50 entries a page (the pages themselves: timeline-pages.test.ts).
 */
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { SMTPServer } from 'smtp-server';
import { insertApplicationAudit } from '../../src/applicants/repo.js';
import { startDelivery } from '../../src/posts/index.js';
import { databaseKinds } from '../helpers/db.js';
import { createHrUser, liveToken } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { eventually, toFormData, validFields } from '../fixtures/apply.js';
import { startReceiver, webhookJob, type Receiver } from '../posts/helpers.js';
import { hr } from './helpers.js';

async function startSmtp() {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, cb) {
      if (address.address.startsWith('bounce')) return cb(Object.assign(new Error('No such user'), { responseCode: 550 }));
      cb();
    },
    onData(stream, _session, cb) {
      stream.on('data', () => undefined);
      stream.on('end', () => cb());
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

for (const kind of databaseKinds()) {
  describe(`application timeline API [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    let receiver: Receiver;
    let delivery: ReturnType<typeof startDelivery>;
    let alice: { id: number; token: string };
    let bob: { id: number; token: string };
    let appId: number;

    before(async () => {
      smtp = await startSmtp();
      let calls = 0;
      receiver = await startReceiver(() => (++calls === 1 ? { status: 500, body: 'busy' } : { status: 200, body: 'ok' }));
      s = await startTestServer(kind, {
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        MAIL_FROM: 'careers@acme.example',
        HR_NOTIFY_EMAIL: 'hr@acme.example',
        WEBHOOK_ALLOW_PRIVATE: 'true',
        POSTS_RETRY_SCHEDULE: '1',
        APPLY_RATE_LIMIT: '0',
      });
      delivery = startDelivery({ db: s.ctx.db, config: s.ctx.config, now: () => new Date(), log: () => undefined }, s.ctx.outbox);
      for (const name of ['alice', 'bob']) {
        const id = await createHrUser(s.ctx.db, name);
        const who = { id, token: await liveToken(s.ctx.db, id) };
        if (name === 'alice') alice = who;
        else bob = who;
      }
      const job = await webhookJob(s.ctx.db, receiver.url, null, { title: 'Platform Engineer' });
      const res = await fetch(`${s.baseUrl}/api/jobs/${job.public_id}/apply/`, {
        method: 'POST',
        body: toFormData(validFields({ email: 'bounce.asha@example.com' })),
      });
      expect(res.status, await res.clone().text()).to.equal(201);
      appId = Number((await s.ctx.db('applications').first('id')).id);
      // Both emails tried once (one refused for good), the webhook failed once then delivered.
      await eventually(async () => {
        const attempts = await s.ctx.db('post_attempts').select('status');
        expect(attempts.map((a) => a.status).sort()).to.deep.equal(['FAILED', 'FAILED', 'SUCCESS', 'SUCCESS']);
      }, 15_000);
    });
    after(async () => {
      await delivery?.stop();
      await s?.close();
      await smtp?.close();
      await receiver?.close();
    });

    const as =
      (who: { token: string }) =>
      (p: string, init: { method?: string; body?: unknown } = {}) =>
        hr(s.baseUrl, who.token, p, init);
    const timeline = async () => {
      const r = await as(alice)(`/api/hr/applications/${appId}/timeline/`);
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      return r.body;
    };
    const pause = () => new Promise((resolve) => setTimeout(resolve, 5));

    it('shows the application, its emails and webhook deliveries, status changes, notes and other changes, newest first', async () => {
      expect((await as(alice)(`/api/hr/applications/${appId}/`, { method: 'PATCH', body: { status: 'REVIEWED' } })).status).to.equal(200);
      await pause();
      const note = (
        await as(bob)(`/api/hr/applications/${appId}/notes/`, {
          method: 'POST',
          body: { text: 'Call back Monday <b>before</b> noon.\nStrong on payroll.' },
        })
      ).body;
      await pause();
      expect(
        (
          await as(bob)(`/api/hr/applications/${appId}/notes/${note.id}/`, {
            method: 'PATCH',
            body: { text: 'Call back Monday <b>before</b> noon.' },
          })
        ).status,
      ).to.equal(200);
      await pause();
      // Written as the stages part of the app writes its changes: the same shape as a status change.
      await insertApplicationAudit(
        s.ctx.db,
        [{ userId: alice.id, action: 'stage', entityId: appId, details: { from: 'Applied', to: 'Screen', from_id: 1, to_id: 2 } }],
        new Date(),
      );
      await pause();
      await insertApplicationAudit(
        s.ctx.db,
        [
          {
            userId: null,
            action: 'outcome',
            entityId: appId,
            details: { from: null, to: 'REJECTED', reason: 'Not a fit', stage: 'Screen' },
          },
        ],
        new Date(),
      );

      const body = await timeline();
      expect(body).to.deep.include({ application_id: appId, order: 'newest_first', truncated: false, next: null });
      const entries: any[] = body.results;
      expect(body.count).to.equal(entries.length);
      // Newest first.
      const times = entries.map((e) => Date.parse(e.at));
      expect(times).to.deep.equal([...times].sort((a, b) => b - a));
      for (const e of entries) {
        expect(e).to.include.keys('id', 'type', 'action', 'at', 'actor', 'text');
        expect(e.at).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      }
      expect(new Set(entries.map((e) => e.id)).size).to.equal(entries.length);
      const lines = entries.map((e) => [e.type, e.action, e.actor?.username ?? null, e.text]);
      // The last five, made one after the other above.
      expect(lines.slice(0, 5)).to.deep.equal([
        // Names, never the stages' row ids; the outcome in words.
        ['change', 'outcome', null, 'Outcome set to Rejected (reason: Not a fit, stage: Screen)'],
        ['change', 'stage', 'alice', 'Stage changed from Applied to Screen'],
        ['note', 'edited', 'bob', 'Note edited: Call back Monday <b>before</b> noon.'],
        ['note', 'added', 'bob', 'Note added: Call back Monday <b>before</b> noon.'],
        ['change', 'status', 'alice', 'Status changed from NEW to REVIEWED'],
      ]);
      expect(entries[1]).to.deep.include({ from: 'Applied', to: 'Screen' });
      expect(entries[2].note_id).to.equal(note.id);
      expect(entries[4]).to.deep.include({ from: 'NEW', to: 'REVIEWED', actor: { id: alice.id, username: 'alice' } });
      // The oldest: the application itself.
      expect(entries.at(-1)).to.deep.include({
        id: 'applied',
        type: 'applied',
        action: 'applied',
        actor: null,
        text: 'Applied for Platform Engineer',
      });
      // Each email once, with its delivery as it is now (never a second line per attempt);
      // webhook posts queued and each attempt.
      const deliveries = lines
        .filter(([type]) => type === 'email' || type === 'webhook')
        .map(([type, action, , text]) => [type, action, text]);
      expect(deliveries).to.deep.include.members([
        ['email', 'queued', 'Application receipt email to bounce.asha@example.com: Application received: Platform Engineer'],
        ['email', 'queued', "HR notification email to hr@acme.example: New application: Asha D'Souza-Rao for Platform Engineer"],
        ['webhook', 'queued', `Webhook post to 127.0.0.1:${receiver.port} queued`],
        ['webhook', 'failed', `Webhook post to 127.0.0.1:${receiver.port} not delivered (HTTP 500: busy)`],
        ['webhook', 'delivered', `Webhook post to 127.0.0.1:${receiver.port} delivered (HTTP 200)`],
      ]);
      expect(deliveries).to.have.length(5);
      const emails = entries.filter((e) => e.type === 'email').map((e) => e.email);
      const receipt = emails.find((e) => !e.to_hr);
      expect(receipt).to.deep.include({ to: 'bounce.asha@example.com', status: 'FAILED', attempts: 1, to_hr: false, delivered_at: null });
      expect(receipt.error).to.match(/550/);
      // The notification to HR is marked, so the page can leave it out unless asked.
      expect(emails.find((e) => e.to_hr)).to.deep.include({ to: 'hr@acme.example', status: 'SUCCESS', attempts: 1, error: null });
      expect(emails.find((e) => e.to_hr).delivered_at).to.match(/Z$/);
      expect(JSON.stringify(entries)).to.not.match(/\bid: \d/);
      // A delivery is listed after (above) its post was queued.
      const at = (action: string, type = 'webhook') => entries.findIndex((e) => e.type === type && e.action === action);
      expect(at('delivered')).to.be.lessThan(at('failed'));
      expect(at('failed')).to.be.lessThan(at('queued'));
    });

    it('keeps the history of a deleted note without its text', async () => {
      const note = (await as(alice)(`/api/hr/applications/${appId}/notes/`, { method: 'POST', body: { text: 'Temporary' } })).body;
      await pause();
      expect((await as(alice)(`/api/hr/applications/${appId}/notes/${note.id}/`, { method: 'DELETE' })).status).to.equal(204);
      const entries: any[] = (await timeline()).results;
      expect(entries.slice(0, 2).map((e) => [e.type, e.action, e.actor?.username, e.text])).to.deep.equal([
        ['note', 'deleted', 'alice', 'Note deleted'],
        ['note', 'added', 'alice', 'Note added (since deleted)'],
      ]);
      expect(JSON.stringify(entries)).to.not.include('Temporary');
    });

    it('shows a delivery outcome from the post itself once its attempts were swept away', async () => {
      await s.ctx.db('post_attempts').delete();
      const entries = (await timeline()).results.filter((e: any) => e.type === 'webhook' || e.type === 'email');
      const lines = entries.map((e: any) => [e.type, e.action, e.text]);
      expect(lines).to.deep.include.members([['webhook', 'delivered', `Webhook post to 127.0.0.1:${receiver.port} delivered (HTTP 200)`]]);
      expect(lines.filter(([, action]: string[]) => action !== 'queued')).to.have.length(1);
      // The emails' state comes from the posts themselves.
      const emails = entries.filter((e: any) => e.type === 'email').map((e: any) => e.email);
      expect(emails.map((e: any) => e.status).sort()).to.deep.equal(['FAILED', 'SUCCESS']);
      expect(emails.find((e: any) => e.status === 'FAILED').error).to.match(/550/);
    });

    it('answers 404 for unknown and malformed applications', async () => {
      for (const bad of ['999999', 'abc', '0', '-3', '2.5', '99999999999', '1e3']) {
        expect(await as(alice)(`/api/hr/applications/${bad}/timeline/`), bad).to.deep.include({
          status: 404,
          body: { detail: 'Not found.' },
        });
      }
    });

    it('answers the newest 50 entries of a long history, with the link to the older ones', async () => {
      // Later than everything else, so the newest 50 are all of these.
      const start = Date.now() + 60_000;
      const rows = Array.from({ length: 120 }, (_, i) => ({
        user_id: alice.id,
        action: 'status',
        entity: 'application',
        entity_id: appId,
        details: JSON.stringify({ from: 'NEW', to: `S${i}` }),
        created_at: new Date(start + i * 1000).toISOString().replace('T', ' ').replace('Z', ''),
      }));
      for (let i = 0; i < rows.length; i += 100) await s.ctx.db('audit_log').insert(rows.slice(i, i + 100));
      const body = await timeline();
      expect(body).to.deep.include({ count: 50, truncated: true });
      expect(body.results.map((e: any) => e.text)).to.deep.equal(
        Array.from({ length: 50 }, (_, i) => `Status changed from NEW to S${119 - i}`),
      );
      expect(body.next).to.match(new RegExp(`/api/hr/applications/${appId}/timeline/\\?before=`));
      const older = await as(alice)(new URL(body.next).pathname + new URL(body.next).search);
      expect(older.status).to.equal(200);
      expect(older.body.results[0].text).to.equal('Status changed from NEW to S69');
    });
  });
}
