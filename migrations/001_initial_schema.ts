/**
 * The whole data model of both spec documents, portable between SQLite and MySQL/MariaDB:
 * integer ids, indexed strings of at most 191 characters (utf8mb4 index limit), enums as strings
 * checked in code, JSON as text, dates as DATETIME(3) in UTC, booleans as 0/1.
 * Every filter the spec names has an index behind it.
 */
import type { Knex } from 'knex';

const dt = (t: Knex.CreateTableBuilder, name: string) => t.specificType(name, 'DATETIME(3)');

function longText(t: Knex.CreateTableBuilder, name: string) {
  return t.text(name, 'mediumtext');
}

export async function up(knex: Knex): Promise<void> {
  const mysql = knex.client.config.client === 'mysql2';
  const tableOpts = (t: Knex.CreateTableBuilder) => {
    if (mysql) {
      t.engine('InnoDB');
      t.charset('utf8mb4');
      t.collate('utf8mb4_unicode_ci');
    }
  };

  await knex.schema.createTable('hr_users', (t) => {
    tableOpts(t);
    t.increments('id');
    t.string('username', 150).notNullable().unique();
    t.string('password_hash', 255).notNullable();
    t.boolean('is_active').notNullable().defaultTo(true);
    dt(t, 'created_at').notNullable();
    dt(t, 'updated_at').notNullable();
    dt(t, 'last_login_at').nullable();
  });

  await knex.schema.createTable('hr_sessions', (t) => {
    tableOpts(t);
    t.increments('id');
    t.integer('user_id').unsigned().notNullable().references('id').inTable('hr_users').onDelete('CASCADE');
    t.string('token_hash', 64).notNullable().unique();
    dt(t, 'created_at').notNullable();
    dt(t, 'expires_at').notNullable().index();
    t.string('ip', 64).nullable();
    t.string('user_agent', 191).nullable();
  });

  await knex.schema.createTable('jobs', (t) => {
    tableOpts(t);
    t.increments('id');
    t.string('public_id', 64).notNullable().unique();
    t.string('title', 191).notNullable();
    t.string('location', 191).notNullable().defaultTo('');
    t.string('job_type', 16).notNullable();
    t.string('work_mode', 16).notNullable();
    longText(t, 'description').nullable();
    longText(t, 'responsibilities').nullable();
    longText(t, 'requirements').nullable();
    longText(t, 'perks_benefits').nullable();
    t.string('currency', 3).notNullable().defaultTo('USD');
    t.decimal('min_salary', 14, 2).nullable();
    t.decimal('max_salary', 14, 2).nullable();
    t.string('experience_required', 191).notNullable().defaultTo('');
    t.string('duration', 191).nullable();
    t.string('status', 16).notNullable().defaultTo('INACTIVE');
    t.integer('views').unsigned().notNullable().defaultTo(0);
    t.boolean('webhook_enabled').notNullable().defaultTo(false);
    t.string('webhook_url', 2048).nullable();
    t.string('webhook_secret', 255).nullable();
    dt(t, 'created_at').notNullable();
    dt(t, 'updated_at').notNullable();
    // Public list: status + newest first; filters by type, mode and location within a status.
    t.index(['status', 'created_at'], 'jobs_status_created_idx');
    t.index(['status', 'job_type'], 'jobs_status_type_idx');
    t.index(['status', 'work_mode'], 'jobs_status_mode_idx');
    t.index(['status', 'location'], 'jobs_status_location_idx');
    t.index(['title'], 'jobs_title_idx');
  });

  await knex.schema.createTable('job_questions', (t) => {
    tableOpts(t);
    t.increments('id');
    t.integer('job_id').unsigned().notNullable().references('id').inTable('jobs').onDelete('CASCADE');
    t.text('text').notNullable();
    t.text('help_text').nullable();
    t.string('placeholder', 191).notNullable().defaultTo('');
    t.boolean('required').notNullable().defaultTo(false);
    t.string('answer_type', 16).notNullable();
    t.text('options').notNullable(); // JSON list of strings
    t.integer('position').notNullable().defaultTo(0); // the API's "order"
    t.boolean('is_deleted').notNullable().defaultTo(false); // kept for past answers
    t.index(['job_id', 'position'], 'job_questions_job_idx');
  });

  await knex.schema.createTable('stored_files', (t) => {
    tableOpts(t);
    t.increments('id');
    t.string('storage_key', 191).notNullable().unique(); // random name on disk/object storage
    t.string('original_name', 255).notNullable(); // metadata only, never used as a path
    t.string('content_type', 127).notNullable();
    t.bigInteger('size').unsigned().notNullable();
    t.string('sha256', 64).notNullable();
    dt(t, 'created_at').notNullable();
  });

  await knex.schema.createTable('applications', (t) => {
    tableOpts(t);
    t.increments('id');
    t.integer('job_id').unsigned().notNullable().references('id').inTable('jobs').onDelete('CASCADE');
    t.string('first_name', 60).notNullable();
    t.string('last_name', 60).notNullable().defaultTo('');
    t.string('email', 254).notNullable(); // lower-cased on write
    t.string('phone', 32).notNullable();
    t.string('status', 16).notNullable().defaultTo('NEW');
    t.integer('resume_file_id').unsigned().nullable().references('id').inTable('stored_files').onDelete('SET NULL');
    t.string('ip_hash', 64).nullable();
    dt(t, 'created_at').notNullable();
    dt(t, 'updated_at').notNullable();
    // One application per email per job.
    t.unique(['job_id', 'email'], { indexName: 'applications_job_email_uq' });
    t.index(['job_id', 'created_at'], 'applications_job_created_idx');
    t.index(['status', 'created_at'], 'applications_status_created_idx');
    t.index(['created_at'], 'applications_created_idx');
    t.index(['email'], 'applications_email_idx');
    t.index(['phone'], 'applications_phone_idx');
    t.index(['last_name', 'first_name'], 'applications_name_idx');
  });

  await knex.schema.createTable('application_experiences', (t) => {
    tableOpts(t);
    t.increments('id');
    t.integer('application_id').unsigned().notNullable().references('id').inTable('applications').onDelete('CASCADE');
    t.integer('position').notNullable().defaultTo(0);
    t.string('company', 191).notNullable();
    t.string('role', 191).notNullable();
    t.string('start', 7).notNullable(); // YYYY-MM
    t.string('end', 7).nullable();
    t.string('notice_period', 191).notNullable().defaultTo('');
    t.string('salary', 191).notNullable().defaultTo('');
    t.text('description').nullable();
    t.index(['application_id', 'position'], 'application_experiences_app_idx');
  });

  await knex.schema.createTable('application_education', (t) => {
    tableOpts(t);
    t.increments('id');
    t.integer('application_id').unsigned().notNullable().references('id').inTable('applications').onDelete('CASCADE');
    t.integer('position').notNullable().defaultTo(0);
    t.string('school', 191).notNullable();
    t.string('degree', 191).notNullable();
    t.string('field', 191).notNullable().defaultTo('');
    t.string('start', 7).notNullable();
    t.string('end', 7).nullable();
    t.index(['application_id', 'position'], 'application_education_app_idx');
  });

  await knex.schema.createTable('application_skills', (t) => {
    tableOpts(t);
    t.increments('id');
    t.integer('application_id').unsigned().notNullable().references('id').inTable('applications').onDelete('CASCADE');
    t.integer('position').notNullable().defaultTo(0);
    t.string('name', 100).notNullable();
    t.index(['application_id', 'position'], 'application_skills_app_idx');
    t.index(['name'], 'application_skills_name_idx');
  });

  await knex.schema.createTable('application_answers', (t) => {
    tableOpts(t);
    t.increments('id');
    t.integer('application_id').unsigned().notNullable().references('id').inTable('applications').onDelete('CASCADE');
    t.integer('question_id').unsigned().nullable().references('id').inTable('job_questions').onDelete('SET NULL');
    t.text('question_text').notNullable(); // snapshot, so answers survive question edits
    t.text('answer').notNullable(); // JSON: string, number or list of strings
    // Normalised scalar (first 191 chars, lower-case for text) so analytics group in the database.
    t.string('answer_key', 191).nullable();
    t.decimal('answer_number', 20, 4).nullable();
    t.index(['question_id', 'answer_key'], 'application_answers_question_key_idx');
    t.index(['application_id'], 'application_answers_app_idx');
  });

  // One row per ticked option of a checkbox answer: distribution counts are one GROUP BY.
  await knex.schema.createTable('application_answer_choices', (t) => {
    tableOpts(t);
    t.increments('id');
    t.integer('answer_id').unsigned().notNullable().references('id').inTable('application_answers').onDelete('CASCADE');
    t.integer('question_id').unsigned().nullable().references('id').inTable('job_questions').onDelete('SET NULL');
    t.string('choice', 191).notNullable();
    t.index(['question_id', 'choice'], 'application_answer_choices_q_idx');
    t.index(['answer_id'], 'application_answer_choices_answer_idx');
  });

  // Outbox of job webhook deliveries (written in the application's transaction).
  await knex.schema.createTable('application_posts', (t) => {
    tableOpts(t);
    t.increments('id');
    t.integer('application_id').unsigned().notNullable().references('id').inTable('applications').onDelete('CASCADE');
    t.integer('job_id').unsigned().notNullable().references('id').inTable('jobs').onDelete('CASCADE');
    t.string('target_url', 2048).notNullable();
    t.text('payload').notNullable(); // JSON body as it will be sent
    t.string('status', 16).notNullable().defaultTo('PENDING'); // PENDING, SUCCESS, FAILED
    t.integer('status_code').nullable();
    t.text('error_message').nullable();
    t.integer('attempts').notNullable().defaultTo(0);
    dt(t, 'next_attempt_at').nullable();
    dt(t, 'locked_until').nullable(); // claim, so two processes never deliver the same post
    dt(t, 'delivered_at').nullable();
    dt(t, 'created_at').notNullable();
    dt(t, 'updated_at').notNullable();
    t.index(['status', 'created_at'], 'application_posts_status_created_idx');
    t.index(['status', 'next_attempt_at'], 'application_posts_due_idx');
    t.index(['job_id', 'created_at'], 'application_posts_job_idx');
    t.index(['application_id'], 'application_posts_app_idx');
  });

  await knex.schema.createTable('forms', (t) => {
    tableOpts(t);
    t.increments('id');
    t.string('public_id', 64).notNullable().unique();
    t.string('title', 191).notNullable();
    t.text('description').nullable();
    t.text('success_message').nullable();
    t.text('inactive_notice').nullable();
    t.string('status', 16).notNullable().defaultTo('INACTIVE');
    t.boolean('api_enabled').notNullable().defaultTo(false);
    t.string('api_url', 2048).nullable();
    t.string('api_secret', 255).nullable();
    t.text('api_mapping').notNullable(); // JSON object {external_key: field_name}
    dt(t, 'created_at').notNullable();
    dt(t, 'updated_at').notNullable();
    t.index(['status', 'created_at'], 'forms_status_created_idx');
  });

  await knex.schema.createTable('form_sections', (t) => {
    tableOpts(t);
    t.increments('id');
    t.integer('form_id').unsigned().notNullable().references('id').inTable('forms').onDelete('CASCADE');
    t.string('title', 191).notNullable().defaultTo('');
    t.integer('position').notNullable().defaultTo(0); // the API's "order"
    t.index(['form_id', 'position'], 'form_sections_form_idx');
  });

  await knex.schema.createTable('form_fields', (t) => {
    tableOpts(t);
    t.increments('id');
    t.integer('section_id').unsigned().notNullable().references('id').inTable('form_sections').onDelete('CASCADE');
    t.integer('form_id').unsigned().notNullable().references('id').inTable('forms').onDelete('CASCADE');
    t.string('name', 64).notNullable();
    t.string('label', 191).notNullable();
    t.string('field_type', 16).notNullable();
    t.boolean('required').notNullable().defaultTo(false);
    t.string('placeholder', 191).notNullable().defaultTo('');
    t.text('help_text').nullable();
    t.text('options').notNullable(); // JSON list of strings
    t.integer('position').notNullable().defaultTo(0);
    t.bigInteger('max_file_size').unsigned().nullable(); // bytes
    t.text('allowed_extensions').notNullable(); // JSON list of strings
    t.unique(['section_id', 'name'], { indexName: 'form_fields_section_name_uq' });
    t.index(['form_id'], 'form_fields_form_idx');
  });

  await knex.schema.createTable('form_entries', (t) => {
    tableOpts(t);
    t.increments('id');
    t.integer('form_id').unsigned().notNullable().references('id').inTable('forms').onDelete('CASCADE');
    longText(t, 'data').notNullable(); // JSON {field_name: value}
    t.string('ip_hash', 64).nullable();
    dt(t, 'created_at').notNullable();
    t.index(['form_id', 'created_at'], 'form_entries_form_created_idx');
  });

  await knex.schema.createTable('form_entry_files', (t) => {
    tableOpts(t);
    t.increments('id');
    t.integer('entry_id').unsigned().notNullable().references('id').inTable('form_entries').onDelete('CASCADE');
    t.string('field_name', 64).notNullable();
    t.integer('file_id').unsigned().notNullable().references('id').inTable('stored_files').onDelete('CASCADE');
    t.index(['entry_id'], 'form_entry_files_entry_idx');
  });

  // Outbox of form "API posts".
  await knex.schema.createTable('form_posts', (t) => {
    tableOpts(t);
    t.increments('id');
    t.integer('form_id').unsigned().notNullable().references('id').inTable('forms').onDelete('CASCADE');
    t.integer('entry_id').unsigned().notNullable().references('id').inTable('form_entries').onDelete('CASCADE');
    t.string('target_url', 2048).notNullable();
    t.text('payload').notNullable();
    t.string('status', 16).notNullable().defaultTo('PENDING');
    t.integer('status_code').nullable();
    t.text('error_message').nullable();
    t.integer('attempts').notNullable().defaultTo(0);
    dt(t, 'next_attempt_at').nullable();
    dt(t, 'locked_until').nullable();
    dt(t, 'delivered_at').nullable();
    dt(t, 'created_at').notNullable();
    dt(t, 'updated_at').notNullable();
    t.index(['form_id', 'status', 'created_at'], 'form_posts_form_status_idx');
    t.index(['status', 'next_attempt_at'], 'form_posts_due_idx');
    t.index(['entry_id'], 'form_posts_entry_idx');
  });

  // Shared counters for rate limits, so every process behind a load balancer sees the same hits.
  await knex.schema.createTable('rate_limit_hits', (t) => {
    tableOpts(t);
    t.string('key', 191).primary();
    t.integer('hits').notNullable().defaultTo(0);
    dt(t, 'reset_at').notNullable().index();
  });

  // Audit trail of HR changes (who changed what, when).
  await knex.schema.createTable('audit_log', (t) => {
    tableOpts(t);
    t.increments('id');
    t.integer('user_id').unsigned().nullable().references('id').inTable('hr_users').onDelete('SET NULL');
    t.string('action', 64).notNullable();
    t.string('entity', 32).notNullable();
    t.integer('entity_id').nullable();
    t.text('details').nullable();
    dt(t, 'created_at').notNullable();
    t.index(['entity', 'entity_id'], 'audit_log_entity_idx');
    t.index(['created_at'], 'audit_log_created_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'audit_log',
    'rate_limit_hits',
    'form_posts',
    'form_entry_files',
    'form_entries',
    'form_fields',
    'form_sections',
    'forms',
    'application_posts',
    'application_answer_choices',
    'application_answers',
    'application_skills',
    'application_education',
    'application_experiences',
    'applications',
    'stored_files',
    'job_questions',
    'jobs',
    'hr_sessions',
    'hr_users',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
