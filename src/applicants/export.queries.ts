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

const EXPORT_BATCH = 500;

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

/**
 * Child rows by application: `rows` are ordered by application_id, so each application's run from
 * where they start while the id stays. Kept as positions, not as a list per application (see
 * ROWS_PER_YIELD).
 */
class ByApplication {
  private readonly starts = new Map<number, number>();
  constructor(private readonly rows: Row[]) {
    rows.forEach((r, i) => {
      const id = Number(r.application_id);
      if (!this.starts.has(id)) this.starts.set(id, i);
    });
  }

  of(id: number): Row[] {
    const start = this.starts.get(id);
    if (start === undefined) return [];
    let end = start + 1;
    while (end < this.rows.length && Number(this.rows[end].application_id) === id) end++;
    return this.rows.slice(start, end);
  }
}

/**
 * Rows are handed on in slices of this many, each as soon as it is made, so the cells of a slice
 * die young: V8 moves the allocations of a site whose objects are mostly still alive when it
 * collects the young generation straight into the old generation (allocation-site pretenuring), and
 * once 500 rows' cells were alive together for every collection, the server's heap grew by the
 * export's whole garbage (bench/README.md, HR back office).
 */
const ROWS_PER_YIELD = 100;

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
    const expBy = new ByApplication(experiences);
    const eduBy = new ByApplication(education);
    const skillBy = new ByApplication(skills);
    const answerBy = new Map<string, unknown>();
    for (const a of answers as Row[]) answerBy.set(`${a.application_id}:${a.question_id}`, a.answer);
    const row = (a: Row): CellValue[] => {
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
        skillBy
          .of(id)
          .map((s) => s.name)
          .join(', '),
        experienceText(expBy.of(id)),
        educationText(eduBy.of(id)),
        a.resume_type
          ? resumeDownloadName({ first_name: a.first_name, last_name: a.last_name, job_title: job.title, content_type: a.resume_type })
          : '',
        sourceCell(a),
        ...questionIds.map((qid) => {
          const raw = answerBy.get(`${id}:${qid}`);
          return raw === undefined ? '' : answerCell(raw);
        }),
      ];
    };
    for (let i = 0; i < apps.length; i += ROWS_PER_YIELD) yield apps.slice(i, i + ROWS_PER_YIELD).map(row);
    if (apps.length < batchSize) return;
    const last = apps[apps.length - 1];
    cursor = { at: last.created_at, id: Number(last.id) };
  }
}
