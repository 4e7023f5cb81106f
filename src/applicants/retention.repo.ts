/** Removing applications (purge and erase) with their child rows, tallies and files' records. */
import type { Knex } from 'knex';
import { ID_CHUNK } from './repo.js';
import { applyTallyDeltas, storedTallies, type TallyDelta } from './tallies.repo.js';

/** An application as retention sees it: its id and its resume's storage key. */
export interface RemovableApplication {
  id: number;
  job_id: number;
  resume_file_id: number | null;
  storage_key: string | null;
}

/**
 * Deletes the applications and everything of theirs: answers and their choices, skills,
 * experiences, education, search words, outbound post and email records, notes and audit entries
 * (their timeline), their offers' PDF records, then the applications and their stored_files rows. Children go first, by
 * application id, in chunks, so the foreign keys never cascade row by row. Their answers are taken off the answer tallies, all at the end in one order
 * (as an application's insert adds them), and each job's tally count and highest id follow.
 * Run inside one transaction.
 */
export async function deleteApplications(trx: Knex, apps: RemovableApplication[]): Promise<void> {
  const taken = new Map<string, TallyDelta>();
  for (let i = 0; i < apps.length; i += ID_CHUNK) {
    const chunk = apps.slice(i, i + ID_CHUNK);
    const ids = chunk.map((a) => a.id);
    for (const d of await storedTallies(trx, ids)) {
      const key = `${d[0]}\u0000${d[1]}\u0000${d[2]}\u0000${d[3]}`;
      const seen = taken.get(key);
      if (seen) seen[4] -= d[4];
      else taken.set(key, [d[0], d[1], d[2], d[3], -d[4]]);
    }
    await trx('application_answer_choices')
      .whereIn('answer_id', trx('application_answers').select('id').whereIn('application_id', ids))
      .delete();
    for (const table of [
      'application_answers',
      'application_skills',
      'application_experiences',
      'application_education',
      'application_search_words',
      'application_posts',
      'email_posts',
      'application_notes',
    ]) {
      await trx(table).whereIn('application_id', ids).delete();
    }
    // Their offers' PDFs (issue 34): the file records go (the offers themselves go with the
    // applications, by their foreign key), and the orphan sweep then removes the files.
    await trx('stored_files')
      .whereIn('storage_key', trx('offers').whereIn('application_id', ids).whereNotNull('pdf_key').select('pdf_key'))
      .delete();
    await trx('stored_files')
      .whereIn('storage_key', trx('offers').whereIn('application_id', ids).whereNotNull('signed_pdf_key').select('signed_pdf_key'))
      .delete();
    // Their history too (status changes, notes, stages): the timeline goes with the application.
    await trx('audit_log').where('entity', 'application').whereIn('entity_id', ids).delete();
    await trx('applications').whereIn('id', ids).delete();
    const fileIds = chunk.map((a) => a.resume_file_id).filter((id): id is number => id !== null);
    if (fileIds.length) await trx('stored_files').whereIn('id', fileIds).delete();
  }
  await applyTallyDeltas(trx, [...taken.values()]);
  const byJob = new Map<number, number>();
  for (const a of apps) byJob.set(a.job_id, (byJob.get(a.job_id) ?? 0) + 1);
  for (const [jobId, removed] of [...byJob].sort((x, y) => x[0] - y[0])) {
    await trx('answer_tally_jobs')
      .where({ job_id: jobId })
      .update({
        applications: trx.raw('applications - ?', [removed]),
        max_application_id: trx.raw('COALESCE((SELECT MAX(id) FROM applications WHERE job_id = ?), 0)', [jobId]),
      });
  }
}
