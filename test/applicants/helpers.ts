/** Shared set-up of the applicants tests: a known set of applications over two jobs, and HR calls. */
import type { Knex } from 'knex';
import { insertApplications, type SeedApplication } from '../helpers/applications.js';
import { makeJob } from '../helpers/factories.js';
import type { Job } from '../../src/jobs/types.js';

export const day = (d: string, time = '12:00:00') => new Date(`${d}T${time}.000Z`);

/**
 * Two jobs and ten applications with known names (case and accents), emails, phones, statuses and
 * days. Listed newest first: ids in `order`.
 */
export const PEOPLE: (SeedApplication & { job: 'a' | 'b' })[] = [
  {
    job: 'a',
    first_name: 'José',
    last_name: 'Müller',
    email: 'jose.muller@example.com',
    phone: '+491701234567',
    status: 'NEW',
    created_at: day('2026-01-05', '08:00:00'),
  },
  {
    job: 'a',
    first_name: 'JOSEPHINE',
    last_name: 'Baker',
    email: 'jo.baker@example.org',
    phone: '+33612345678',
    status: 'REVIEWED',
    created_at: day('2026-01-05', '23:59:59'),
  },
  {
    job: 'a',
    first_name: 'Asha',
    last_name: "D'Souza",
    email: 'asha@dsouza.in',
    phone: '+919876543210',
    status: 'NEW',
    created_at: day('2026-01-06', '00:00:00'),
  },
  {
    job: 'a',
    first_name: 'Zoë',
    last_name: 'Ångström',
    email: 'zoe.a@example.se',
    phone: '+46701112233',
    status: 'ARCHIVED',
    created_at: day('2026-01-10'),
  },
  {
    job: 'b',
    first_name: 'Björn',
    last_name: 'Ølsen',
    email: 'bjorn@example.no',
    phone: '+4791234567',
    status: 'NEW',
    created_at: day('2026-01-11'),
  },
  {
    job: 'b',
    first_name: 'Rahul',
    last_name: 'Sharma',
    email: 'rahul.sharma@example.com',
    phone: '+919812345678',
    status: 'REVIEWED',
    created_at: day('2026-01-12'),
  },
  {
    job: 'b',
    first_name: 'Priya',
    last_name: 'Patel',
    email: 'priya@patel.dev',
    phone: '+14155550123',
    status: 'NEW',
    created_at: day('2026-01-12', '18:30:00'),
  },
  {
    job: 'b',
    first_name: 'Straße',
    last_name: 'Weiß',
    email: 'weiss@example.de',
    phone: '+4915112345678',
    status: 'ARCHIVED',
    created_at: day('2026-01-20'),
  },
  {
    job: 'a',
    first_name: 'Liam',
    last_name: 'Smith',
    email: 'liam.smith@example.com',
    phone: '+447700900123',
    status: 'NEW',
    created_at: day('2026-02-01'),
  },
  {
    job: 'b',
    first_name: 'Mia',
    last_name: 'Rossi',
    email: 'mia.rossi@example.it',
    phone: '+393331234567',
    status: 'REVIEWED',
    created_at: day('2026-02-02'),
  },
];

export interface Seeded {
  jobA: Job;
  jobB: Job;
  /** Application id by email. */
  ids: Map<string, number>;
}

export async function seedPeople(db: Knex): Promise<Seeded> {
  const jobA = await makeJob(db, { title: 'Backend Engineer', public_id: 'backend-1' });
  const jobB = await makeJob(db, { title: 'Data Analyst', public_id: 'data-1' });
  for (const p of PEOPLE) await insertApplications(db, p.job === 'a' ? jobA.id : jobB.id, [p], []);
  const rows: { id: number; email: string }[] = await db('applications').select('id', 'email');
  return { jobA, jobB, ids: new Map(rows.map((r) => [r.email, Number(r.id)])) };
}

/** An HR call with the Bearer token; the JSON body (or text) and the response. */
export async function hr(
  baseUrl: string,
  token: string,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<{ status: number; body: any; res: Response }> {
  const res = await fetch(baseUrl + path, {
    method: init.method ?? 'GET',
    headers: { Authorization: `Bearer ${token}`, ...(init.body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body, res };
}
