/**
 * Issue 34 ("Offers"):
 * - `offer_templates`: the offer letters HR starts from (HTML under the rich-text rules, with the
 *   email templates' variables and the offer's own), kept by admins; one default written here.
 * - `offer_approval_chains`: who approves an offer: per job (`job_id`) or the default (`job_id`
 *   null, `scope` 'default'); `mode` ORDER (every approver in turn) or ANY (any `required` of
 *   them); `approver_ids` a JSON list of HR user ids, or null for "any admin"; `only_out_of_range`:
 *   an offer inside the job's pay range needs no approval. The default written here: one approval
 *   by any admin.
 * - `offers`: an application's offers with their terms, letter, status (draft, pending_approval,
 *   approved, sent, accepted, declined, expired, withdrawn), version (each change of a submitted
 *   offer makes a new one, and its approval starts again), the candidate's link (its SHA-256 only),
 *   the PDF shown (storage key and SHA-256), the signature (name, time, keyed address hash) and
 *   the signed PDF.
 * - `offer_approvals`: each approver's decision on one version of an offer, with its link's hash.
 * Rolling back drops the four tables (every offer, its PDFs' keys, approvals and templates).
 */
import type { Knex } from 'knex';
import { toDbDate } from '../src/db/codecs.js';

const DEFAULT_LETTER = [
  '<p>Dear {first_name} {last_name},</p>',
  '<p>We are delighted to offer you the position of <strong>{job_title}</strong> at {company_name}.</p>',
  '<p>Your base pay will be <strong>{base_pay} {currency} per {pay_period}</strong>, and your start date {start_date}.</p>',
  '<ul><li>Bonus: {bonus}</li><li>Equity: {equity}</li><li>Benefits: {benefits}</li></ul>',
  '<p>This offer is open until {expiry_date}. To accept it, sign it with your full name on the offer page.</p>',
  '<p>We look forward to working with you.</p>',
  '<p>{sender_name}<br>{company_name}</p>',
].join('');

export async function up(knex: Knex): Promise<void> {
  const mysql = knex.client.config.client === 'mysql2';
  const table = (t: Knex.CreateTableBuilder) => {
    if (!mysql) return;
    t.engine('InnoDB');
    t.charset('utf8mb4');
    t.collate('utf8mb4_bin');
  };
  await knex.schema.createTable('offer_templates', (t) => {
    table(t);
    t.increments('id');
    t.string('name', 100).notNullable();
    t.text('body', 'mediumtext').notNullable();
    t.boolean('is_default').notNullable().defaultTo(false);
    t.specificType('created_at', 'DATETIME(3)').notNullable();
    t.specificType('updated_at', 'DATETIME(3)').notNullable();
  });
  await knex.schema.createTable('offer_approval_chains', (t) => {
    table(t);
    t.increments('id');
    t.string('scope', 32).notNullable().unique('offer_chains_scope_unique');
    t.integer('job_id').unsigned().nullable().references('id').inTable('jobs').onDelete('CASCADE');
    t.string('mode', 8).notNullable().defaultTo('ANY');
    t.integer('required').notNullable().defaultTo(1);
    t.text('approver_ids').nullable();
    t.boolean('only_out_of_range').notNullable().defaultTo(false);
    t.specificType('updated_at', 'DATETIME(3)').notNullable();
  });
  await knex.schema.createTable('offers', (t) => {
    table(t);
    t.increments('id');
    t.integer('application_id').unsigned().notNullable().references('id').inTable('applications').onDelete('CASCADE');
    t.integer('job_id').unsigned().notNullable();
    t.string('status', 20).notNullable();
    t.integer('version').notNullable().defaultTo(1);
    t.decimal('base_pay', 14, 2).notNullable();
    t.string('salary_period', 8).notNullable();
    t.string('currency', 3).notNullable();
    t.string('start_date', 10).notNullable();
    t.string('expires_on', 10).notNullable();
    t.string('bonus', 1000).notNullable().defaultTo('');
    t.string('equity', 1000).notNullable().defaultTo('');
    t.string('benefits', 2000).notNullable().defaultTo('');
    t.integer('template_id').unsigned().nullable().references('id').inTable('offer_templates').onDelete('SET NULL');
    t.text('letter', 'mediumtext').notNullable();
    t.boolean('approval_needed').nullable();
    t.string('approval_mode', 8).nullable();
    t.integer('approvals_required').nullable();
    t.string('rejection_comment', 1000).notNullable().defaultTo('');
    t.string('token_hash', 64).nullable().unique('offers_token_unique');
    t.string('pdf_key', 191).nullable();
    t.string('pdf_sha256', 64).nullable();
    t.string('signed_pdf_key', 191).nullable();
    t.string('signed_name', 200).nullable();
    t.string('signer_address_hash', 64).nullable();
    t.string('decline_reason', 1000).notNullable().defaultTo('');
    t.string('withdraw_reason', 1000).notNullable().defaultTo('');
    t.integer('created_by').unsigned().nullable().references('id').inTable('hr_users').onDelete('SET NULL');
    t.integer('sent_by').unsigned().nullable().references('id').inTable('hr_users').onDelete('SET NULL');
    t.specificType('sent_at', 'DATETIME(3)').nullable();
    t.specificType('decided_at', 'DATETIME(3)').nullable();
    t.specificType('created_at', 'DATETIME(3)').notNullable();
    t.specificType('updated_at', 'DATETIME(3)').notNullable();
    t.index(['application_id'], 'offers_application_idx');
    t.index(['status', 'expires_on'], 'offers_status_expiry_idx');
    t.index(['sent_at'], 'offers_sent_idx');
  });
  await knex.schema.createTable('offer_approvals', (t) => {
    table(t);
    t.increments('id');
    t.integer('offer_id').unsigned().notNullable().references('id').inTable('offers').onDelete('CASCADE');
    t.integer('version').notNullable();
    t.integer('position').notNullable();
    t.integer('approver_id').unsigned().notNullable().references('id').inTable('hr_users').onDelete('CASCADE');
    t.string('decision', 10).notNullable().defaultTo('PENDING');
    t.string('comment', 1000).notNullable().defaultTo('');
    t.string('token_hash', 64).nullable().unique('offer_approvals_token_unique');
    t.specificType('asked_at', 'DATETIME(3)').nullable();
    t.specificType('decided_at', 'DATETIME(3)').nullable();
    t.specificType('created_at', 'DATETIME(3)').notNullable();
    t.index(['offer_id', 'version'], 'offer_approvals_offer_idx');
  });
  const now = toDbDate(new Date());
  await knex('offer_templates').insert({
    name: 'Standard offer letter',
    body: DEFAULT_LETTER,
    is_default: true,
    created_at: now,
    updated_at: now,
  });
  await knex('offer_approval_chains').insert({
    scope: 'default',
    job_id: null,
    mode: 'ANY',
    required: 1,
    approver_ids: null,
    only_out_of_range: false,
    updated_at: now,
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('offer_approvals');
  await knex.schema.dropTableIfExists('offers');
  await knex.schema.dropTableIfExists('offer_approval_chains');
  await knex.schema.dropTableIfExists('offer_templates');
}
