/**
 * Reports (issue 31) from the scorecards over HTTP on SQLite and MySQL: scorecards submitted on
 * time (due 24 h after the interview), and which kit attributes go with the outcome per job with at
 * least 20 decisions (hired and rejected averages, interviewers' agreement within one point), a job
 * below the minimum only counted, never a candidate's own ratings.
 */
import { expect } from 'chai';
import { toDbDate } from '../../src/db/codecs.js';
import type { Job } from '../../src/jobs/types.js';
import { databaseKinds } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { hrSession } from '../helpers/hr.js';
import { insertApplications } from '../helpers/applications.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const H = 3600_000;
const D0 = Date.parse('2026-03-02T09:00:00Z');
const at = (hours: number) => toDbDate(new Date(D0 + hours * H));

for (const kind of databaseKinds()) {
  describe(`reports: scorecards [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    let token: string;
    let kit: Job;
    let small: Job;
    const get = async (path: string) => {
      const res = await fetch(`${s.baseUrl}${path}`, { headers: { Authorization: `Bearer ${token}` } });
      return { status: res.status, body: await res.json() };
    };

    /** `n` applications of `job` on 2026-03-02; answers their ids and the job's stages. */
    const seed = async (job: Job, n: number, tag: string) => {
      await insertApplications(
        s.ctx.db,
        job.id,
        Array.from({ length: n }, (_, i) => ({
          first_name: `${tag}${i}`,
          last_name: 'K',
          email: `${tag}${i}@example.com`,
          phone: '+15550000000',
          created_at: new Date(D0),
        })),
        [],
      );
      const ids = (await s.ctx.db('applications').where('job_id', job.id).orderBy('id').select('id')).map((r) => Number(r.id));
      const stages = await s.ctx.db('job_stages').where('job_id', job.id).orderBy('position').select('id', 'name', 'kind');
      return { ids, stages };
    };
    const card = (
      applicationId: number,
      stage: { id: number; name: string },
      ratings: [string, number | null][],
      submittedHours: number | null,
      interviewHours: number,
    ) => ({
      application_id: applicationId,
      stage_id: stage.id,
      stage_name: stage.name,
      interviewer_name: 'Interviewer',
      requested_at: at(0),
      interview_at: at(interviewHours),
      ratings: JSON.stringify(ratings.map(([attribute, rating]) => ({ attribute, rating, note: '' }))),
      recommendation: submittedHours === null ? null : 'yes',
      submitted_at: submittedHours === null ? null : at(submittedHours),
      updated_at: at(0),
    });

    before(async () => {
      s = await startTestServer(kind, { POSTS_WORKER: 'off' });
      ({ token } = await hrSession(s.ctx.db, 'reports-cards'));
      kit = await makeJob(s.ctx.db, { title: 'Kit Job', public_id: 'kit-job', status: 'ACTIVE' });
      small = await makeJob(s.ctx.db, { title: 'Small Job', public_id: 'small-job', status: 'ACTIVE' });

      // 22 decided: 11 hired, 11 rejected, two submitted scorecards each (interview at hour 24).
      const { ids, stages } = await seed(kit, 22, 'kit');
      const interview = stages[2];
      const hiredStage = stages.find((st) => st.kind === 'HIRED');
      const hired = ids.slice(0, 11);
      const rejected = ids.slice(11);
      await s.ctx.db('applications').whereIn('id', hired).update({ stage_id: hiredStage.id, status: 'ARCHIVED' });
      await s.ctx
        .db('applications')
        .whereIn('id', rejected)
        .update({ stage_id: interview.id, outcome: 'REJECTED', outcome_reason: 'Not a fit' });
      const cards = [];
      for (const id of hired) {
        cards.push(
          card(
            id,
            interview,
            [
              ['System design', 4],
              ['Communication', 3],
              ['Curiosity', null],
            ],
            26,
            24,
          ),
        );
        cards.push(
          card(
            id,
            interview,
            [
              ['System design', 3],
              ['Communication', 3],
              ['Curiosity', null],
            ],
            30,
            24,
          ),
        );
      }
      for (const id of rejected) {
        // One submitted late (30 h after the interview), one on time.
        cards.push(
          card(
            id,
            interview,
            [
              ['System design', 2],
              ['Communication', 4],
            ],
            54,
            24,
          ),
        );
        cards.push(
          card(
            id,
            interview,
            [
              ['System design', 1],
              ['Communication', 1],
            ],
            40,
            24,
          ),
        );
      }
      // Not submitted: one overdue, one whose interview is still to come (not yet due); neither compared.
      cards.push(card(hired[0], interview, [['System design', 1]], null, 24));
      cards.push({ ...card(hired[1], interview, [['System design', 1]], null, 24), interview_at: toDbDate(new Date(Date.now() + 48 * H)) });
      await s.ctx.db('scorecards').insert(cards);

      // A job with one decision: counted below the minimum, its ratings never shown.
      const smallSeed = await seed(small, 1, 'small');
      await s.ctx.db('applications').where('id', smallSeed.ids[0]).update({ outcome: 'REJECTED', outcome_reason: 'Withdrew' });
      await s.ctx.db('scorecards').insert(card(smallSeed.ids[0], smallSeed.stages[1], [['System design', 2]], 25, 24));
    });
    after(() => s?.close());

    it("counts a job's scorecards submitted on time", async () => {
      const { status, body } = await get(`/api/hr/reports/?job_id=${kit.id}&from=2026-03-01&to=2026-03-31`);
      expect(status).to.equal(200);
      expect(body.scorecards).to.deep.equal({
        requested: 46,
        submitted: 44,
        on_time: 33,
        late: 11,
        overdue: 1,
        waiting: 1,
        on_time_rate: 73.3,
      });
    });

    it('compares each attribute for hired and rejected candidates, with the agreement, above 20 decisions only', async () => {
      const { body } = await get(`/api/hr/reports/?job_id=${kit.id}&from=2026-03-01&to=2026-03-31`);
      expect(body.predictors.min_decisions).to.equal(20);
      expect(body.predictors.below_minimum).to.deep.equal([]);
      expect(body.predictors.jobs).to.deep.equal([
        {
          job_id: kit.id,
          title: 'Kit Job',
          decisions: 22,
          hired: 11,
          rejected: 11,
          attributes: [
            // 3.5 vs 1.5; every pair within a point.
            { name: 'System design', hired_average: 3.5, rejected_average: 1.5, difference: 2, agreement: 100, pairs: 22 },
            // 3 vs 2.5; the rejected candidates' pairs (4 and 1) are 3 points apart.
            { name: 'Communication', hired_average: 3, rejected_average: 2.5, difference: 0.5, agreement: 50, pairs: 22 },
          ],
        },
      ]);
      // Never per candidate: no application id or name anywhere in the report.
      expect(JSON.stringify(body.predictors)).to.not.match(/kit\d|application/);

      const all = await get('/api/hr/reports/?from=2026-03-01&to=2026-03-31');
      expect(all.body.predictors.jobs.map((j: { title: string }) => j.title)).to.deep.equal(['Kit Job']);
      expect(all.body.predictors.below_minimum).to.deep.equal([{ job_id: small.id, title: 'Small Job', decisions: 1 }]);
      expect(all.body.scorecards.requested).to.equal(47);

      // Outside the period: nothing to compare.
      const april = await get(`/api/hr/reports/?job_id=${kit.id}&from=2026-04-01&to=2026-04-30`);
      expect(april.body.predictors).to.deep.equal({ min_decisions: 20, jobs: [], below_minimum: [] });
      expect(april.body.scorecards.on_time_rate).to.equal(null);
    });
  });
}
