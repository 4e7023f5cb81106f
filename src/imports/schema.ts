/**
 * Candidate imports (issue 35): the columns a CSV file's header names, the limits and messages.
 * Columns are matched by header, case and punctuation aside, so a Greenhouse or Lever candidate
 * export imports with no hand editing (the names each uses are below). Node-free.
 */
import { z as zod } from 'zod';

export const IMPORT_LIMITS = { rows: 10_000, columns: 200, fileBytes: 20 * 1024 * 1024, cell: 10_000 } as const;

/** What a column holds, and the headers that name it (normalised: lower case, letters and digits between single spaces). */
export const IMPORT_COLUMNS = {
  first_name: ['first name', 'firstname', 'given name', 'first'],
  last_name: ['last name', 'lastname', 'surname', 'family name', 'last'],
  // Lever's export has one Name column: split at its last space.
  name: ['name', 'full name', 'candidate name', 'candidate'],
  email: ['email', 'email address', 'e mail', 'emails', 'primary email', 'candidate email'],
  phone: ['phone', 'phone number', 'phones', 'mobile', 'telephone'],
  source: ['source', 'sources', 'origin', 'candidate source'],
  job: ['job', 'job title', 'job name', 'posting', 'position', 'requisition', 'job id'],
  stage: ['stage', 'current stage', 'application stage', 'pipeline stage'],
  applied_at: [
    'applied at',
    'applied at gmt',
    'applied on',
    'applied',
    'application date',
    'date applied',
    'created at',
    'created at gmt',
    'created',
  ],
  notes: ['notes', 'note', 'comments'],
  resume: ['resume', 'resume file', 'resume filename', 'cv', 'resume file name'],
} as const;
export type ImportColumn = keyof typeof IMPORT_COLUMNS;

export const IMPORT_MESSAGES = {
  noEmail: 'The file has no email column: name one "Email".',
  noName: 'The file has no name columns: name them "First Name" and "Last Name" (or one "Name").',
  noJob: 'No job for this row: give --job (the upload\'s job) or a "Job" column.',
  unknownJob: (job: string) => `No job “${job}”: name a job by its title or public id.`,
  removedJob: (job: string) => `The job “${job}” has been removed.`,
  twice: (line: number) => `The same email and job as line ${line}.`,
  date: 'The applied date is not a date this import reads (2026-03-05, 2026-03-05 14:30, 03/05/2026).',
  future: 'The applied date is in the future.',
  source: 'The source is over 100 characters.',
  notes: 'The notes are over 10,000 characters.',
  resumeMissing: (name: string) => `No resume file “${name}” in the resumes folder.`,
  resumeName: 'A resume is named by its file name alone.',
  file: 'Choose a CSV file (at most 20 MB).',
  job: 'job_id must be the id of a job.',
} as const;

/** A header as matched: lower case, runs of other characters as one space ("Applied At (GMT)" -> "applied at gmt"). */
export const headerKey = (h: string) =>
  h
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** The upload's fields beside the file: `job_id` (optional), `dry_run` and `partial` (true/false). */
export const importOptionsSchema = zod.object({
  job_id: zod
    .string()
    .regex(/^(|[1-9]\d{0,9})$/, IMPORT_MESSAGES.job)
    .transform((v) => (v ? Number(v) : null)),
  dry_run: zod.enum(['', 'true', 'false']).transform((v) => v === 'true'),
  partial: zod.enum(['', 'true', 'false']).transform((v) => v === 'true'),
});
