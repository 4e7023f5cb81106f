/** Shared by the HR jobs/dashboard tests: applications written straight into the table, the job editor's rich text fields (sign-in: test/helpers/hr.ts). */
import type { Knex } from 'knex';
import type { Page } from 'playwright-core';
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

/** A rich text field of the job editor, and a button of its toolbar. */
export const editor = (page: Page, id: string) => page.locator(`#${id}`);
export const tool = (page: Page, id: string, label: string) => page.locator(`[role="toolbar"][aria-controls="${id}"] button[aria-label="${label}"]`);
