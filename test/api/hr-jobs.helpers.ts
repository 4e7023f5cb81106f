/** Shared by the HR jobs/dashboard tests: a signed-in HR user, and applications written straight into the table. */
import type { Knex } from 'knex';
import type { TestServer } from '../helpers/server.js';
import { hashPassword } from '../../src/auth/passwords.js';
import { insertUser } from '../../src/auth/users.repo.js';
import { createSession } from '../../src/auth/sessions.js';
import { toDbDate } from '../../src/db/codecs.js';

export async function signIn(s: TestServer, username = 'hr'): Promise<{ token: string; userId: number }> {
  const userId = await insertUser(s.ctx.db, username, await hashPassword('correct horse battery'));
  const { token } = await createSession(s.ctx.db, userId, 3600, new Date());
  return { token, userId };
}

let emailSeq = 0;

/** Applications as rows only (the apply service has its own tests); enough for counts. */
export async function addApplications(db: Knex, jobId: number, n: number, status: 'NEW' | 'REVIEWED' | 'ARCHIVED' = 'NEW'): Promise<void> {
  const at = toDbDate(new Date());
  const rows = Array.from({ length: n }, () => ({
    job_id: jobId, first_name: 'Ada', last_name: 'Lovelace', email: `applicant${++emailSeq}@example.com`, phone: '+919876543210', status, created_at: at, updated_at: at,
  }));
  for (let i = 0; i < rows.length; i += 200) await db('applications').insert(rows.slice(i, i + 200));
}
