/**
 * Default pipeline stages for every job that has none (issue 28, item 3). Until now a job made
 * after migration 013 (in the editor, by the API, by Duplicate, by `careers-admin jobs seed`) got
 * its stages only when first needed, a write that opening its board made in a second transaction.
 * Jobs are now made with their stages (src/jobs/repo.ts insertJob); this gives the jobs made
 * before that theirs: Applied, Screen, Interview, Offer, Hired, as migration 013 did, in one
 * statement whatever the number of jobs. Such a job had no application yet (the first one made
 * its stages), but any application without a stage is put in its job's first stage all the same.
 * Rolling back leaves the stages: they are the jobs' own data from now on, and the code before
 * this migration uses them as it would have made them.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `INSERT INTO job_stages (job_id, name, position, kind)
     SELECT j.id, d.name, d.position, CASE WHEN d.name = 'Hired' THEN 'HIRED' ELSE NULL END
     FROM jobs j
     CROSS JOIN (
       SELECT 'Applied' AS name, 0 AS position
       UNION ALL SELECT 'Screen', 1
       UNION ALL SELECT 'Interview', 2
       UNION ALL SELECT 'Offer', 3
       UNION ALL SELECT 'Hired', 4
     ) d
     WHERE NOT EXISTS (SELECT 1 FROM job_stages s WHERE s.job_id = j.id)
     ORDER BY j.id, d.position`,
  );
  await knex.raw(
    `UPDATE applications SET stage_id = (SELECT s.id FROM job_stages s WHERE s.job_id = applications.job_id ORDER BY s.position, s.id LIMIT 1)
     WHERE stage_id IS NULL`,
  );
}

export async function down(): Promise<void> {
  // Nothing to undo: see above.
}
