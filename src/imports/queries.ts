/** What a candidate import reads: the jobs rows may name, their stages, and who applied already. */
import type { Knex } from 'knex';

type Row = Record<string, any>;

export interface ImportJob {
  id: number;
  title: string;
  public_id: string;
  status: string;
  /** The job's stages in order. */
  stages: { id: number; name: string }[];
}

/** Every job with its stages (an import names jobs by id, public id or title). */
export async function importJobs(db: Knex): Promise<ImportJob[]> {
  const [jobs, stages]: Row[][] = await Promise.all([
    db('jobs').select('id', 'title', 'public_id', 'status').orderBy('id'),
    db('job_stages').select('id', 'job_id', 'name').orderBy(['job_id', 'position']),
  ]);
  const byJob = new Map<number, { id: number; name: string }[]>();
  for (const s of stages) {
    const list = byJob.get(Number(s.job_id)) ?? [];
    list.push({ id: Number(s.id), name: String(s.name) });
    byJob.set(Number(s.job_id), list);
  }
  return jobs.map((j) => ({
    id: Number(j.id),
    title: String(j.title),
    public_id: String(j.public_id),
    status: String(j.status),
    stages: byJob.get(Number(j.id)) ?? [],
  }));
}

/** The applications already there for these (job, email) pairs: `${job_id} ${email}` -> application id. */
export async function existingApplications(db: Knex, emails: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (let i = 0; i < emails.length; i += 500) {
    const rows: Row[] = await db('applications')
      .whereIn('email', emails.slice(i, i + 500))
      .select('id', 'job_id', 'email');
    for (const r of rows) out.set(`${r.job_id} ${r.email}`, Number(r.id));
  }
  return out;
}
