/**
 * Bringing candidates in (issue 35): a CSV file's rows become applications, through the CLI
 * (`careers-admin import candidates`) or an upload on /hr/settings/import. Columns are matched by
 * header (schema.ts); each row is checked with the apply form's rules (PHONE_RULE's too), its job
 * named by the run or the row, its stage by name (an unknown one: the job's first), its resume
 * judged like an upload. A row whose person already applied to the job is merged (its notes go to
 * that application); people are matched and suggested as applying does. All or nothing per run:
 * one refused row writes nothing, unless `partial`. The file is parsed off the main thread.
 */
import { DateTime } from 'luxon';
import type { Config } from '../../config/index.js';
import type { Db } from '../db/knex.js';
import { parseCsv } from '../documents/csv.js';
import type { Logger } from '../log/logger.js';
import type { FileStorage } from '../storage/storage.js';
import { NOTE_TEXT_MAX, shapeNoteText } from '../shared/note-rules.js';
import { contactSchema, insertImportedApplication, storeImportedResume, type ImportedApplication } from '../applicants/index.js';
import { insertImportedNote } from '../notes/index.js';
import { existingApplications, importJobs, type ImportJob } from './queries.js';
import { IMPORT_COLUMNS, IMPORT_LIMITS, IMPORT_MESSAGES as M, headerKey, type ImportColumn } from './schema.js';
import type { ImportReport, ImportRow } from './types.js';

export interface ImportDeps {
  db: Db;
  storage: FileStorage;
  config: Pick<Config, 'phoneRule'>;
  now: () => Date;
  log: Logger;
}

export interface ImportInput {
  csv: Uint8Array;
  /** The resume file of a row's "Resume" cell (the CLI's --resumes folder); null: rows' resume cells are ignored. */
  resumes: ((name: string) => Promise<Buffer | null>) | null;
  jobId: number | null;
  dryRun: boolean;
  partial: boolean;
  userId: number | null;
}

/** A header problem: nothing in the file can be read as candidates. */
export class ImportFileProblem extends Error {}

const DATE_FORMATS = ['yyyy-MM-dd HH:mm:ss', 'yyyy-MM-dd HH:mm', 'yyyy-MM-dd', 'M/d/yyyy H:mm', 'M/d/yyyy', 'd MMM yyyy', 'MMM d, yyyy'];

/** A date as other systems export them, read in UTC; null when it is none of them. */
function readDate(text: string): Date | null {
  const iso = DateTime.fromISO(text, { zone: 'utc' });
  if (iso.isValid) return iso.toJSDate();
  for (const f of DATE_FORMATS) {
    const d = DateTime.fromFormat(text, f, { zone: 'utc', locale: 'en-US' });
    if (d.isValid) return d.toJSDate();
  }
  return null;
}

/** Which column index holds each kind (the first header naming it). */
function columnsOf(header: string[]): Partial<Record<ImportColumn, number>> {
  const found: Partial<Record<ImportColumn, number>> = {};
  header.forEach((h, i) => {
    const key = headerKey(h);
    for (const [kind, names] of Object.entries(IMPORT_COLUMNS) as [ImportColumn, readonly string[]][])
      if (found[kind] === undefined && names.includes(key)) found[kind] = i;
  });
  if (found.email === undefined) throw new ImportFileProblem(M.noEmail);
  if (found.first_name === undefined && found.name === undefined) throw new ImportFileProblem(M.noName);
  return found;
}

interface Planned {
  row: ImportRow;
  app: ImportedApplication;
  notes: string;
  /** The application it merges into, when the person applied to the job already. */
  mergeInto: number | null;
  note: string | null;
}

/** The job a row names: by id, public id or title (any case). */
function findJob(jobs: ImportJob[], named: string): ImportJob | undefined {
  const key = named.trim().toLowerCase();
  return (
    jobs.find((j) => String(j.id) === key || j.public_id.toLowerCase() === key) ?? jobs.find((j) => j.title.trim().toLowerCase() === key)
  );
}

export async function importCandidates(deps: ImportDeps, input: ImportInput): Promise<ImportReport> {
  const records = await parseCsv(input.csv, { maxRecords: IMPORT_LIMITS.rows + 1, maxFields: IMPORT_LIMITS.columns });
  if (!records.length) throw new ImportFileProblem(M.noEmail);
  const [header, ...rows] = records;
  const col = columnsOf(header);
  const now = deps.now();
  const jobs = await importJobs(deps.db);
  const runJob = input.jobId === null ? null : (jobs.find((j) => j.id === input.jobId) ?? null);
  if (input.jobId !== null && (!runJob || runJob.status === 'REMOVED')) throw new ImportFileProblem(M.unknownJob(String(input.jobId)));
  const contact = contactSchema(deps.config.phoneRule);
  const cell = (r: string[], kind: ImportColumn) =>
    col[kind] === undefined
      ? ''
      : String(r[col[kind]!] ?? '')
          .slice(0, IMPORT_LIMITS.cell)
          .trim();

  const report: ImportReport = {
    rows: rows.length,
    imported: [],
    merged: [],
    refused: [],
    dry_run: input.dryRun,
    partial: input.partial,
    written: false,
  };
  const planned: Planned[] = [];
  const seen = new Map<string, number>();
  const stored: string[] = [];
  const emails = rows.map((r) => cell(r, 'email').toLowerCase());
  const existing = await existingApplications(deps.db, [...new Set(emails.filter(Boolean))]);

  for (const [i, r] of rows.entries()) {
    const line = i + 2;
    let first = cell(r, 'first_name');
    let last = cell(r, 'last_name');
    if (col.first_name === undefined) {
      const full = cell(r, 'name').replace(/\s+/g, ' ');
      const cut = full.lastIndexOf(' ');
      [first, last] = cut > 0 ? [full.slice(0, cut), full.slice(cut + 1)] : [full, ''];
    }
    const jobName = runJob ? runJob.title : cell(r, 'job');
    const row: ImportRow = { line, email: cell(r, 'email'), name: `${first} ${last}`.trim(), job: jobName };
    const refuse = (reason: string) => report.refused.push({ ...row, reason });

    const parsed = contact.safeParse({ first_name: first, last_name: last, email: cell(r, 'email'), phone: cell(r, 'phone') });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      refuse(`${String(issue.path[0]).replace('_', ' ')}: ${issue.message}`);
      continue;
    }
    const job = runJob ?? (jobName ? findJob(jobs, jobName) : undefined);
    if (!job) {
      refuse(jobName ? M.unknownJob(jobName) : M.noJob);
      continue;
    }
    if (job.status === 'REMOVED') {
      refuse(M.removedJob(job.title));
      continue;
    }
    const appliedText = cell(r, 'applied_at');
    const appliedAt = appliedText ? readDate(appliedText) : now;
    if (!appliedAt) {
      refuse(M.date);
      continue;
    }
    if (appliedAt.getTime() > now.getTime() + 60_000) {
      refuse(M.future);
      continue;
    }
    const source = cell(r, 'source').replace(/\s+/g, ' ');
    if ([...source].length > 100) {
      refuse(M.source);
      continue;
    }
    const notes = shapeNoteText(cell(r, 'notes'));
    if ([...notes].length > NOTE_TEXT_MAX) {
      refuse(M.notes);
      continue;
    }
    const key = `${job.id} ${parsed.data.email}`;
    const twice = seen.get(key);
    if (twice !== undefined) {
      refuse(M.twice(twice));
      continue;
    }
    seen.set(key, line);
    const stageName = cell(r, 'stage');
    const stage = stageName ? job.stages.find((s) => s.name.toLowerCase() === stageName.toLowerCase()) : undefined;
    const note = stageName && !stage && job.stages[0] ? `stage “${stageName}” is not on the job: put in ${job.stages[0].name}` : null;

    let resume: ImportedApplication['resume'] = null;
    const resumeName = cell(r, 'resume');
    if (resumeName && input.resumes && !existing.has(key)) {
      if (/[/\\]|^\.\.?$/.test(resumeName)) {
        refuse(M.resumeName);
        continue;
      }
      const bytes = await input.resumes(resumeName);
      if (!bytes) {
        refuse(M.resumeMissing(resumeName));
        continue;
      }
      const judged = await storeImportedResume(deps.storage, { name: resumeName, bytes }, input.dryRun);
      if ('error' in judged) {
        refuse(`resume: ${judged.error}`);
        continue;
      }
      if (!input.dryRun) stored.push(judged.resume.storage_key);
      resume = judged.resume;
    }
    planned.push({
      row: { ...row, job: job.title },
      app: {
        job_id: job.id,
        ...parsed.data,
        source: source || null,
        applied_at: appliedAt,
        stage_id: stage?.id ?? null,
        resume,
      },
      notes,
      mergeInto: existing.get(key) ?? null,
      note,
    });
  }

  const write = !input.dryRun && (input.partial || report.refused.length === 0) && planned.length > 0;
  const ids = new Map<Planned, number>();
  if (write) {
    try {
      await deps.db.transaction(async (trx) => {
        for (const p of planned) {
          const id = p.mergeInto ?? (await insertImportedApplication(trx, p.app));
          if (p.notes) await insertImportedNote(trx, id, p.notes, input.userId, now);
          ids.set(p, id);
        }
      });
    } catch (err) {
      await removeStored(deps, stored);
      throw err;
    }
    report.written = true;
  } else await removeStored(deps, stored);
  for (const p of planned) {
    if (p.mergeInto !== null) report.merged.push({ ...p.row, application_id: p.mergeInto });
    else report.imported.push({ ...p.row, application_id: ids.get(p) ?? null, note: p.note });
  }
  return report;
}

/** The jobs an upload may name for every row (not removed), for the import page's choice. */
export async function importableJobs(db: Db): Promise<{ id: number; title: string; public_id: string }[]> {
  return (await importJobs(db)).filter((j) => j.status !== 'REMOVED').map((j) => ({ id: j.id, title: j.title, public_id: j.public_id }));
}

async function removeStored(deps: ImportDeps, keys: string[]): Promise<void> {
  for (const key of keys)
    await deps.storage
      .remove(key)
      .catch((err) =>
        deps.log.error({ key, err: (err as Error).message }, '[imports] could not remove a resume file; the orphan sweep will'),
      );
}
