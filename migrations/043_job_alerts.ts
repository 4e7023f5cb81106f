/**
 * Issue 35, "Job alerts" on the careers site:
 * - `job_alerts`: one subscription of an email address (lower-cased as erase matches it) with its
 *   filters ('' = any: department, location, work mode, keywords) and how often it is sent
 *   (`frequency` daily or weekly). `status` PENDING until the address confirms (double opt-in),
 *   then ACTIVE; the consent asked for (`consent_text`) and when it was given (`consent_at`, the
 *   confirmation); `expires_at` a year after confirming or renewing; `last_run_at` the last time a
 *   digest run looked at it (sent or not: nothing new sends nothing) and `run_token` the run that
 *   claimed it, so two processes never send the same digest.
 * - `job_alert_jobs`: the jobs an alert already knows (`sent` 1: sent in a digest; 0: open when it
 *   was confirmed), so each job is sent at most once; gone with the alert or the job.
 * - two email templates HR edits (purposes `alert_confirm` and `alert_digest`), written into
 *   existing databases too (a name HR already uses gets a number after it).
 * Rolling back drops both tables (every alert and what it was sent) and deletes the two templates.
 */
import type { Knex } from 'knex';
import { toDbDate } from '../src/db/codecs.js';

const ALERT_TEMPLATES = [
  {
    purpose: 'alert_confirm',
    name: 'Job alert confirmation',
    subject: 'Confirm your job alert from {company_name}',
    body: [
      'Hello,',
      'Someone (we hope you) asked for {frequency} emails about new jobs at {company_name} matching: {filters}.',
      'To start receiving them, confirm here: {confirm_link}',
      'If this was not you, ignore this email: nothing will be sent to you.',
      '{company_name} Careers',
    ].join('\n\n'),
  },
  {
    purpose: 'alert_digest',
    name: 'Job alert digest',
    subject: 'New jobs at {company_name}: {job_count}',
    body: [
      'Hello,',
      'New jobs at {company_name} matching your alert ({filters}):',
      '{jobs}',
      'This alert runs until {expires_on}. Keep it for another year: {renew_link}',
      'Stop these emails: {unsubscribe_link}',
      '{company_name} Careers',
    ].join('\n\n'),
  },
] as const;

const PURPOSES = ALERT_TEMPLATES.map((t) => t.purpose);

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('job_alerts', (t) => {
    t.increments('id').primary();
    // Compared byte for byte on MySQL as on SQLite (DESIGN.md "Email equality", as applications since 008): erase never takes a look-alike.
    const email = t.string('email', 254).notNullable();
    if (knex.client.config.client === 'mysql2') email.collate('utf8mb4_bin');
    t.string('department', 191).notNullable().defaultTo('');
    t.string('location', 191).notNullable().defaultTo('');
    t.string('work_mode', 16).notNullable().defaultTo('');
    t.string('keywords', 191).notNullable().defaultTo('');
    t.string('frequency', 8).notNullable();
    t.string('status', 16).notNullable();
    t.text('consent_text').notNullable();
    t.specificType('consent_at', 'DATETIME(3)').nullable();
    t.specificType('confirm_sent_at', 'DATETIME(3)').nullable();
    t.specificType('confirmed_at', 'DATETIME(3)').nullable();
    t.specificType('expires_at', 'DATETIME(3)').nullable();
    t.specificType('renewed_at', 'DATETIME(3)').nullable();
    t.specificType('last_run_at', 'DATETIME(3)').nullable();
    t.string('run_token', 32).nullable();
    t.specificType('created_at', 'DATETIME(3)').notNullable();
    t.specificType('updated_at', 'DATETIME(3)').notNullable();
    t.index(['email'], 'job_alerts_email_idx');
    t.index(['status', 'expires_at'], 'job_alerts_status_expires_idx');
    t.index(['status', 'created_at'], 'job_alerts_status_created_idx');
    t.index(['run_token'], 'job_alerts_run_token_idx');
  });
  await knex.schema.createTable('job_alert_jobs', (t) => {
    t.integer('alert_id').unsigned().notNullable().references('id').inTable('job_alerts').onDelete('CASCADE');
    t.integer('job_id').unsigned().notNullable().references('id').inTable('jobs').onDelete('CASCADE');
    t.boolean('sent').notNullable();
    t.specificType('created_at', 'DATETIME(3)').notNullable();
    t.primary(['alert_id', 'job_id']);
    t.index(['job_id'], 'job_alert_jobs_job_idx');
  });
  const taken = new Set((await knex('email_templates').select('name')).map((r: { name: string }) => r.name.toLocaleLowerCase('en')));
  const now = toDbDate(new Date());
  for (const d of ALERT_TEMPLATES) {
    let name: string = d.name;
    for (let n = 2; taken.has(name.toLocaleLowerCase('en')); n++) name = `${d.name} ${n}`;
    taken.add(name.toLocaleLowerCase('en'));
    await knex('email_templates').insert({ ...d, name, created_at: now, updated_at: now });
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex('email_templates').whereIn('purpose', PURPOSES).delete();
  await knex.schema.dropTableIfExists('job_alert_jobs');
  await knex.schema.dropTableIfExists('job_alerts');
}
