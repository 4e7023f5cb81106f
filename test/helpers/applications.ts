/**
 * Fast bulk inserter of applications straight into the tables, for the insights/export tests and
 * the HR benchmark. Rows are written exactly as the apply API writes them (src/applicants/repo.ts
 * and schema.ts): answers as JSON with answer_key / answer_number, the search words, one application_answer_choices
 * row per ticked checkbox option, unanswered questions without a row, a stored_files row per resume.
 *
 * Speed: ids are allocated up front (MAX(id) + n) so child rows need no read-back, and every table
 * gets multi-row INSERT ... VALUES statements (Knex's SQLite insert builds UNION ALL selects capped
 * at 500 rows, so the statements are written here), all inside one transaction per call.
 */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { toDbDate } from '../../src/db/codecs.js';
import { entryStageId } from '../../src/applicants/apply.repo.js';
import { tallyNewApplications, type TalliedAnswer } from '../../src/applicants/tallies.repo.js';
import type { JobQuestion } from '../../src/jobs/types.js';
import { applicationSearchWords } from '../../src/shared/search-words.js';
import type { EducationEntry, ExperienceEntry } from '../../src/shared/application-rules.js';

export type SeedAnswer = string | number | string[];

export interface SeedApplication {
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  status?: 'NEW' | 'REVIEWED' | 'ARCHIVED';
  created_at?: Date;
  skills?: string[];
  experiences?: ExperienceEntry[];
  education?: EducationEntry[];
  /** Question id -> answer; a question left out (or undefined) is unanswered. */
  answers?: Record<number, SeedAnswer | undefined>;
  /** Original name of the resume; null: no resume row. */
  resume_name?: string | null;
}

type Row = Record<string, unknown>;

/** Bound parameters per statement stay under SQLite's limit of 32,766. */
const MAX_PARAMS = 30_000;

async function insertRows(trx: Knex, table: string, rows: Row[]): Promise<void> {
  if (!rows.length) return;
  const columns = Object.keys(rows[0]);
  const perStatement = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
  const cols = columns.map((c) => `\`${c}\``).join(', ');
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  for (let i = 0; i < rows.length; i += perStatement) {
    const chunk = rows.slice(i, i + perStatement);
    const bindings: Knex.RawBinding[] = [];
    for (const r of chunk) for (const c of columns) bindings.push((r[c] ?? null) as Knex.RawBinding);
    await trx.raw(`INSERT INTO \`${table}\` (${cols}) VALUES ${Array(chunk.length).fill(tuple).join(', ')}`, bindings);
  }
}

async function maxId(trx: Knex, table: string): Promise<number> {
  const row = (await trx(table).max({ m: 'id' }).first()) as { m: number | string | null } | undefined;
  return Number(row?.m ?? 0);
}

/** The stored form of one answer, as the apply API writes it. */
function answerColumns(
  q: JobQuestion,
  value: SeedAnswer,
): { answer: string; answer_key: string | null; answer_number: number | null; choices: string[] } {
  switch (q.answer_type) {
    case 'short_text':
    case 'long_text': {
      const v = String(value).trim();
      return { answer: JSON.stringify(v), answer_key: v.toLowerCase().slice(0, 191), answer_number: null, choices: [] };
    }
    case 'number': {
      const n = Number(value);
      return { answer: JSON.stringify(n), answer_key: String(n), answer_number: n, choices: [] };
    }
    case 'single_choice': {
      const v = String(value);
      return { answer: JSON.stringify(v), answer_key: v.slice(0, 191), answer_number: null, choices: [] };
    }
    case 'checkbox': {
      const choices = [...new Set(Array.isArray(value) ? value : [String(value)])];
      return { answer: JSON.stringify(choices), answer_key: null, answer_number: null, choices };
    }
  }
}

/**
 * Inserts the applications of one job (consumed lazily, `batchSize` at a time, one transaction per
 * batch) and returns how many were written. `questions` are the job's questions (for answer_type
 * and the question_text snapshot).
 */
export async function insertApplications(
  db: Knex,
  jobId: number,
  apps: Iterable<SeedApplication>,
  questions: JobQuestion[],
  opts: { batchSize?: number; now?: Date } = {},
): Promise<number> {
  const batchSize = opts.batchSize ?? 2000;
  const byId = new Map(questions.map((q) => [q.id, q]));
  const now = opts.now ?? new Date();
  let total = 0;
  let batch: SeedApplication[] = [];
  const flush = async () => {
    if (!batch.length) return;
    const current = batch;
    batch = [];
    await db.transaction(async (trx) => {
      let appId = await maxId(trx, 'applications');
      let fileId = await maxId(trx, 'stored_files');
      let answerId = await maxId(trx, 'application_answers');
      // New applications start in the job's first stage, as the apply API's insert does.
      const stageId = await entryStageId(trx, jobId);
      const files: Row[] = [];
      const applications: Row[] = [];
      const experiences: Row[] = [];
      const education: Row[] = [];
      const skills: Row[] = [];
      const answers: Row[] = [];
      const choices: Row[] = [];
      const words: Row[] = [];
      const tallied: { id: number; answers: TalliedAnswer[] }[] = [];
      for (const a of current) {
        appId += 1;
        const at = toDbDate(a.created_at ?? now);
        let resumeId: number | null = null;
        if (a.resume_name !== null) {
          resumeId = ++fileId;
          const name = a.resume_name ?? `${a.first_name}_${a.last_name}_resume.pdf`.replace(/[^\w.-]+/g, '_');
          files.push({
            id: resumeId,
            storage_key: `seed/${jobId}/${appId}-${fileId}`,
            original_name: name,
            content_type: 'application/pdf',
            size: 20_000 + (appId % 50_000),
            sha256: createHash('sha256').update(String(fileId)).digest('hex'),
            created_at: at,
          });
        }
        applications.push({
          id: appId,
          job_id: jobId,
          first_name: a.first_name,
          last_name: a.last_name,
          email: a.email.toLowerCase(),
          phone: a.phone,
          status: a.status ?? 'NEW',
          stage_id: stageId,
          resume_file_id: resumeId,
          ip_hash: null,
          created_at: at,
          updated_at: at,
        });
        for (const word of applicationSearchWords(a)) words.push({ word, application_id: appId, created_at: at });
        (a.experiences ?? []).forEach((e, position) => {
          experiences.push({
            application_id: appId,
            position,
            company: e.company,
            role: e.role,
            start: e.start,
            end: e.end || null,
            notice_period: e.notice_period,
            salary: e.salary,
            description: e.description || null,
          });
        });
        (a.education ?? []).forEach((e, position) => {
          education.push({
            application_id: appId,
            position,
            school: e.school,
            degree: e.degree,
            field: e.field,
            start: e.start,
            end: e.end || null,
          });
        });
        (a.skills ?? []).forEach((name, position) => {
          skills.push({ application_id: appId, position, name });
        });
        const appAnswers: TalliedAnswer[] = [];
        tallied.push({ id: appId, answers: appAnswers });
        for (const [qid, value] of Object.entries(a.answers ?? {})) {
          const q = byId.get(Number(qid));
          if (!q) throw new Error(`insertApplications: question ${qid} is not one of the job's questions`);
          if (value === undefined) continue;
          const cols = answerColumns(q, value);
          answerId += 1;
          answers.push({
            id: answerId,
            application_id: appId,
            question_id: q.id,
            question_text: q.text,
            answer: cols.answer,
            answer_key: cols.answer_key,
            answer_number: cols.answer_number,
          });
          for (const choice of cols.choices) choices.push({ answer_id: answerId, question_id: q.id, choice });
          appAnswers.push({ question_id: q.id, answer_key: cols.answer_key, answer_number: cols.answer_number, choices: cols.choices });
        }
      }
      // Parents before children (foreign keys are on in SQLite).
      await insertRows(trx, 'stored_files', files);
      await insertRows(trx, 'applications', applications);
      await insertRows(trx, 'application_experiences', experiences);
      await insertRows(trx, 'application_education', education);
      await insertRows(trx, 'application_skills', skills);
      await insertRows(trx, 'application_answers', answers);
      await insertRows(trx, 'application_answer_choices', choices);
      await insertRows(trx, 'application_search_words', words);
      // As the app's insert does (src/applicants/repo.ts), so insights read the same tallies.
      await tallyNewApplications(trx, jobId, tallied);
    });
    total += current.length;
  };
  for (const a of apps) {
    batch.push(a);
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  return total;
}

// ---- Realistic generated applications ----

/** Small deterministic PRNG (mulberry32), so a seed always gives the same data. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = [
  'Asha',
  'Rahul',
  'Priya',
  'Arjun',
  'Meera',
  'Vikram',
  'Ananya',
  'Karan',
  'Sneha',
  'Rohan',
  'Emma',
  'Liam',
  'Olivia',
  'Noah',
  'Sofia',
  'Lucas',
  'Mia',
  'Ethan',
  'Chloé',
  'Mateo',
];
const LAST = [
  'Sharma',
  'Patel',
  'Iyer',
  "D'Souza",
  'Nair',
  'Reddy',
  'Gupta',
  'Smith',
  'Müller',
  'García',
  'Rossi',
  'Kowalski',
  'Nguyen',
  'Okafor',
  'Silva',
  'Jensen',
];
const COMPANIES = [
  'Initech',
  'Globex',
  'Umbrella Labs',
  'Hooli',
  'Stark Industries',
  'Wayne Enterprises',
  'Acme Corp',
  'Soylent',
  'Tyrell',
  'Cyberdyne',
];
const ROLES = [
  'Software Engineer',
  'Senior Engineer',
  'Data Analyst',
  'Product Manager',
  'QA Engineer',
  'DevOps Engineer',
  'Designer',
  'Team Lead',
];
const SCHOOLS = ['IIT Bombay', 'IIT Delhi', 'BITS Pilani', 'University of Pune', 'TU Munich', 'University of Lisbon', 'MIT', 'NUS'];
const DEGREES = ['B.Tech', 'B.Sc', 'M.Tech', 'M.Sc', 'MBA', 'BE'];
const FIELDS = ['Computer Science', 'Electronics', 'Mathematics', 'Design', 'Economics', 'Physics'];
const SKILLS = [
  'TypeScript',
  'JavaScript',
  'Node.js',
  'React',
  'SQL',
  'MySQL',
  'Python',
  'Go',
  'Docker',
  'Kubernetes',
  'AWS',
  'Figma',
  'Java',
  'Kotlin',
  'GraphQL',
  'Redis',
];
const SHORT_ANSWERS = [
  'Yes',
  'No',
  'Immediately',
  '30 days',
  '60 days',
  '90 days',
  'Bangalore',
  'Pune',
  'Remote',
  'Hybrid',
  'LinkedIn',
  'Referral',
  'Company website',
  'Job board',
];
const LONG_OPENERS = [
  'I have built',
  'I led a team that shipped',
  'I enjoy working on',
  'My last project was',
  'I want to grow in',
  'I am passionate about',
];
const LONG_TOPICS = [
  'payment systems',
  'search ranking',
  'mobile apps',
  'data pipelines',
  'design systems',
  'developer tools',
  'internal dashboards',
  'API platforms',
];

function pick<T>(r: () => number, list: readonly T[]): T {
  return list[Math.floor(r() * list.length)];
}

/** Skewed pick: earlier entries are much more common (like real answers). */
function skewed<T>(r: () => number, list: readonly T[]): T {
  return list[Math.min(list.length - 1, Math.floor(list.length * r() * r()))];
}

const ym = (y: number, m: number) => `${y}-${String(m).padStart(2, '0')}`;

/** A realistic answer for a question, or undefined (optional questions are skipped 1 time in 5). */
function realisticAnswer(r: () => number, q: JobQuestion): SeedAnswer | undefined {
  if (!q.required && r() < 0.2) return undefined;
  switch (q.answer_type) {
    case 'short_text': {
      const v = skewed(r, SHORT_ANSWERS);
      // Case and spacing vary, as people type them; the key groups them.
      return r() < 0.2 ? v.toUpperCase() : r() < 0.2 ? ` ${v.toLowerCase()} ` : v;
    }
    case 'long_text':
      return `${pick(r, LONG_OPENERS)} ${pick(r, LONG_TOPICS)} for ${1 + Math.floor(r() * 12)} years at ${pick(r, COMPANIES)}.`;
    case 'number':
      return Math.floor(r() * r() * 25);
    case 'single_choice':
      return q.options.length ? skewed(r, q.options) : undefined;
    case 'checkbox': {
      const ticked = q.options.filter(() => r() < 0.4);
      return ticked.length ? ticked : q.options.length ? [q.options[0]] : undefined;
    }
  }
}

/**
 * `count` realistic applications (lazily generated): unique emails per job, +91 phones, one to
 * three experiences, one or two education entries, two to six skills, answers to the questions.
 */
export function* realisticApplications(
  count: number,
  questions: JobQuestion[],
  opts: { seed?: number; emailTag?: string; until?: Date; days?: number } = {},
): Generator<SeedApplication> {
  const r = rng(opts.seed ?? 1);
  const until = (opts.until ?? new Date()).getTime();
  const spanMs = (opts.days ?? 90) * 86_400_000;
  const tag = opts.emailTag ?? 'a';
  for (let i = 0; i < count; i++) {
    const first = pick(r, FIRST);
    const last = pick(r, LAST);
    const startYear = 2008 + Math.floor(r() * 14);
    const experiences: ExperienceEntry[] = [];
    const nExp = 1 + Math.floor(r() * 3);
    for (let e = 0; e < nExp; e++) {
      const y = startYear + e * 3;
      experiences.push({
        company: pick(r, COMPANIES),
        role: pick(r, ROLES),
        start: ym(y, 1 + Math.floor(r() * 12)),
        end: e === nExp - 1 && r() < 0.5 ? '' : ym(y + 2, 1 + Math.floor(r() * 12)),
        notice_period: pick(r, ['Immediate', '15 days', '30 days', '60 days', '90 days']),
        salary: `${8 + Math.floor(r() * 40)} LPA`,
        description: r() < 0.6 ? `Worked on ${pick(r, LONG_TOPICS)} with ${pick(r, SKILLS)} and ${pick(r, SKILLS)}.` : '',
      });
    }
    const education: EducationEntry[] = [
      { school: pick(r, SCHOOLS), degree: pick(r, DEGREES), field: pick(r, FIELDS), start: ym(startYear - 4, 7), end: ym(startYear, 5) },
    ];
    if (r() < 0.3)
      education.push({
        school: pick(r, SCHOOLS),
        degree: pick(r, ['M.Tech', 'MBA', 'M.Sc']),
        field: pick(r, FIELDS),
        start: ym(startYear + 1, 7),
        end: ym(startYear + 3, 5),
      });
    const skills = [...new Set(Array.from({ length: 2 + Math.floor(r() * 5) }, () => pick(r, SKILLS)))];
    const answers: Record<number, SeedAnswer | undefined> = {};
    for (const q of questions) answers[q.id] = realisticAnswer(r, q);
    const roll = r();
    yield {
      first_name: first,
      last_name: last,
      email: `${first.toLowerCase().replace(/[^a-z]/g, '')}.${i}.${tag}@example.com`,
      phone: `+91${String(7_000_000_000 + Math.floor(r() * 2_999_999_999))}`,
      status: roll < 0.7 ? 'NEW' : roll < 0.9 ? 'REVIEWED' : 'ARCHIVED',
      created_at: new Date(until - Math.floor(r() * spanMs)),
      skills,
      experiences,
      education,
      answers,
    };
  }
}
