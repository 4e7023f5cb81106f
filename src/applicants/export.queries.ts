/**
 * Applicants export of one job (`GET /api/hr/jobs/{id}/export-basic/`): every applicant with
 * contact fields, status, date, skills, experience and education as readable text, the resume's
 * file name and one column per current question. Applications are read in keyset-paginated
 * batches over the (job_id, created_at) index — oldest first — with their child rows fetched per
 * batch, so memory stays flat whatever the number of applicants.
 */
import type { Knex } from 'knex';
import { fromDbDate, fromDbJson } from '../db/codecs.js';
import type { Job } from '../jobs/types.js';
import { questionPlainText } from '../shared/question-text.js';
import type { CellValue, ExportColumn } from '../exports/xlsx.js';
import { resumeDownloadName } from './lib/file-type.js';

const EXPORT_BATCH = 250;

type Row = Record<string, any>;

export function applicantsFilename(jobId: number): string {
  return `applicants_job_${jobId}.xlsx`;
}

/** The columns every applicants workbook starts with (a job's, and the list's). */
export const APPLICANT_COLUMNS: ExportColumn[] = [
  { header: 'ID', width: 8 },
  { header: 'First Name', width: 16 },
  { header: 'Last Name', width: 16 },
  { header: 'Email', width: 30 },
  { header: 'Phone', width: 16 },
  { header: 'Status', width: 11 },
  { header: 'Stage', width: 14 },
  { header: 'Outcome', width: 10 },
  { header: 'Rejection Reason', width: 24 },
  { header: 'Applied At (UTC)', width: 17, numFmt: 'yyyy-mm-dd hh:mm' },
];

/** Stage, Outcome and Rejection Reason cells of an application ('' for what it does not have). */
export function pipelineCells(
  stage: string | null | undefined,
  outcome: string | null | undefined,
  reason: string | null | undefined,
): CellValue[] {
  const rejected = outcome === 'REJECTED';
  return [stage ?? '', rejected ? 'Rejected' : (outcome ?? ''), rejected ? (reason ?? '') : ''];
}

export function applicantColumns(job: Job): ExportColumn[] {
  return [
    ...APPLICANT_COLUMNS,
    { header: 'Skills', width: 30 },
    { header: 'Experience', width: 60 },
    { header: 'Education', width: 45 },
    { header: 'Resume', width: 28 },
    { header: 'Source', width: 24 },
    ...job.questions.map((q) => ({
      header: questionPlainText(q.text, 200) || `Question ${q.id}`,
      width: q.answer_type === 'long_text' ? 50 : 24,
    })),
  ];
}

/** Where the application came from, as one cell: 'linkedin / social / spring-hiring'; '' when it came directly. */
export const sourceCell = (a: Row): string =>
  [a.source, a.medium, a.campaign].filter((v) => v !== null && v !== undefined && v !== '').join(' / ');

const period = (start: string, end: string | null) => `${start} – ${end || 'Present'}`;

function experienceText(rows: Row[]): string {
  return rows
    .map((e) => {
      const parts = [`${e.role} at ${e.company}, ${period(e.start, e.end)}`];
      if (e.notice_period) parts.push(`notice period: ${e.notice_period}`);
      if (e.salary) parts.push(`salary: ${e.salary}`);
      if (e.description) parts.push(String(e.description).replace(/\s+/g, ' ').trim());
      return parts.join('; ');
    })
    .join('\n');
}

function educationText(rows: Row[]): string {
  return rows.map((e) => `${e.degree}${e.field ? `, ${e.field}` : ''} — ${e.school}, ${period(e.start, e.end)}`).join('\n');
}

/** A stored answer (JSON string, number or list) as a cell: lists joined by ', ', numbers typed. */
function answerCell(raw: unknown): CellValue {
  const v = fromDbJson<unknown>(raw, raw);
  if (Array.isArray(v)) return v.map(String).join(', ');
  if (typeof v === 'number') return v;
  return v === null || v === undefined ? '' : String(v);
}

function groupBy(rows: Row[]): Map<number, Row[]> {
  const out = new Map<number, Row[]>();
  for (const r of rows) {
    const id = Number(r.application_id);
    const list = out.get(id);
    if (list) list.push(r);
    else out.set(id, [r]);
  }
  return out;
}

/** Batches of export rows, oldest application first. */
export async function* applicantRows(db: Knex, job: Job, batchSize = EXPORT_BATCH): AsyncGenerator<CellValue[][]> {
  const questionIds = job.questions.map((q) => q.id);
  let cursor: { at: unknown; id: number } | null = null;
  for (;;) {
    const q = db('applications as a')
      .leftJoin('stored_files as f', 'f.id', 'a.resume_file_id')
      .leftJoin('job_stages as st', 'st.id', 'a.stage_id')
      .select(
        'a.id',
        'a.first_name',
        'a.last_name',
        'a.email',
        'a.phone',
        'a.status',
        'a.created_at',
        'a.source',
        'a.medium',
        'a.campaign',
        'a.outcome',
        'a.outcome_reason',
        'st.name as stage_name',
        'f.content_type as resume_type',
      )
      .where('a.job_id', job.id)
      .orderBy([{ column: 'a.created_at' }, { column: 'a.id' }])
      .limit(batchSize);
    if (cursor) {
      // (created_at, id) > cursor, written so the index range starts at the cursor's date.
      const c: { at: unknown; id: number } = cursor;
      q.where('a.created_at', '>=', c.at as any).andWhere((w) => w.where('a.created_at', '>', c.at as any).orWhere('a.id', '>', c.id));
    }
    const apps: Row[] = await q;
    if (!apps.length) return;
    const ids = apps.map((a) => Number(a.id));
    const [experiences, education, skills, answers] = await Promise.all([
      db('application_experiences').whereIn('application_id', ids).orderBy(['application_id', 'position', 'id']),
      db('application_education').whereIn('application_id', ids).orderBy(['application_id', 'position', 'id']),
      db('application_skills')
        .select('application_id', 'name')
        .whereIn('application_id', ids)
        .orderBy(['application_id', 'position', 'id']),
      // Filtered by question here, not in SQL: a question_id condition would lead the database to
      // the (question_id, ...) indexes and a scan of every answer to the job per batch, far slower
      // than reading application_answers_app_idx (figures in bench/README.md).
      questionIds.length
        ? db('application_answers').select('application_id', 'question_id', 'answer').whereIn('application_id', ids)
        : Promise.resolve([] as Row[]),
    ]);
    const expBy = groupBy(experiences);
    const eduBy = groupBy(education);
    const skillBy = groupBy(skills);
    const answerBy = new Map<string, unknown>();
    for (const a of answers as Row[]) answerBy.set(`${a.application_id}:${a.question_id}`, a.answer);
    yield apps.map((a) => {
      const id = Number(a.id);
      return [
        id,
        a.first_name,
        a.last_name,
        a.email,
        a.phone,
        a.status,
        ...pipelineCells(a.stage_name, a.outcome, a.outcome_reason),
        fromDbDate(a.created_at),
        (skillBy.get(id) ?? []).map((s) => s.name).join(', '),
        experienceText(expBy.get(id) ?? []),
        educationText(eduBy.get(id) ?? []),
        a.resume_type
          ? resumeDownloadName({ first_name: a.first_name, last_name: a.last_name, job_title: job.title, content_type: a.resume_type })
          : '',
        sourceCell(a),
        ...questionIds.map((qid) => {
          const raw = answerBy.get(`${id}:${qid}`);
          return raw === undefined ? '' : answerCell(raw);
        }),
      ];
    });
    if (apps.length < batchSize) return;
    const last = apps[apps.length - 1];
    cursor = { at: last.created_at, id: Number(last.id) };
  }
}
