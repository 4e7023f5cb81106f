/**
 * Interview kits and scorecards over HTTP on SQLite and MySQL (issue 31): kit templates (CRUD,
 * bad input answered 400, unknown ids 404), a job's stage kits (list per stage, PUT from a
 * template), asking for feedback (an HR user or an outside email; bad input, unknown ids,
 * twice), drafts (only the kit's attributes, ratings 1-4 or null, only the author), submitting,
 * blind until submitted, the 24 h edit window and amendments after it; every route refuses a
 * missing token.
 */
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { createHrUser, liveToken } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { hr, seedPeople, type Seeded } from '../applicants/helpers.js';
import { createHash } from 'node:crypto';
import { toDbDate } from '../../src/db/codecs.js';
import { remindOverdueScorecards } from '../../src/scorecards/index.js';

const LEVELS = ['Could not do it', 'Needed a lot of help', 'Did it well', 'Did it better than we do'];
const KIT = {
  instructions: 'Ask about a system they built.\nTake notes.',
  questions: ['Design a URL shortener.', 'Tell us about a hard bug.'],
  attributes: [
    { name: 'System design', levels: LEVELS },
    { name: 'Communication', levels: LEVELS },
  ],
};

type Who = { id: number; token: string };

for (const kind of databaseKinds()) {
  describe(`interview kits and scorecards API [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    let seeded: Seeded;
    let admin: Who;
    let rita: Who;
    let ian: Who;
    let appId: number;
    let stages: { id: number; name: string }[];

    before(async () => {
      // Email on, no delivery worker here: queued emails stay PENDING for the checks.
      s = await startTestServer(kind, { SMTP_URL: 'smtp://127.0.0.1:9' });
      seeded = await seedPeople(s.ctx.db);
      const make = async (name: string, role: 'admin' | 'recruiter') => {
        const id = await createHrUser(s.ctx.db, name, { role });
        return { id, token: await liveToken(s.ctx.db, id) };
      };
      admin = await make('alice', 'admin');
      rita = await make('rita', 'recruiter');
      ian = await make('ian', 'recruiter');
      appId = seeded.ids.get('jose.muller@example.com')!;
      stages = (await s.ctx.db('job_stages').where({ job_id: seeded.jobA.id }).orderBy('position').select('id', 'name')).map((r: any) => ({
        id: Number(r.id),
        name: r.name,
      }));
    });
    after(() => s.close());

    const as =
      (who: Who) =>
      (p: string, init: { method?: string; body?: unknown } = {}) =>
        hr(s.baseUrl, who.token, p, init);
    const interview = () => stages.find((st) => st.name === 'Interview')!;

    it('refuses every route without a valid token (401)', async () => {
      const routes: [string, string][] = [
        ['GET', '/api/hr/kit-templates/'],
        ['POST', '/api/hr/kit-templates/'],
        ['PUT', '/api/hr/kit-templates/1/'],
        ['DELETE', '/api/hr/kit-templates/1/'],
        ['GET', `/api/hr/jobs/${seeded.jobA.id}/kits/`],
        ['PUT', `/api/hr/jobs/${seeded.jobA.id}/kits/1/`],
        ['GET', `/api/hr/applications/${appId}/scorecards/`],
        ['POST', `/api/hr/applications/${appId}/scorecards/`],
        ['PATCH', `/api/hr/applications/${appId}/scorecards/1/`],
        ['POST', `/api/hr/applications/${appId}/scorecards/1/submit/`],
        ['POST', `/api/hr/applications/${appId}/scorecards/1/amendments/`],
      ];
      for (const [method, p] of routes) {
        for (const token of ['', 'not-a-token']) {
          const res = await fetch(s.baseUrl + p, {
            method,
            headers: token
              ? { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }
              : { 'Content-Type': 'application/json' },
            body: method === 'GET' || method === 'DELETE' ? undefined : '{}',
          });
          expect(res.status, `${method} ${p} token=${token}`).to.equal(401);
        }
      }
    });

    describe('kit templates', () => {
      it('creates, lists, reads, replaces and deletes a template', async () => {
        const created = await as(admin)('/api/hr/kit-templates/', { method: 'POST', body: { name: '  Engineering onsite ', ...KIT } });
        expect(created.status).to.equal(201);
        expect(created.body).to.include({ name: 'Engineering onsite', instructions: KIT.instructions });
        expect(created.body.questions).to.deep.equal(KIT.questions);
        expect(created.body.attributes).to.deep.equal(KIT.attributes);
        const list = await as(rita)('/api/hr/kit-templates/');
        expect(list.body.results.map((t: any) => t.name)).to.deep.equal(['Engineering onsite']);
        const id = created.body.id;
        const replaced = await as(rita)(`/api/hr/kit-templates/${id}/`, {
          method: 'PUT',
          body: { name: 'Engineering', instructions: '', questions: [], attributes: [{ name: 'Coding', levels: LEVELS }] },
        });
        expect(replaced.status).to.equal(200);
        expect(replaced.body.attributes.map((a: any) => a.name)).to.deep.equal(['Coding']);
        expect((await as(rita)(`/api/hr/kit-templates/${id}/`)).body.name).to.equal('Engineering');
        expect((await as(rita)(`/api/hr/kit-templates/${id}/`, { method: 'DELETE' })).status).to.equal(204);
        expect((await as(rita)(`/api/hr/kit-templates/${id}/`)).status).to.equal(404);
        expect((await as(rita)(`/api/hr/kit-templates/${id}/`, { method: 'DELETE' })).status).to.equal(404);
      });

      it('answers bad templates with 400 and clear messages, unknown ids with 404', async () => {
        const post = (body: unknown) => as(admin)('/api/hr/kit-templates/', { method: 'POST', body });
        const cases: [unknown, string, string][] = [
          [{ ...KIT }, 'name', 'This field is required.'],
          [{ name: 7, ...KIT }, 'name', 'Must be text.'],
          [{ name: 'x'.repeat(101), ...KIT }, 'name', 'Ensure this field has no more than 100 characters.'],
          [{ name: 'Bad\u202Ename', ...KIT }, 'name', 'Remove the invisible or text-direction characters (such as U+200B or U+202E).'],
          [{ name: 'A', questions: 'one' }, 'questions', 'Must be a list.'],
          [{ name: 'A', questions: Array(31).fill('q') }, 'questions', 'A kit has at most 30 questions.'],
          [{ name: 'A', questions: ['x'.repeat(501)] }, 'questions.0', 'Ensure this field has no more than 500 characters.'],
          [
            { name: 'A', attributes: [{ name: 'X', levels: ['a', 'b'] }] },
            'attributes.0.levels',
            'Give what each rating from 1 to 4 means: a list of 4 texts.',
          ],
          [{ name: 'A', attributes: [{ name: '', levels: LEVELS }] }, 'attributes.0.name', 'This field is required.'],
          [
            {
              name: 'A',
              attributes: [
                { name: 'X', levels: LEVELS },
                { name: 'x', levels: LEVELS },
              ],
            },
            'attributes',
            'Each attribute is named once.',
          ],
          [
            { name: 'A', attributes: Array.from({ length: 21 }, (_, i) => ({ name: `a${i}`, levels: LEVELS })) },
            'attributes',
            'A kit has at most 20 attributes.',
          ],
          [{ name: 'A', attributes: [null] }, 'attributes.0', 'Must be an object.'],
          [{ name: 'A', instructions: 'x'.repeat(5001) }, 'instructions', 'Ensure this field has no more than 5000 characters.'],
        ];
        for (const [body, field, message] of cases) {
          const res = await post(body);
          expect(res.status, JSON.stringify(body).slice(0, 80)).to.equal(400);
          expect(res.body[field], `${field}: ${JSON.stringify(res.body)}`).to.deep.equal([message]);
        }
        for (const body of [null, [], 'text', 7]) expect((await post(body)).status).to.equal(400);
        expect((await post({ name: 'Same', ...KIT })).status).to.equal(201);
        expect((await post({ name: 'SAME', ...KIT })).body).to.deep.equal({ name: ['A template with this name already exists.'] });
        for (const bad of ['999999', '0', 'abc', '1e3', '99999999999'])
          expect((await as(admin)(`/api/hr/kit-templates/${bad}/`)).body).to.deep.equal({ detail: 'Kit template not found.' });
      });
    });

    describe('stage kits', () => {
      it('lists every stage of the job with its kit, and saves a stage kit from a template', async () => {
        const empty = await as(rita)(`/api/hr/jobs/${seeded.jobA.id}/kits/`);
        expect(empty.status).to.equal(200);
        expect(empty.body.job).to.deep.equal({ id: seeded.jobA.id, title: 'Backend Engineer' });
        expect(empty.body.stages.map((st: any) => [st.stage_name, st.kit])).to.deep.equal(stages.map((st) => [st.name, null]));
        const template = (await as(rita)('/api/hr/kit-templates/', { method: 'POST', body: { name: 'Onsite', ...KIT } })).body;
        const saved = await as(rita)(`/api/hr/jobs/${seeded.jobA.id}/kits/${interview().id}/`, {
          method: 'PUT',
          body: { ...KIT, template_id: template.id },
        });
        expect(saved.status).to.equal(200);
        const kit = saved.body.stages.find((st: any) => st.stage_id === interview().id).kit;
        expect(kit).to.include({ template_id: template.id, instructions: KIT.instructions });
        expect(kit.attributes).to.deep.equal(KIT.attributes);
        // A second PUT replaces it (one kit per stage).
        const again = await as(rita)(`/api/hr/jobs/${seeded.jobA.id}/kits/${interview().id}/`, { method: 'PUT', body: KIT });
        expect(again.body.stages.filter((st: any) => st.kit).length).to.equal(1);
        expect(Number((await s.ctx.db('interview_kits').count({ n: '*' }))[0].n)).to.equal(1);
      });

      it('saves a stage kit asked for by several requests at once: all answered, one kit', async () => {
        const put = () => as(rita)(`/api/hr/jobs/${seeded.jobA.id}/kits/${interview().id}/`, { method: 'PUT', body: KIT });
        const answers = await Promise.all(Array.from({ length: 8 }, put));
        expect(answers.map((a) => a.status)).to.deep.equal(Array(8).fill(200));
        expect(Number((await s.ctx.db('interview_kits').count({ n: '*' }))[0].n)).to.equal(1);
      });

      it('answers unknown jobs and stages with 404 and bad kits with 400', async () => {
        expect((await as(rita)('/api/hr/jobs/999999/kits/')).body).to.deep.equal({ detail: 'Job not found.' });
        expect((await as(rita)('/api/hr/jobs/999999/kits/1/', { method: 'PUT', body: KIT })).status).to.equal(404);
        const otherStage = Number((await s.ctx.db('job_stages').where({ job_id: seeded.jobB.id }).first('id')).id);
        const res = await as(rita)(`/api/hr/jobs/${seeded.jobA.id}/kits/${otherStage}/`, { method: 'PUT', body: KIT });
        expect(res.status).to.equal(404);
        expect(res.body).to.deep.equal({ detail: 'Stage not found for this job.' });
        const put = (body: unknown) => as(rita)(`/api/hr/jobs/${seeded.jobA.id}/kits/${interview().id}/`, { method: 'PUT', body });
        expect((await put({ ...KIT, template_id: 999999 })).body).to.deep.equal({
          template_id: ['Choose a kit template from the list, or null.'],
        });
        expect((await put({ ...KIT, template_id: '1; DROP TABLE jobs' })).status).to.equal(400);
        expect((await put({ ...KIT, attributes: 'System design' })).body).to.deep.equal({ attributes: ['Must be a list.'] });
        expect((await put({ ...KIT, instructions: { a: 1 } })).body).to.deep.equal({ instructions: ['Must be text.'] });
      });
    });

    describe('scorecards', () => {
      const base = () => `/api/hr/applications/${appId}/scorecards/`;
      let ianCard: number;
      let ritaCard: number;

      it('asks an HR user and an outside person for feedback; bad requests are 400, unknown ids 404, twice 409', async () => {
        const asked = await as(admin)(base(), {
          method: 'POST',
          body: { stage: interview().id, interviewer_user_id: ian.id, interview_at: '2026-12-01T09:00:00+01:00' },
        });
        expect(asked.status).to.equal(201);
        expect(asked.body).to.include({
          status: 'draft',
          stage_name: 'Interview',
          interview_at: '2026-12-01T08:00:00.000Z',
          requested_by: 'alice',
        });
        expect(asked.body.interviewer).to.deep.equal({ user_id: ian.id, name: 'ian', email: null });
        ianCard = asked.body.id;
        ritaCard = (await as(admin)(base(), { method: 'POST', body: { stage: interview().id, interviewer_user_id: rita.id } })).body.id;
        const outside = await as(admin)(base(), {
          method: 'POST',
          body: { stage: interview().id, interviewer_email: ' Olga@Example.COM ', interviewer_name: 'Olga Ortiz' },
        });
        expect(outside.status).to.equal(201);
        expect(outside.body.interviewer).to.deep.equal({ user_id: null, name: 'Olga Ortiz', email: 'olga@example.com' });

        const again = await as(admin)(base(), { method: 'POST', body: { stage: interview().id, interviewer_user_id: ian.id } });
        expect(again.status).to.equal(409);
        expect(again.body.detail).to.equal('This interviewer has already been asked for feedback on this application at this stage.');

        const otherStage = Number((await s.ctx.db('job_stages').where({ job_id: seeded.jobB.id }).first('id')).id);
        const inactive = await createHrUser(s.ctx.db, 'gone', { active: false });
        const cases: [unknown, Record<string, string[]>][] = [
          [{ interviewer_user_id: ian.id }, { stage: ['This field is required.'] }],
          [{ stage: 'Interview', interviewer_user_id: ian.id }, { stage: ["Choose a stage of this application's job."] }],
          [{ stage: otherStage, interviewer_user_id: ian.id }, { stage: ["Choose a stage of this application's job."] }],
          [{ stage: interview().id }, { interviewer_email: ["Choose an HR user, or give the outside interviewer's email and name."] }],
          [{ stage: interview().id, interviewer_user_id: 999999 }, { interviewer_user_id: ['Choose an active HR user.'] }],
          [{ stage: interview().id, interviewer_user_id: inactive }, { interviewer_user_id: ['Choose an active HR user.'] }],
          [{ stage: interview().id, interviewer_user_id: [1] }, { interviewer_user_id: ['Choose an active HR user.'] }],
          [
            { stage: interview().id, interviewer_user_id: ian.id, interviewer_email: 'a@b.co' },
            { interviewer_email: ["Give either an HR user or an outside interviewer's email, not both."] },
          ],
          [
            { stage: interview().id, interviewer_email: 'not-an-email', interviewer_name: 'X' },
            { interviewer_email: ['Enter a valid email address.'] },
          ],
          [{ stage: interview().id, interviewer_email: 'a@b.co' }, { interviewer_name: ['This field is required.'] }],
          [
            { stage: interview().id, interviewer_email: 'a@b.co', interviewer_name: 'x'.repeat(101) },
            { interviewer_name: ['Ensure this field has no more than 100 characters.'] },
          ],
          [
            { stage: interview().id, interviewer_email: 'a@b.co', interviewer_name: 'Eve\nBcc: x' },
            { interviewer_name: ['Enter this on one line, without control characters.'] },
          ],
          [
            { stage: interview().id, interviewer_user_id: ian.id, interview_at: 'tomorrow' },
            {
              interview_at: ['The interview time must be a date and time with its time zone, such as 2026-12-01T09:00:00+01:00, or null.'],
            },
          ],
        ];
        for (const [body, errors] of cases) {
          const res = await as(admin)(base(), { method: 'POST', body });
          expect(res.status, JSON.stringify(body)).to.equal(400);
          expect(res.body, JSON.stringify(body)).to.deep.equal(errors);
        }
        expect((await as(admin)('/api/hr/applications/999999/scorecards/')).body).to.deep.equal({ detail: 'Application not found.' });
        expect((await as(admin)('/api/hr/applications/x/scorecards/', { method: 'POST', body: {} })).status).to.equal(404);
        expect((await as(admin)(`${base()}999999/`)).body).to.deep.equal({ detail: 'Scorecard not found.' });
        expect((await as(admin)(`/api/hr/applications/${seeded.ids.get('bjorn@example.no')}/scorecards/${ianCard}/`)).status).to.equal(404);
      });

      it("keeps the author's draft, with the kit shown to the author only; rates only the kit's attributes, 1 to 4 or null", async () => {
        const mine = await as(ian)(`${base()}${ianCard}/`);
        expect(mine.body).to.include({ mine: true, content_hidden: false });
        expect(mine.body.kit.questions).to.deep.equal(KIT.questions);
        expect((await as(admin)(`${base()}${ianCard}/`)).body.kit).to.equal(null);
        const patch = (body: unknown, who = ian) => as(who)(`${base()}${ianCard}/`, { method: 'PATCH', body });
        const saved = await patch({
          ratings: [
            { attribute: 'communication', rating: null, note: 'Did not come up.' },
            { attribute: 'System design', rating: 3, note: 'Good <b>trade-offs</b>' },
          ],
          recommendation: 'yes',
        });
        expect(saved.status).to.equal(200);
        expect(saved.body.ratings).to.deep.equal([
          { attribute: 'System design', rating: 3, note: 'Good <b>trade-offs</b>' },
          { attribute: 'Communication', rating: null, note: 'Did not come up.' },
        ]);
        expect(saved.body).to.include({ recommendation: 'yes', status: 'draft' });
        // Only the recommendation: the ratings stay.
        expect((await patch({ recommendation: 'strong_yes' })).body.ratings).to.have.length(2);

        const cases: [unknown, Record<string, string[]>][] = [
          [{ ratings: [{ attribute: 'Charm', rating: 2 }] }, { 'ratings.0.attribute': ["Rate only the attributes of this stage's kit."] }],
          [
            { ratings: [{ attribute: 'System design', rating: 5 }] },
            { 'ratings.0.rating': ['A rating is a whole number from 1 to 4, or null for "no evidence".'] },
          ],
          [
            { ratings: [{ attribute: 'System design', rating: '3' }] },
            { 'ratings.0.rating': ['A rating is a whole number from 1 to 4, or null for "no evidence".'] },
          ],
          [
            { ratings: [{ attribute: 'System design', rating: 2.5 }] },
            { 'ratings.0.rating': ['A rating is a whole number from 1 to 4, or null for "no evidence".'] },
          ],
          [
            { ratings: [{ attribute: 'System design', rating: 1, note: 'x'.repeat(5001) }] },
            { 'ratings.0.note': ['Ensure this field has no more than 5000 characters.'] },
          ],
          [
            {
              ratings: [
                { attribute: 'System design', rating: 1 },
                { attribute: 'SYSTEM DESIGN', rating: 2 },
              ],
            },
            { ratings: ['Give at most 20 ratings, each attribute once.'] },
          ],
          [{ ratings: { 'System design': 3 } }, { ratings: ['Must be a list.'] }],
          [
            { recommendation: 'maybe' },
            { recommendation: ['The recommendation is one of strong_no, no, yes, strong_yes (Strong no, No, Yes, Strong yes), or null.'] },
          ],
          [[], { detail: 'Must be an object.' } as never],
        ];
        for (const [body, errors] of cases) {
          const res = await patch(body);
          expect(res.status, JSON.stringify(body).slice(0, 80)).to.equal(400);
          expect(res.body, JSON.stringify(body).slice(0, 80)).to.deep.include(errors);
        }
        for (const who of [admin, rita]) {
          const res = await patch({ recommendation: 'no' }, who);
          expect(res.status).to.equal(403);
          expect(res.body.detail).to.equal('Only the interviewer who writes this scorecard may change it.');
          expect((await as(who)(`${base()}${ianCard}/submit/`, { method: 'POST' })).status).to.equal(403);
        }
        expect((await as(ian)(`${base()}${ianCard}/`)).body.recommendation).to.equal('strong_yes');
      });

      it('is blind until submitted: a viewer with an unsubmitted scorecard sees no one else’s content', async () => {
        // Rita cannot submit without a recommendation; then fills hers in and submits.
        const noRec = await as(rita)(`${base()}${ritaCard}/submit/`, { method: 'POST' });
        expect(noRec.status).to.equal(400);
        expect(noRec.body).to.deep.equal({ recommendation: ['Choose an overall recommendation before submitting.'] });
        await as(rita)(`${base()}${ritaCard}/`, {
          method: 'PATCH',
          body: { ratings: [{ attribute: 'System design', rating: 2, note: 'Shaky' }], recommendation: 'no' },
        });
        const submitted = await as(rita)(`${base()}${ritaCard}/submit/`, { method: 'POST' });
        expect(submitted.status).to.equal(200);
        expect(submitted.body.status).to.equal('submitted');
        expect((await as(rita)(`${base()}${ritaCard}/submit/`, { method: 'POST' })).body.detail).to.equal(
          'This scorecard has already been submitted.',
        );

        // Ian has not submitted: Rita's card is listed without its content.
        const ianView = await as(ian)(base());
        expect(ianView.body.blind).to.equal(true);
        const ritaSeenByIan = ianView.body.results.find((c: any) => c.id === ritaCard);
        expect(ritaSeenByIan).to.include({ content_hidden: true, recommendation: null, status: 'submitted' });
        expect(ritaSeenByIan.ratings).to.deep.equal([]);
        expect(ritaSeenByIan.hidden_reason).to.equal('Hidden until you submit your own scorecard on this application.');
        expect(JSON.stringify(ianView.body)).not.to.include('Shaky');
        expect((await as(ian)(`${base()}${ritaCard}/`)).body.content_hidden).to.equal(true);

        // Rita (submitted) and Alice (no scorecard) see Rita's content, and not Ian's draft.
        for (const who of [rita, admin]) {
          const list = await as(who)(base());
          expect(list.body.blind).to.equal(false);
          expect(list.body.results.find((c: any) => c.id === ritaCard).recommendation).to.equal('no');
          const draft = list.body.results.find((c: any) => c.id === ianCard);
          expect(draft).to.include({
            content_hidden: true,
            recommendation: null,
            hidden_reason: 'A draft: only its interviewer sees it until it is submitted.',
          });
        }

        // Once Ian submits, he sees Rita's.
        expect((await as(ian)(`${base()}${ianCard}/submit/`, { method: 'POST' })).status).to.equal(200);
        const after = await as(ian)(base());
        expect(after.body.blind).to.equal(false);
        expect(after.body.results.find((c: any) => c.id === ritaCard).ratings[0]).to.deep.equal({
          attribute: 'System design',
          rating: 2,
          note: 'Shaky',
        });
      });

      it('lets the author edit for 24 hours after submitting, then only amend with a visible note', async () => {
        const patch = (body: unknown) => as(ian)(`${base()}${ianCard}/`, { method: 'PATCH', body });
        const within = await patch({ recommendation: 'yes' });
        expect(within.status).to.equal(200);
        expect(within.body).to.include({ recommendation: 'yes', status: 'submitted' });
        expect((await patch({ recommendation: null })).body).to.deep.equal({
          recommendation: ['Choose an overall recommendation before submitting.'],
        });
        const draftAmend = await as(admin)(base(), { method: 'POST', body: { stage: interview().id, interviewer_user_id: admin.id } });
        const amendDraft = await as(admin)(`${base()}${draftAmend.body.id}/amendments/`, { method: 'POST', body: { note: 'x' } });
        expect(amendDraft.status).to.equal(409);
        expect(amendDraft.body.detail).to.equal('Only a submitted scorecard takes amendments: edit the draft instead.');

        // Submitted 25 hours ago (as if the clock had moved on).
        await s.ctx
          .db('scorecards')
          .where({ id: ianCard })
          .update({ submitted_at: toDbDate(new Date(Date.now() - 25 * 3_600_000)) });
        const late = await patch({ recommendation: 'strong_no' });
        expect(late.status).to.equal(409);
        expect(late.body.detail).to.equal(
          'This scorecard was submitted more than 24 hours ago: it can no longer be edited. Add an amendment with a note instead.',
        );
        const amendments = `${base()}${ianCard}/amendments/`;
        expect((await as(ian)(amendments, { method: 'POST', body: {} })).body).to.deep.equal({ note: ['This field is required.'] });
        expect((await as(ian)(amendments, { method: 'POST', body: { note: '   ' } })).body).to.deep.equal({
          note: ['This field is required.'],
        });
        expect((await as(ian)(amendments, { method: 'POST', body: { note: 42 } })).body).to.deep.equal({ note: ['Must be text.'] });
        expect((await as(rita)(amendments, { method: 'POST', body: { note: 'Mine' } })).status).to.equal(403);
        const added = await as(ian)(amendments, { method: 'POST', body: { note: 'On reflection, communication was a 2.' } });
        expect(added.status).to.equal(201);
        expect(added.body.recommendation).to.equal('yes');
        expect(added.body.amendments.map((a: any) => [a.note, a.author])).to.deep.equal([['On reflection, communication was a 2.', 'ian']]);
        const seen = (await as(rita)(base())).body.results.find((c: any) => c.id === ianCard);
        expect(seen.amendments).to.have.length(1);
      });
    });
    describe('debrief', () => {
      const base = () => `/api/hr/applications/${appId}`;

      it('posts scorecard.submitted to the job webhook through the outbox and shows the submission on the timeline', async () => {
        await s.ctx
          .db('jobs')
          .where({ id: seeded.jobA.id })
          .update({ webhook_enabled: true, webhook_url: 'https://hooks.example.com/careers' });
        const mine = (await as(admin)(`${base()}/scorecards/`)).body.results.find((c: any) => c.mine);
        await as(admin)(`${base()}/scorecards/${mine.id}/`, {
          method: 'PATCH',
          body: { ratings: [{ attribute: 'System design', rating: 4, note: '' }], recommendation: 'strong_yes' },
        });
        const submitted = await as(admin)(`${base()}/scorecards/${mine.id}/submit/`, { method: 'POST' });
        expect(submitted.status).to.equal(200);
        const posts = await s.ctx.db('application_posts').where({ application_id: appId }).select('*');
        expect(posts).to.have.length(1);
        expect(posts[0]).to.include({ status: 'PENDING', target_url: 'https://hooks.example.com/careers', job_id: seeded.jobA.id });
        const payload = typeof posts[0].payload === 'string' ? JSON.parse(posts[0].payload) : posts[0].payload;
        expect(payload).to.deep.equal({
          event: 'scorecard.submitted',
          application_id: appId,
          stage: 'Interview',
          interviewer: 'alice',
          recommendation: 'strong_yes',
          submitted_at: submitted.body.submitted_at,
        });
        const timeline = (await as(rita)(`${base()}/timeline/`)).body.results.map((e: any) => e.text);
        expect(timeline).to.include.members([
          'Scorecard submitted by rita (No)',
          'Scorecard submitted by ian (Strong yes)',
          'Scorecard submitted by alice (Strong yes)',
        ]);
      });

      it('shows every submitted scorecard side by side with the spread per attribute, and blinds a viewer with a scorecard to submit', async () => {
        const res = await as(rita)(`${base()}/debrief/`);
        expect(res.status).to.equal(200);
        expect(res.body.hidden_reason).to.equal(null);
        const [stage] = res.body.stages;
        expect(stage.stage_name).to.equal('Interview');
        expect(stage.interviewers.map((i: any) => [i.name, i.recommendation])).to.deep.equal([
          ['ian', 'yes'],
          ['rita', 'no'],
          ['alice', 'strong_yes'],
        ]);
        expect(stage.attributes).to.deep.equal([
          { name: 'System design', min: 2, max: 4, ratings: [3, 2, 4] },
          { name: 'Communication', min: null, max: null, ratings: [null, null, null] },
        ]);
        // Olga (outside, not submitted) is left out; a new HR interviewer with a draft sees nothing yet.
        const dan = await createHrUser(s.ctx.db, 'dan', { role: 'recruiter' });
        const danToken = await liveToken(s.ctx.db, dan);
        await as(rita)(`${base()}/scorecards/`, { method: 'POST', body: { stage: interview().id, interviewer_user_id: dan } });
        const blind = await hr(s.baseUrl, danToken, `${base()}/debrief/`);
        expect(blind.body).to.deep.equal({
          stages: [],
          decisions: [],
          hidden_reason: 'Hidden until you submit your own scorecard on this application.',
        });
        const refused = await hr(s.baseUrl, danToken, `${base()}/debrief/decisions/`, { method: 'POST', body: { decision: 'offer' } });
        expect(refused.status).to.equal(409);
        expect(refused.body.detail).to.equal('Submit your own scorecard on this application before deciding.');
        expect((await as(rita)('/api/hr/applications/999999/debrief/')).status).to.equal(404);
      });

      it('records advance, reject and offer with who made them, through the pipeline; bad decisions are 400', async () => {
        const decide = (body: unknown) => as(rita)(`${base()}/debrief/decisions/`, { method: 'POST', body });
        expect((await decide({})).body).to.deep.equal({ decision: ['This field is required.'] });
        expect((await decide({ decision: 'hire' })).body).to.deep.equal({ decision: ['The decision is one of advance, reject, offer.'] });
        expect((await decide({ decision: 'reject' })).body).to.deep.equal({ reason: ['Give a rejection reason from the list.'] });
        expect((await decide({ decision: 'reject', reason: 'Too tall' })).status).to.equal(400);
        expect((await decide({ decision: 'reject', reason: ['Not a fit'] })).status).to.equal(400);
        const stageOf = async () => Number((await s.ctx.db('applications').where({ id: appId }).first('stage_id')).stage_id);
        const before = await stageOf();
        const advanced = await decide({ decision: 'advance' });
        expect(advanced.status).to.equal(201);
        const i = stages.findIndex((st) => st.id === before);
        expect(await stageOf()).to.equal(stages[i + 1].id);
        expect((await decide({ decision: 'offer' })).status).to.equal(201);
        const rejected = await decide({ decision: 'reject', reason: 'Not a fit' });
        expect(rejected.status).to.equal(201);
        expect((await s.ctx.db('applications').where({ id: appId }).first('outcome')).outcome).to.equal('REJECTED');
        expect(rejected.body.decisions.map((d: any) => [d.decision, d.reason, d.by, d.stage_name])).to.deep.equal([
          ['advance', null, 'rita', stages[i].name],
          ['offer', null, 'rita', stages[i + 1].name],
          ['reject', 'Not a fit', 'rita', stages[i + 1].name],
        ]);
        const again = await decide({ decision: 'advance' });
        expect(again.status).to.equal(409);
        expect(again.body.detail).to.equal('This application is rejected: move it back to a stage on its board before advancing it.');
        const timeline = (await as(rita)(`${base()}/timeline/`)).body.results.map((e: any) => e.text);
        expect(timeline).to.include.members([
          `Debrief decision by rita: advance to ${stages[i + 1].name}`,
          'Debrief decision by rita: offer',
          'Debrief decision by rita: reject (Not a fit)',
        ]);
      });
    });
    describe('feedback without an account', () => {
      const linkOf = async (to: string) => {
        const rows = await s.ctx.db('email_posts').where({ template_name: 'Feedback request' }).select('*');
        const row = rows.find((r: any) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload).to === to);
        const raw = typeof row.payload === 'string' ? row.payload : JSON.stringify(row.payload);
        return { row, raw, token: raw.match(/\/feedback\/([A-Za-z0-9_-]{43})/)![1] };
      };
      const page = async (p: string, init: RequestInit = {}) => {
        const res = await fetch(s.baseUrl + p, { redirect: 'manual', ...init });
        return { status: res.status, text: await res.text() };
      };
      const post = (token: string, form: Record<string, string>) =>
        page(`/feedback/${token}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(form).toString(),
        });

      it('emails the outside interviewer a single-person link, stored hashed, to the resume, the kit and their scorecard only', async () => {
        const { raw, token } = await linkOf('olga@example.com');
        expect(raw).to.include('Your feedback on José Müller for Backend Engineer');
        const card = await s.ctx.db('scorecards').where({ interviewer_email: 'olga@example.com' }).first();
        expect(card.token_hash).to.equal(createHash('sha256').update(token).digest('hex'));
        expect(JSON.stringify(card)).not.to.include(token);
        const res = await page(`/feedback/${token}`);
        expect(res.status).to.equal(200);
        expect(res.text).to.include('Feedback on José Müller').and.include('Design a URL shortener.').and.include('Olga Ortiz');
        // Nothing else: no HR header, no contact details, no one else's feedback.
        for (const absent of ['Logout', 'jose.muller@example.com', '+491701234567', 'Shaky', 'Clear trade-offs', '/hr/'])
          expect(res.text).not.to.include(absent);
        for (const bad of ['x', 'A'.repeat(43), `${token}x`]) expect((await page(`/feedback/${bad}`)).status).to.equal(404);
      });

      it('saves the draft, refuses bad input with 400, and dies with 410 once submitted', async () => {
        const { token } = await linkOf('olga@example.com');
        const bad = await post(token, { rating_0: '7', action: 'save' });
        expect(bad.status).to.equal(400);
        expect(bad.text).to.include('A rating is a whole number from 1 to 4, or null for &#34;no evidence&#34;.');
        const noRec = await post(token, { rating_0: '3', action: 'submit' });
        expect(noRec.status).to.equal(400);
        expect(noRec.text).to.include('Choose an overall recommendation before submitting.');
        const saved = await post(token, {
          rating_0: '3',
          note_0: 'Solid <script>x</script>',
          rating_1: 'none',
          recommendation: 'yes',
          action: 'save',
        });
        expect(saved.status).to.equal(200);
        expect(saved.text).to.include('Draft saved.').and.not.include('<script>x</script>');
        const card = await s.ctx.db('scorecards').where({ interviewer_email: 'olga@example.com' }).first();
        expect(JSON.parse(card.ratings)).to.deep.equal([
          { attribute: 'System design', rating: 3, note: 'Solid <script>x</script>' },
          { attribute: 'Communication', rating: null, note: '' },
        ]);
        const done = await post(token, { rating_0: '3', recommendation: 'yes', action: 'submit' });
        expect(done.status).to.equal(200);
        expect(done.text).to.include('Your scorecard was submitted.');
        const gone = await page(`/feedback/${token}`);
        expect(gone.status).to.equal(410);
        expect(gone.text).to.include('This feedback link no longer works: the scorecard was submitted.');
        expect((await post(token, { recommendation: 'no', action: 'submit' })).status).to.equal(410);
        expect((await page(`/feedback/${token}/resume`)).status).to.equal(410);
        const timeline = (await as(rita)(`/api/hr/applications/${appId}/timeline/`)).body.results.map((e: any) => e.text);
        expect(timeline).to.include('Scorecard submitted by Olga Ortiz (Yes)');
      });

      it('expires after 14 days (410)', async () => {
        const asked = await as(admin)(`/api/hr/applications/${appId}/scorecards/`, {
          method: 'POST',
          body: { stage: interview().id, interviewer_email: 'pat@example.com', interviewer_name: 'Pat' },
        });
        expect(asked.body.feedback_link).to.equal('emailed');
        const { token } = await linkOf('pat@example.com');
        const card = await s.ctx.db('scorecards').where({ id: asked.body.id }).first();
        const expires = new Date(
          card.token_expires_at instanceof Date ? card.token_expires_at : `${String(card.token_expires_at).replace(' ', 'T')}Z`,
        );
        expect(Math.round((expires.getTime() - Date.now()) / 86_400_000)).to.equal(14);
        expect((await page(`/feedback/${token}`)).status).to.equal(200);
        await s.ctx
          .db('scorecards')
          .where({ id: asked.body.id })
          .update({ token_expires_at: toDbDate(new Date(Date.now() - 1000)) });
        const gone = await page(`/feedback/${token}`);
        expect(gone.status).to.equal(410);
        expect(gone.text).to.include('This feedback link has expired.');
      });
    });
    describe('overdue scorecards', () => {
      it('lists scorecards not submitted a day after the interview, and emails each interviewer one reminder, once', async () => {
        const hoursAgo = (h: number) => toDbDate(new Date(Date.now() - h * 3_600_000));
        await s.ctx.db('hr_users').where({ username: 'dan' }).update({ email: 'dan@example.com' });
        const dan = await s.ctx.db('scorecards').where({ interviewer_name: 'dan' }).first('id');
        const pat = await s.ctx.db('scorecards').where({ interviewer_email: 'pat@example.com' }).first('id');
        // Dan: asked 25 h ago without a time; Pat: interviewed 2 days ago; a new request 23 h ago is not overdue yet.
        await s.ctx
          .db('scorecards')
          .where({ id: dan.id })
          .update({ requested_at: hoursAgo(25) });
        await s.ctx
          .db('scorecards')
          .where({ id: pat.id })
          .update({ interview_at: hoursAgo(48) });
        const fresh = await as(admin)(`/api/hr/applications/${seeded.ids.get('bjorn@example.no')}/scorecards/`, {
          method: 'POST',
          body: {
            stage: Number((await s.ctx.db('job_stages').where({ job_id: seeded.jobB.id }).first('id')).id),
            interviewer_user_id: rita.id,
          },
        });
        await s.ctx
          .db('scorecards')
          .where({ id: fresh.body.id })
          .update({ requested_at: hoursAgo(23) });

        const listed = await as(rita)('/api/hr/scorecards/overdue/');
        expect(listed.status).to.equal(200);
        expect(listed.body.results.map((r: any) => [r.interviewer, r.applicant, r.stage_name, r.reminded])).to.deep.equal([
          ['dan', 'José Müller', 'Interview', false],
          ['Pat', 'José Müller', 'Interview', false],
        ]);
        expect((await as(rita)(`/api/hr/applications/${appId}/scorecards/${dan.id}/`)).body.overdue).to.equal(true);

        expect(await remindOverdueScorecards(s.ctx)).to.equal(2);
        expect(await remindOverdueScorecards(s.ctx)).to.equal(0);
        const reminders = await s.ctx.db('email_posts').where({ template_name: 'Scorecard reminder' }).select('payload');
        const sent = reminders.map((r: any) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload));
        expect(sent.map((m: any) => m.to).sort()).to.deep.equal(['dan@example.com', 'pat@example.com']);
        expect(sent.find((m: any) => m.to === 'dan@example.com').text).to.include(`/hr/applicants/${appId}`);
        expect((await as(rita)('/api/hr/scorecards/overdue/')).body.results.every((r: any) => r.reminded)).to.equal(true);
      });
    });
  });
}
