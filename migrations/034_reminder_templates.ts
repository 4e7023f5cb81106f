/**
 * Interview reminders as email templates (issue 32, "settings per template"):
 * - on `email_templates`: `remind_24h` and `remind_1h`, whether a reminder template is sent 24
 *   hours and 1 hour before each scheduled interview (null on every other template); `purpose`
 *   widened to 32 characters for the new purposes.
 * - two defaults, sent at both times: "Interview reminder" to the candidate (`purpose`
 *   `reminder_candidate`) and "Interview reminder for interviewers" (`reminder_interviewer`),
 *   written into existing databases too (a name HR already uses gets a number after it).
 * Rolling back deletes the two templates and the columns (in place on SQLite, as 027).
 */
import type { Knex } from 'knex';
import { toDbDate } from '../src/db/codecs.js';

const isMysql = (knex: Knex) => knex.client.config.client === 'mysql2';

/** The reminder defaults, in the order they are listed. */
const REMINDER_TEMPLATES = [
  {
    purpose: 'reminder_candidate',
    name: 'Interview reminder',
    subject: 'Reminder: your interview for {job_title} at {company_name} starts in {hours_before}',
    body: [
      'Hello {first_name},',
      'A reminder: your interview for {job_title} at {company_name} starts in {hours_before}.',
      'When: {interview_time}\nWhere: {interview_place}\nWith: {interviewers}',
      '{interview_notes}',
      'We look forward to speaking with you.\n{company_name}',
    ].join('\n\n'),
  },
  {
    purpose: 'reminder_interviewer',
    name: 'Interview reminder for interviewers',
    subject: 'Reminder: your interview with {first_name} {last_name} for {job_title} starts in {hours_before}',
    body: [
      'Hello {interviewer_name},',
      'A reminder: your interview with {first_name} {last_name} for {job_title} starts in {hours_before}.',
      'When: {interview_time}\nWhere: {interview_place}\nWith: {interviewers}',
      'Your interview kit and scorecard: {scorecard_link}',
      '{company_name}',
    ].join('\n\n'),
  },
] as const;

const PURPOSES = REMINDER_TEMPLATES.map((t) => t.purpose);

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('email_templates', (t) => {
    t.boolean('remind_24h').nullable();
    t.boolean('remind_1h').nullable();
  });
  // SQLite does not hold a VARCHAR to its length; MySQL does (and altering on SQLite would rebuild the table).
  if (isMysql(knex)) await knex.schema.alterTable('email_templates', (t) => t.string('purpose', 32).nullable().alter());
  const taken = new Set((await knex('email_templates').select('name')).map((r: { name: string }) => r.name.toLocaleLowerCase('en')));
  const now = toDbDate(new Date());
  for (const d of REMINDER_TEMPLATES) {
    let name: string = d.name;
    for (let n = 2; taken.has(name.toLocaleLowerCase('en')); n++) name = `${d.name} ${n}`;
    taken.add(name.toLocaleLowerCase('en'));
    await knex('email_templates').insert({ ...d, name, remind_24h: true, remind_1h: true, created_at: now, updated_at: now });
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex('email_templates').whereIn('purpose', PURPOSES).delete();
  if (isMysql(knex)) {
    await knex.schema.alterTable('email_templates', (t) => {
      t.dropColumns('remind_24h', 'remind_1h');
      t.string('purpose', 16).nullable().alter();
    });
  } else {
    for (const column of ['remind_24h', 'remind_1h']) await knex.raw('ALTER TABLE email_templates DROP COLUMN ??', [column]);
  }
}
