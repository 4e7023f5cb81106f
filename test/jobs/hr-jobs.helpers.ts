/**
 * Shared by the HR jobs/dashboard tests: applications written straight into the table, the job
 * editor's rich text fields, job payloads and signed-in HR jobs API calls (sign-in: test/helpers/hr.ts).
 */
import type { Knex } from 'knex';
import type { Page } from 'playwright-core';
import { expect } from 'chai';
import { toDbDate } from '../../src/db/codecs.js';
import type { TestServer } from '../helpers/server.js';

let emailSeq = 0;

/** Applications as rows only (the apply service has its own tests); enough for counts. */
export async function addApplications(db: Knex, jobId: number, n: number, status: 'NEW' | 'REVIEWED' | 'ARCHIVED' = 'NEW'): Promise<void> {
  const at = toDbDate(new Date());
  const rows = Array.from({ length: n }, () => ({
    job_id: jobId,
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: `applicant${++emailSeq}@example.com`,
    phone: '+919876543210',
    status,
    created_at: at,
    updated_at: at,
  }));
  for (let i = 0; i < rows.length; i += 200) await db('applications').insert(rows.slice(i, i + 200));
}

/** A rich text field of the job editor, and a button of its toolbar. */
export const editor = (page: Page, id: string) => page.locator(`#${id}`);
export const tool = (page: Page, id: string, label: string) =>
  page.locator(`[role="toolbar"][aria-controls="${id}"] button[aria-label="${label}"]`);

/**
 * The smallest valid HR job payload; override any field. Its place is one no default pay rule
 * covers (issue 34), so it may be active without a pay range.
 */
export function payload(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { title: 'Platform Engineer', location: 'Zürich, Switzerland', job_type: 'FULL_TIME', work_mode: 'HYBRID', ...overrides };
}

/** Signed-in calls to the HR jobs API; `suite` is read at each call, after before() has run. */
export function hrJobsApi(suite: () => { s: TestServer; token: string }) {
  const call = (method: string, path: string, body?: unknown) =>
    fetch(suite().s.baseUrl + path, {
      method,
      headers: { Authorization: `Bearer ${suite().token}`, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const post = async (body: Record<string, unknown>) => {
    const res = await call('POST', '/api/hr/jobs/', body);
    return { status: res.status, body: await res.json() };
  };
  const create = async (body: Record<string, unknown>) => {
    const r = await post(body);
    expect(r.status, JSON.stringify(r.body).slice(0, 500)).to.equal(201);
    return r.body;
  };
  const jobCount = async () => Number((await suite().s.ctx.db('jobs').count({ n: '*' }))[0].n);
  return { call, post, create, jobCount };
}
