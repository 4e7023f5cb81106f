/**
 * Emails to candidates (issue 20):
 * - `email_templates`: the templates HR edits (name, one-line subject, plain-text body with
 *   `{first_name}`-style variables), with the three defaults written here: the application receipt,
 *   a rejection and an interview invitation (`purpose` marks them, so screens can pick the
 *   rejection template for a bulk rejection).
 * - on `email_posts`: who sent an email (`sent_by`, an HR user's id; null for the emails the
 *   application itself sends) and from which template (`template_id`, and its name as it was, so
 *   the timeline still says it after the template is renamed or deleted). No foreign keys: on
 *   SQLite Knex would rebuild the table to add them, and that rebuild would delete every delivery
 *   attempt that cascades from it; readers join the users table and take a missing user as gone.
 */
import type { Knex } from 'knex';
import { toDbDate } from '../src/db/codecs.js';

const dt = (t: Knex.CreateTableBuilder, name: string) => t.specificType(name, 'DATETIME(3)');

/** The defaults, in the order they are listed. */
export const DEFAULT_TEMPLATES = [
  {
    purpose: 'receipt',
    name: 'Application received',
    subject: 'Application received: {job_title}',
    body: [
      'Dear {first_name},',
      'Thank you for applying for the {job_title} position at {company_name}. We have received your application.',
      'Our hiring team reviews every application. If your profile matches the role, we will contact you by email to arrange the next steps. You do not need to apply again.',
      'Best regards,\n{company_name} Careers',
    ].join('\n\n'),
  },
  {
    purpose: 'rejection',
    name: 'Rejection',
    subject: 'Your application for {job_title} at {company_name}',
    body: [
      'Dear {first_name},',
      'Thank you for your interest in the {job_title} position at {company_name}, and for the time you gave to your application.',
      'After careful consideration, we have decided not to move forward with your application for this role. This was not an easy decision, as we received many strong applications.',
      'We would be glad to hear from you again when a future opening matches your experience, and we wish you every success in your search.',
      'Kind regards,\n{company_name} Careers',
    ].join('\n\n'),
  },
  {
    purpose: 'interview',
    name: 'Interview invitation',
    subject: 'Interview invitation: {job_title} at {company_name}',
    body: [
      'Dear {first_name},',
      'Thank you for applying for the {job_title} position at {company_name}. We enjoyed reading your application and would like to invite you to an interview.',
      'Please reply to this email with a few times that suit you over the coming week, and let us know whether you would prefer a video call or meeting in person.',
      'We look forward to speaking with you.',
      'Best regards,\n{company_name} Careers',
    ].join('\n\n'),
  },
] as const;

export async function up(knex: Knex): Promise<void> {
  const mysql = knex.client.config.client === 'mysql2';
  await knex.schema.createTable('email_templates', (t) => {
    if (mysql) {
      t.engine('InnoDB');
      t.charset('utf8mb4');
      t.collate('utf8mb4_unicode_ci');
    }
    t.increments('id');
    t.string('name', 100).notNullable();
    t.string('subject', 200).notNullable();
    // At most 10,000 characters (src/emails/schema.ts): up to 40,000 bytes, within TEXT.
    t.text('body').notNullable();
    t.string('purpose', 16).nullable(); // receipt, rejection, interview: the defaults
    dt(t, 'created_at').notNullable();
    dt(t, 'updated_at').notNullable();
  });
  const now = toDbDate(new Date());
  await knex('email_templates').insert(DEFAULT_TEMPLATES.map((d) => ({ ...d, created_at: now, updated_at: now })));
  await knex.schema.alterTable('email_posts', (t) => {
    t.integer('sent_by').unsigned().nullable();
    t.integer('template_id').unsigned().nullable();
    t.string('template_name', 100).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  // In place on SQLite: a rebuild of email_posts would delete the attempts cascading from it.
  if (knex.client.config.client === 'mysql2') {
    await knex.schema.alterTable('email_posts', (t) => t.dropColumns('template_name', 'template_id', 'sent_by'));
  } else {
    for (const column of ['template_name', 'template_id', 'sent_by']) await knex.raw('ALTER TABLE email_posts DROP COLUMN ??', [column]);
  }
  await knex.schema.dropTableIfExists('email_templates');
}
