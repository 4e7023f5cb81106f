/** Shared by the HR jobs/dashboard tests: applications written straight into the table (sign-in: test/helpers/hr.ts). */
import type { Knex } from 'knex';
import { toDbDate } from '../../src/db/codecs.js';

let emailSeq = 0;

/** Applications as rows only (the apply service has its own tests); enough for counts. */
export async function addApplications(db: Knex, jobId: number, n: number, status: 'NEW' | 'REVIEWED' | 'ARCHIVED' = 'NEW'): Promise<void> {
  const at = toDbDate(new Date());
  const rows = Array.from({ length: n }, () => ({
    job_id: jobId, first_name: 'Ada', last_name: 'Lovelace', email: `applicant${++emailSeq}@example.com`, phone: '+919876543210', status, created_at: at, updated_at: at,
  }));
  for (let i = 0; i < rows.length; i += 200) await db('applications').insert(rows.slice(i, i + 200));
}
