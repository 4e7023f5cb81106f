/**
 * Issue 28: the one character rule of one-line texts (src/shared/input-rules.ts, oneLineProblem)
 * over HTTP on both databases. Job titles, departments, locations, question placeholders and
 * options, form titles, labels and options, tracking-link names, stage names, rejection reasons,
 * email template names and subjects refuse zero-width and text-direction characters, the Unicode
 * non-characters and controls, each with its message, and nothing is written; notes (multi-line)
 * lose the text-direction overrides and non-characters and keep the zero-width joiners of emoji.
 */
import { expect } from 'chai';
import { ONE_LINE_MESSAGES } from '../../src/shared/input-rules.js';
import { databaseKinds } from '../helpers/db.js';
import { jobPayload, makeJob } from '../helpers/factories.js';
import { createHrUser, liveToken } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { hr, seedPeople, type Seeded } from '../applicants/helpers.js';
import { everyFieldForm } from '../forms/helpers.js';

/** Invisible and text-direction characters, each refused with ONE_LINE_MESSAGES.invisible. */
const INVISIBLE = ['\u202e', '\u202a', '\u200b', '\u200d', '\u200f', '\u2060', '\u2064', '\u2066', '\u2069', '\ufeff', '\u061c'];
/** Non-characters and a lone surrogate, each refused with ONE_LINE_MESSAGES.notText. */
const NOT_TEXT = ['\ufffe', '\uffff', '\ufdd0', '\ufdef', '\u{1fffe}', '\u{10ffff}', '\ud800'];
/** Controls, refused as before. */
const CONTROLS = ['\u0001', '\t', '\n', '\u0085', '\u2028'];

/** Each hostile character with the message it gets; `own` replaces the control message for fields with their own. */
const cases = (own?: string): [string, string][] => [
  ...INVISIBLE.map((c): [string, string] => [c, ONE_LINE_MESSAGES.invisible]),
  ...NOT_TEXT.map((c): [string, string] => [c, ONE_LINE_MESSAGES.notText]),
  ...CONTROLS.map((c): [string, string] => [c, own ?? ONE_LINE_MESSAGES.control]),
];
const hex = (c: string) => [...c].map((x) => `U+${x.codePointAt(0)!.toString(16).toUpperCase()}`).join(' ');

for (const kind of databaseKinds()) {
  describe(`one-line texts refuse invisible, text-direction and non-characters [${kind}]`, function () {
    this.timeout(120_000);
    let s: TestServer;
    let token: string;
    let seeded: Seeded;
    const call = (path: string, init: { method?: string; body?: unknown } = {}) => hr(s.baseUrl, token, path, init);

    before(async () => {
      s = await startTestServer(kind);
      seeded = await seedPeople(s.ctx.db);
      token = await liveToken(s.ctx.db, await createHrUser(s.ctx.db, 'lines-admin'));
    });
    after(() => s.close());

    it('jobs: title, department, location, experience, duration, a question placeholder and options', async () => {
      const before = Number((await s.ctx.db('jobs').count({ n: '*' }).first())!.n);
      const question = (patch: Record<string, unknown>) => ({
        text: '<p>Why?</p>',
        help_text: '',
        placeholder: '',
        answer_type: 'single_choice',
        options: ['Yes', 'No'],
        required: false,
        ...patch,
      });
      for (const [c, message] of cases()) {
        for (const [field, body, key] of [
          ['title', { title: `Eng${c}ineer` }, 'title'],
          ['department', { department: `Sales ${c}EMEA` }, 'department'],
          ['location', { location: `Ber${c}lin` }, 'location'],
          ['experience', { experience_required: `2${c} years` }, 'experience_required'],
          ['duration', { duration: `6 months${c} x` }, 'duration'],
          ['placeholder', { questions: [question({ placeholder: `pick${c} one` })] }, 'questions.0.placeholder'],
          ['options', { questions: [question({ options: ['Yes', `N${c}o`] })] }, 'questions.0.options'],
        ] as const) {
          const r = await call('/api/hr/jobs/', { method: 'POST', body: jobPayload(body) });
          expect(r.status, `${field} ${hex(c)}`).to.equal(400);
          expect(r.body[key], `${field} ${hex(c)}: ${JSON.stringify(r.body)}`).to.deep.equal([message]);
        }
      }
      expect(Number((await s.ctx.db('jobs').count({ n: '*' }).first())!.n)).to.equal(before);
      // Letters of every script, emoji and marks that are text stay allowed.
      const ok = await call('/api/hr/jobs/', {
        method: 'POST',
        body: jobPayload({ title: 'Ingénieur · 工程师 · مهندس 🚀🏽', department: 'R&D <b>"x"</b>', location: 'Zürich, Switzerland' }),
      });
      expect(ok.status, JSON.stringify(ok.body)).to.equal(201);
      expect(ok.body.title).to.equal('Ingénieur · 工程师 · مهندس 🚀🏽');
    });

    it('forms: title, section title, field label, placeholder and options', async () => {
      const before = Number((await s.ctx.db('forms').count({ n: '*' }).first())!.n);
      for (const [c, message] of cases()) {
        const base = everyFieldForm();
        const withField = (patch: Record<string, unknown>) => ({
          ...base,
          sections: [
            { ...base.sections[0], fields: [{ ...base.sections[0].fields[0], ...patch }, ...base.sections[0].fields.slice(1)] },
            base.sections[1],
          ],
        });
        const withOptions = {
          ...base,
          sections: [
            base.sections[0],
            {
              ...base.sections[1],
              fields: [{ ...base.sections[1].fields[0], options: ['Morning', `Eve${c}ning`] }, ...base.sections[1].fields.slice(1)],
            },
          ],
        };
        for (const [field, body, key] of [
          ['title', everyFieldForm({ title: `Sign${c}up` }), 'title'],
          ['section', { ...base, sections: [{ ...base.sections[0], title: `About${c} you` }, base.sections[1]] }, 'sections.0.title'],
          ['label', withField({ label: `Full${c} name` }), 'sections.0.fields.0.label'],
          ['placeholder', withField({ placeholder: `Jane${c} Doe` }), 'sections.0.fields.0.placeholder'],
          ['options', withOptions, 'sections.1.fields.0.options'],
        ] as const) {
          const r = await call('/api/hr/forms/', { method: 'POST', body });
          expect(r.status, `${field} ${hex(c)}`).to.equal(400);
          expect(r.body[key], `${field} ${hex(c)}: ${JSON.stringify(r.body)}`).to.deep.equal([message]);
        }
      }
      expect(Number((await s.ctx.db('forms').count({ n: '*' }).first())!.n)).to.equal(before);
    });

    it('tracking links: the name', async () => {
      for (const [c, message] of cases()) {
        const r = await call('/api/hr/sources/links/', { method: 'POST', body: { name: `LinkedIn${c} spring`, source: 'linkedin' } });
        expect(r.status, hex(c)).to.equal(400);
        expect(r.body.name, `${hex(c)}: ${JSON.stringify(r.body)}`).to.deep.equal([message]);
      }
      expect(await s.ctx.db('tracking_links').count({ n: '*' }).first()).to.deep.include({ n: 0 });
    });

    it('stage names and rejection reasons', async () => {
      const job = await makeJob(s.ctx.db, { title: 'Stages job' });
      const stages = async () => (await call(`/api/hr/jobs/${job.id}/stages/`)).body.stages.map((x: { name: string }) => x.name);
      const reasons = async () => (await call('/api/hr/rejection-reasons/')).body.reasons.map((x: { name: string }) => x.name);
      const [stagesBefore, reasonsBefore] = [await stages(), await reasons()];
      for (const [c, message] of cases('own')) {
        const stage = await call(`/api/hr/jobs/${job.id}/stages/`, {
          method: 'PUT',
          body: { stages: [{ name: 'Applied' }, { name: `Inter${c}view` }] },
        });
        expect(stage.status, hex(c)).to.equal(400);
        expect(stage.body['stages.1.name'], `${hex(c)}: ${JSON.stringify(stage.body)}`).to.deep.equal([
          message === 'own' ? 'Enter a stage name of 1 to 60 characters on one line.' : message,
        ]);
        const reason = await call('/api/hr/rejection-reasons/', { method: 'PUT', body: { reasons: [{ name: `Salary${c} gap` }] } });
        expect(reason.status, hex(c)).to.equal(400);
        expect(reason.body['reasons.0.name'], `${hex(c)}: ${JSON.stringify(reason.body)}`).to.deep.equal([
          message === 'own' ? 'Enter a reason of 1 to 100 characters on one line.' : message,
        ]);
      }
      expect(await stages()).to.deep.equal(stagesBefore);
      expect(await reasons()).to.deep.equal(reasonsBefore);
    });

    it('email templates: the name and the subject, on save and on a send edited by HR', async () => {
      const count = async () => Number((await s.ctx.db('email_templates').count({ n: '*' }).first())!.n);
      const before = await count();
      for (const [c, message] of cases('own')) {
        const name = await call('/api/hr/email-templates/', {
          method: 'POST',
          body: { name: `Offer${c} letter`, subject: 'Hello', body: 'Hi {first_name}' },
        });
        expect(name.status, hex(c)).to.equal(400);
        expect(name.body.name, `${hex(c)}: ${JSON.stringify(name.body)}`).to.deep.equal([
          message === 'own' ? 'Enter a name of 1 to 100 characters on one line.' : message,
        ]);
        const subject = await call('/api/hr/email-templates/', {
          method: 'POST',
          body: { name: 'Offer', subject: `Your ${c}offer`, body: 'Hi {first_name}' },
        });
        expect(subject.status, hex(c)).to.equal(400);
        expect(subject.body.subject, `${hex(c)}: ${JSON.stringify(subject.body)}`).to.have.length(1);
        if (message !== 'own') expect(subject.body.subject).to.deep.equal([message]);
      }
      expect(await count()).to.equal(before);
      const template = await call('/api/hr/email-templates/', {
        method: 'POST',
        body: { name: 'Offer', subject: 'Hello', body: 'Hi {first_name}' },
      });
      expect(template.status, JSON.stringify(template.body)).to.equal(201);
      const appId = seeded.ids.get('priya@patel.dev')!;
      const preview = await call(`/api/hr/applications/${appId}/emails/preview/`, {
        method: 'POST',
        body: { template_id: template.body.id, subject: 'Hello \u202egnp.exe' },
      });
      expect(preview.status).to.equal(400);
      expect(preview.body.subject).to.deep.equal([ONE_LINE_MESSAGES.invisible]);
    });

    it('notes keep emoji joiners but lose text-direction overrides, isolates and non-characters', async () => {
      const appId = seeded.ids.get('priya@patel.dev')!;
      const r = await call(`/api/hr/applications/${appId}/notes/`, {
        method: 'POST',
        body: { text: 'Call \u202ereversed\u202c back\u2066x\u2069 👩‍💻 \u200d\u200c ok\ufffe\u{10ffff}\nline two' },
      });
      expect(r.status, JSON.stringify(r.body)).to.equal(201);
      expect(r.body.text).to.equal('Call reversed backx 👩‍💻 \u200d\u200c ok\nline two');
      const stored = await s.ctx.db('application_notes').where({ id: r.body.id }).first();
      expect(stored.text).to.equal('Call reversed backx 👩‍💻 \u200d\u200c ok\nline two');
      // Nothing but overrides is a blank note.
      const blank = await call(`/api/hr/applications/${appId}/notes/`, { method: 'POST', body: { text: '\u202e\u2066' } });
      expect(blank.status).to.equal(400);
    });
  });
}
