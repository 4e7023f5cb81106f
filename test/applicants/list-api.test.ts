/**
 * GET /api/hr/applications/ on SQLite and MySQL: every filter alone and combined, the search
 * (parts of names, emails and phones; case and accents), ordering, paging edges, `detailed`, and
 * the 400s for bad input. Both databases must give the same answers.
 */
import { expect } from 'chai';
import { databaseKinds } from '../helpers/db.js';
import { hrSession } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { insertApplications } from '../helpers/applications.js';
import { PEOPLE, hr, seedPeople, type Seeded } from './helpers.js';

for (const kind of databaseKinds()) {
  describe(`applicants list API [${kind}]`, () => {
    let s: TestServer;
    let token: string;
    let seeded: Seeded;
    before(async () => {
      s = await startTestServer(kind);
      ({ token } = await hrSession(s.ctx.db));
      seeded = await seedPeople(s.ctx.db);
    });
    after(() => s.close());

    const list = (query = '') => hr(s.baseUrl, token, `/api/hr/applications/${query}`);
    /** Emails of the results, in order. */
    const emails = async (query: string) => {
      const { status, body } = await list(query);
      expect(status, JSON.stringify(body)).to.equal(200);
      return body.results.map((r: { email: string }) => r.email);
    };
    const newestFirst = [...PEOPLE].sort((a, b) => b.created_at!.getTime() - a.created_at!.getTime()).map((p) => p.email);

    it('lists every application newest first with the paging fields of the other HR lists', async () => {
      const { body } = await list();
      expect(body).to.have.keys(['count', 'count_capped', 'next', 'previous', 'results']);
      expect(body).to.include({ count: 10, count_capped: false, next: null, previous: null });
      expect(body.results.map((r: any) => r.email)).to.deep.equal(newestFirst);
      const first = body.results[0];
      expect(first).to.deep.equal({
        id: seeded.ids.get('mia.rossi@example.it'),
        job_id: seeded.jobB.id,
        name: 'Mia Rossi',
        email: 'mia.rossi@example.it',
        phone: '+393331234567',
        status: 'REVIEWED',
        created_at: '2026-02-02T12:00:00.000Z',
        resume_download_url: `/api/hr/applications/${first.id}/resume/`,
        // Pipeline (issue 20): every application starts in its job's first stage.
        stage_id: first.stage_id,
        stage: 'Applied',
        outcome: null,
        source: null,
      });
      expect(await emails('?ordering=created_at')).to.deep.equal([...newestFirst].reverse());
      expect(await emails('?ordering=-created_at')).to.deep.equal(newestFirst);
    });

    it('adds the job title, public id and resume file name with detailed=true', async () => {
      const { body } = await list('?detailed=true&page_size=1');
      expect(body.results[0]).to.include({
        job_title: 'Data Analyst',
        job_public_id: 'data-1',
        resume_filename: 'Mia-Rossi-Data-Analyst.pdf',
      });
      const plain = await list('?detailed=false&page_size=1');
      expect(plain.body.results[0]).to.not.have.property('job_title');
    });

    it('filters by job, status and calendar days (inclusive, UTC), alone and together', async () => {
      expect(await emails(`?job_id=${seeded.jobA.id}`)).to.have.length(5);
      expect(await emails(`?job_id=${seeded.jobB.id}&status=NEW`)).to.deep.equal(['priya@patel.dev', 'bjorn@example.no']);
      expect(await emails('?status=ARCHIVED')).to.deep.equal(['weiss@example.de', 'zoe.a@example.se']);
      // 2026-01-05 08:00 and 23:59:59 are in; 2026-01-06 00:00 is the next day.
      expect(await emails('?date_from=2026-01-05&date_to=2026-01-05')).to.deep.equal(['jo.baker@example.org', 'jose.muller@example.com']);
      expect(await emails('?date_from=2026-01-06&date_to=2026-01-06')).to.deep.equal(['asha@dsouza.in']);
      expect(await emails('?date_from=2026-02-01')).to.deep.equal(['mia.rossi@example.it', 'liam.smith@example.com']);
      expect(await emails('?date_to=2026-01-05')).to.deep.equal(['jo.baker@example.org', 'jose.muller@example.com']);
      expect(await emails(`?job_id=${seeded.jobA.id}&status=NEW&date_from=2026-01-06&q=asha`)).to.deep.equal(['asha@dsouza.in']);
      expect(await emails(`?job_id=${seeded.jobB.id}&q=asha`)).to.deep.equal([]);
      expect(await emails('?job_id=999999')).to.deep.equal([]);
    });

    it('finds names and emails by word prefixes, whatever the case and accents', async () => {
      expect(await emails('?q=jos')).to.deep.equal(['jo.baker@example.org', 'jose.muller@example.com']);
      expect(await emails('?q=JOSÉ')).to.deep.equal(['jo.baker@example.org', 'jose.muller@example.com']);
      expect(await emails('?q=jose%20mul')).to.deep.equal(['jose.muller@example.com']);
      expect(await emails('?q=m%C3%BCller')).to.deep.equal(['jose.muller@example.com']);
      expect(await emails('?q=angstrom')).to.deep.equal(['zoe.a@example.se']);
      expect(await emails('?q=zoe')).to.deep.equal(['zoe.a@example.se']);
      expect(await emails('?q=olsen')).to.deep.equal(['bjorn@example.no']);
      expect(await emails('?q=strasse%20weiss')).to.deep.equal(['weiss@example.de']);
      expect(await emails("?q=d'souza")).to.deep.equal(['asha@dsouza.in']);
      expect(await emails('?q=souza')).to.deep.equal(['asha@dsouza.in']);
      // Email words: split at every non-letter, non-digit character.
      expect(await emails('?q=patel.dev')).to.deep.equal(['priya@patel.dev']);
      expect(await emails('?q=rahul.sharma%40example.com')).to.deep.equal(['rahul.sharma@example.com']);
      expect(await emails('?q=example.c')).to.have.members([
        'liam.smith@example.com',
        'rahul.sharma@example.com',
        'jose.muller@example.com',
      ]);
      // Only prefixes: "uller" is inside a word, not at its start.
      expect(await emails('?q=uller')).to.deep.equal([]);
      expect(await emails('?q=nobody')).to.deep.equal([]);
    });

    it('answers a search with no letter or digit with nothing, never the whole list', async () => {
      for (const q of ['%', '!!!', '😀', '%_', "'", '--', '@.', '\u200b']) {
        const { status, body } = await list(`?q=${encodeURIComponent(q)}`);
        expect(status, q).to.equal(200);
        expect(body, q).to.deep.equal({ count: 0, count_capped: false, next: null, previous: null, results: [] });
      }
      // A blank search is no search.
      expect((await list('?q=%20%20')).body.count).to.equal(10);
      expect((await list(`?job_id=${seeded.jobA.id}&q=%25`)).body.count).to.equal(0);
    });

    it('finds phones by any run of three or more of their digits, however they are written', async () => {
      expect(await emails('?q=9876543210')).to.deep.equal(['asha@dsouza.in']);
      expect(await emails('?q=%2B91%2098765')).to.deep.equal(['asha@dsouza.in']);
      expect(await emails('?q=543-210')).to.deep.equal(['asha@dsouza.in']);
      expect(await emails('?q=5550123')).to.deep.equal(['priya@patel.dev']);
      expect(await emails('?q=%2B91')).to.deep.equal([]); // two digits: no phone search
      expect(await emails('?q=919')).to.deep.equal(['rahul.sharma@example.com', 'asha@dsouza.in']);
    });

    it('pages with page and page_size; a page past the end is a 404, and the links keep the filters', async () => {
      const p1 = await list('?status=NEW&page_size=2');
      expect(p1.body.count).to.equal(5);
      expect(p1.body.results).to.have.length(2);
      expect(p1.body.previous).to.equal(null);
      expect(p1.body.next).to.equal(`${s.ctx.config.publicBaseUrl}/api/hr/applications/?status=NEW&page_size=2&page=2`);
      const p3 = await list('?status=NEW&page_size=2&page=3');
      expect(p3.body.results).to.have.length(1);
      expect(p3.body.next).to.equal(null);
      expect(p3.body.previous).to.equal(`${s.ctx.config.publicBaseUrl}/api/hr/applications/?status=NEW&page_size=2&page=2`);
      const all = [...p1.body.results, ...(await list('?status=NEW&page_size=2&page=2')).body.results, ...p3.body.results].map(
        (r: any) => r.id,
      );
      expect(new Set(all).size).to.equal(5);
      expect((await list('?status=NEW&page_size=2&page=4')).status).to.equal(404);
      const exact = await list('?page_size=10');
      expect(exact.body.next).to.equal(null);
      expect((await list('?page_size=1000')).body.results).to.have.length(10); // capped at 100
      const empty = await list('?q=nobody');
      expect(empty.body).to.deep.equal({ count: 0, count_capped: false, next: null, previous: null, results: [] });
    });

    it('answers 400 with a message per field for bad input', async () => {
      const cases: [string, string, string][] = [
        ['?status=HIRED', 'status', 'Select a valid status: NEW, REVIEWED or ARCHIVED.'],
        ['?status=new', 'status', 'Select a valid status: NEW, REVIEWED or ARCHIVED.'],
        ['?date_from=2026-02-30', 'date_from', 'Enter a valid date as YYYY-MM-DD.'],
        ['?date_to=yesterday', 'date_to', 'Enter a valid date as YYYY-MM-DD.'],
        ['?date_from=2026-02-02&date_to=2026-02-01', 'date_to', 'The to date must not be before the from date.'],
        ['?job_id=abc', 'job_id', 'A valid job id is required.'],
        ['?job_id=0', 'job_id', 'A valid job id is required.'],
        ['?job_id=99999999999', 'job_id', 'A valid job id is required.'],
        [`?q=${'a'.repeat(101)}`, 'q', 'Ensure the search has no more than 100 characters.'],
        ['?ordering=salary', 'ordering', 'Ordering must be one of created_at, -created_at, name, -name, email, -email, status, -status.'],
        ['?detailed=yes', 'detailed', 'detailed must be true or false.'],
        ['?status=NEW&status=ARCHIVED', 'status', 'Give this parameter once, with one value.'],
        ['?q=a&q=b', 'q', 'Give this parameter once, with one value.'],
        ['?page=1&page=2', 'page', 'Give this parameter once, with one value.'],
        ['?page=0', 'page', 'A valid page number is required.'],
      ];
      for (const [query, field, message] of cases) {
        const { status, body } = await list(query);
        expect(status, query).to.equal(400);
        expect(body[field], query).to.deep.equal([message]);
      }
      // 100 characters (code points) are fine.
      expect((await list(`?q=${encodeURIComponent('é'.repeat(100))}`)).status).to.equal(200);
    });

    it('runs broad searches (a word matching 1,000 or more) page by page, and caps the total', async () => {
      const many = Array.from({ length: 1100 }, (_, i) => ({
        first_name: i % 100 === 0 ? 'Rare' : 'Usual',
        last_name: 'Commonname',
        email: `c${i}@bulk.example`,
        phone: `+9170000${String(i).padStart(5, '0')}`,
        created_at: new Date(Date.UTC(2025, 0, 1, 0, 0, i)),
      }));
      await insertApplications(s.ctx.db, seeded.jobA.id, many, []);
      try {
        const broad = await list('?q=commonname&page_size=100&page=2');
        expect(broad.body).to.include({ count: 100, count_capped: true });
        expect(broad.body.results.map((r: any) => r.email)).to.deep.equal(
          Array.from({ length: 100 }, (_, i) => `c${999 - i}@bulk.example`),
        );
        // Two broad words, and a broad word with a rare one: the same answers either way.
        expect((await list('?q=usual%20commonname')).body).to.include({ count: 100, count_capped: true });
        const rare = await list('?q=commonname%20rare&ordering=created_at');
        expect(rare.body.count).to.equal(11);
        expect(rare.body.results.map((r: any) => r.email)).to.deep.equal(Array.from({ length: 11 }, (_, i) => `c${i * 100}@bulk.example`));
        expect((await list('?q=commonname%20bulk%20c1050')).body.results.map((r: any) => r.email)).to.deep.equal(['c1050@bulk.example']);
        // Every word, or else the digits in the phone: "70000" and "00005" start no name word.
        expect((await list('?q=rare%20commonname%2070000%2000005')).body.results.map((r: any) => r.email)).to.deep.equal([
          'c5@bulk.example',
        ]);
        expect((await list(`?q=commonname&job_id=${seeded.jobB.id}`)).body.count).to.equal(0);
        // Broad words without a job filter are read along the words index: ordering, dates and
        // status give what the job's own list gives.
        const emails = async (query: string) => (await list(query)).body.results.map((r: any) => r.email);
        expect(await emails('?q=usual%20commonname&ordering=created_at&page_size=5&page=3')).to.deep.equal(
          ['c11', 'c12', 'c13', 'c14', 'c15'].map((c) => `${c}@bulk.example`),
        );
        expect(await emails('?q=commonname&date_to=2025-01-01&page_size=3')).to.deep.equal(
          ['c1099', 'c1098', 'c1097'].map((c) => `${c}@bulk.example`),
        );
        expect((await list('?q=commonname&date_from=2025-01-02')).body).to.include({ count: 0, count_capped: false });
        await s.ctx
          .db('applications')
          .whereIn('email', ['c3@bulk.example', 'c500@bulk.example', 'c1099@bulk.example'])
          .update({ status: 'REVIEWED' });
        const reviewed = await list('?q=commonname&status=REVIEWED');
        expect(reviewed.body).to.include({ count: 3, count_capped: false });
        expect(reviewed.body.results.map((r: any) => r.email)).to.deep.equal(['c1099', 'c500', 'c3'].map((c) => `${c}@bulk.example`));
        expect(await emails(`?q=commonname&status=REVIEWED&ordering=created_at&job_id=${seeded.jobA.id}`)).to.deep.equal(
          ['c3', 'c500', 'c1099'].map((c) => `${c}@bulk.example`),
        );
        expect(await emails('?q=commonname%20usual&status=REVIEWED&ordering=created_at')).to.deep.equal(
          ['c3', 'c1099'].map((c) => `${c}@bulk.example`),
        );
      } finally {
        await s.ctx
          .db('application_search_words')
          .whereIn('application_id', s.ctx.db('applications').select('id').where('last_name', 'Commonname'))
          .delete();
        await s.ctx.db('applications').where('last_name', 'Commonname').delete();
      }
    });

    it('answers 401 without a valid token and reads nothing', async () => {
      expect((await fetch(`${s.baseUrl}/api/hr/applications/`)).status).to.equal(401);
      expect((await fetch(`${s.baseUrl}/api/hr/applications/`, { headers: { Authorization: 'Bearer nope' } })).status).to.equal(401);
    });
  });
}
