/**
 * Answers in the job's question order (issue 30), over HTTP on SQLite and MySQL: an application
 * through the apply API to a job whose checkbox questions sit between the others keeps them in
 * place (the detail API and the page), an application stored before the fix (plain answers first)
 * reads in question order too, and an answer to a since-deleted question comes last.
 */
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { hrSession } from '../helpers/hr.js';
import { makeJob } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { toFormData, validFields } from '../fixtures/apply.js';
import { hr } from './helpers.js';

const q = (text: string, answer_type: string, order: number, options: string[] = []) => ({
  text,
  answer_type,
  required: false,
  order,
  options,
  placeholder: '',
  help_text: '',
});

for (const kind of databaseKinds()) {
  describe(`answers in question order [${kind}]`, () => {
    let s: TestServer;
    let token: string;
    let appId: number;
    let questionIds: number[];

    before(async () => {
      s = await startTestServer(kind, { APPLY_RATE_LIMIT: '0' });
      ({ token } = await hrSession(s.ctx.db));
      const job = await makeJob(s.ctx.db, {
        title: 'Support Lead',
        public_id: 'support-1',
        questions: [
          q('Tools you use', 'checkbox', 0, ['Zendesk', 'Jira']),
          q('Why us?', 'short_text', 1),
          q('Languages', 'checkbox', 2, ['English', 'Hindi']),
          q('Years in support', 'number', 3),
        ],
      });
      questionIds = job.questions.map((x) => x.id);
      const [tools, why, langs, years] = questionIds;
      const answers = [
        { question_id: years, answer: '6' },
        { question_id: langs, answer: ['English', 'Hindi'] },
        { question_id: why, answer: 'The customers' },
        { question_id: tools, answer: ['Jira'] },
      ];
      const res = await fetch(`${s.baseUrl}/api/jobs/support-1/apply/`, {
        method: 'POST',
        body: toFormData(validFields({ answers: JSON.stringify(answers) })),
      });
      expect(res.status, await res.clone().text()).to.equal(201);
      appId = Number((await s.ctx.db('applications').first('id')).id);
    });
    after(() => s?.close());

    const detailAnswers = async () => {
      const r = await hr(s.baseUrl, token, `/api/hr/applications/${appId}/`);
      expect(r.status).to.equal(200);
      return r.body.answers.map((a: { question_text: string; answer: unknown }) => [a.question_text, a.answer]);
    };
    const IN_ORDER = [
      ['Tools you use', ['Jira']],
      ['Why us?', 'The customers'],
      ['Languages', ['English', 'Hindi']],
      ['Years in support', 6],
    ];

    it('stores and shows the answers in the order of the questions, checkbox answers in their place', async () => {
      expect(await detailAnswers()).to.deep.equal(IN_ORDER);
      // Written in that order too: the rows' ids follow the questions.
      const rows = await s.ctx.db('application_answers').where('application_id', appId).orderBy('id').select('question_id');
      expect(rows.map((r) => Number(r.question_id))).to.deep.equal(questionIds);
      // The page lists them in the same order.
      const page = await fetch(`${s.baseUrl}/hr/applicants/${appId}`, { headers: { Cookie: `jwt=${token}` } });
      const html = await page.text();
      const at = IN_ORDER.map(([text]) => html.indexOf(`>${text}<`));
      expect(at.every((i) => i > 0)).to.equal(true);
      expect(at).to.deep.equal([...at].sort((a, b) => a - b));
    });

    it('reads answers stored before the fix (checkbox answers last) in question order, a deleted question last', async () => {
      // As the old writer stored them: the plain answers first, then the checkbox answers.
      const rows = await s.ctx.db('application_answers').where('application_id', appId).select('*');
      const choices = await s.ctx
        .db('application_answer_choices')
        .whereIn(
          'answer_id',
          rows.map((r) => r.id),
        )
        .select('*');
      await s.ctx
        .db('application_answer_choices')
        .whereIn(
          'answer_id',
          rows.map((r) => r.id),
        )
        .delete();
      await s.ctx.db('application_answers').where('application_id', appId).delete();
      const plainFirst = [...rows].sort(
        (a, b) => Number(choices.some((c) => c.answer_id === a.id)) - Number(choices.some((c) => c.answer_id === b.id)),
      );
      for (const r of plainFirst) {
        const { id: oldId, ...row } = r;
        const [id] = await s.ctx.db('application_answers').insert(row);
        for (const { id: _choiceId, ...c } of choices.filter((x) => x.answer_id === oldId))
          await s.ctx.db('application_answer_choices').insert({ ...c, answer_id: id });
      }
      expect(await detailAnswers()).to.deep.equal(IN_ORDER);
      // The job's questions reordered: the answers follow the job as it is now.
      await s.ctx.db('job_questions').where('id', questionIds[3]).update({ position: -1 });
      expect((await detailAnswers()).map(([text]: [string]) => text)).to.deep.equal([
        'Years in support',
        'Tools you use',
        'Why us?',
        'Languages',
      ]);
      // An answer whose question is gone (question_id set null) comes after the others.
      await s.ctx.db('application_answers').where({ application_id: appId, question_id: questionIds[3] }).update({ question_id: null });
      expect((await detailAnswers()).map(([text]: [string]) => text)).to.deep.equal([
        'Tools you use',
        'Why us?',
        'Languages',
        'Years in support',
      ]);
    });
  });
}
