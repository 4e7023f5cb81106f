/**
 * Issue 34 ("Pay range and the publishing check"):
 * - `pay_rules`: what a job's pay range must be where the job is, kept by admins on
 *   /hr/settings/pay-rules. A rule names a country (ISO 3166-1 alpha-2) and optionally a region of
 *   it (`region_code` as written in locations, such as `CA` or `ON`, and `region_name`, such as
 *   `California`; '' for a rule of the whole country), whether a range is required, its largest
 *   width (`max_width`, in the job's currency (`width_unit` AMOUNT) or as a percentage of the
 *   minimum (PERCENT); null: no limit), the pay period that width is stated in (`salary_period`
 *   YEAR, MONTH, HOUR or ANY) and a note (the law it comes from). One rule per place (the unique
 *   index). The defaults are written here, all editable and removable: every EU member state (the
 *   Pay Transparency Directive, (EU) 2023/970: a range in the advert), Ontario (a range no wider
 *   than $50,000 a year) and the US states with pay-range posting laws.
 * - `job_approvals`: with JOB_APPROVAL=on, a recruiter's new or changed job waits for its hiring
 *   manager or an admin (`state` PENDING, APPROVED or REJECTED, the status asked for, who asked,
 *   who decided, when, the comment). One row per job, gone with the job.
 * Rolling back drops both tables (the rules HR kept and every approval).
 */
import type { Knex } from 'knex';
import { toDbDate } from '../src/db/codecs.js';

const EU_NOTE = 'EU Pay Transparency Directive (EU) 2023/970, from 7 June 2026: the pay range in the advert, no salary history asked.';
const US_NOTE = 'State pay transparency law: a good-faith pay range in every job posting.';
const ONTARIO_NOTE =
  'Employment Standards Act (Working for Workers Five Act), from 1 January 2026: the expected pay or a range no wider than $50,000 (positions paying over $200,000 a year are exempt).';

/** The EU's 27 member states. */
const EU_STATES: [string, string][] = [
  ['AT', 'Austria'],
  ['BE', 'Belgium'],
  ['BG', 'Bulgaria'],
  ['HR', 'Croatia'],
  ['CY', 'Cyprus'],
  ['CZ', 'Czechia'],
  ['DK', 'Denmark'],
  ['EE', 'Estonia'],
  ['FI', 'Finland'],
  ['FR', 'France'],
  ['DE', 'Germany'],
  ['GR', 'Greece'],
  ['HU', 'Hungary'],
  ['IE', 'Ireland'],
  ['IT', 'Italy'],
  ['LV', 'Latvia'],
  ['LT', 'Lithuania'],
  ['LU', 'Luxembourg'],
  ['MT', 'Malta'],
  ['NL', 'Netherlands'],
  ['PL', 'Poland'],
  ['PT', 'Portugal'],
  ['RO', 'Romania'],
  ['SK', 'Slovakia'],
  ['SI', 'Slovenia'],
  ['ES', 'Spain'],
  ['SE', 'Sweden'],
];

/** US states (and the District of Columbia) whose law requires a pay range in job postings. */
const US_STATES: [string, string][] = [
  ['CA', 'California'],
  ['CO', 'Colorado'],
  ['DC', 'District of Columbia'],
  ['HI', 'Hawaii'],
  ['IL', 'Illinois'],
  ['MD', 'Maryland'],
  ['MA', 'Massachusetts'],
  ['MN', 'Minnesota'],
  ['NJ', 'New Jersey'],
  ['NY', 'New York'],
  ['VT', 'Vermont'],
  ['WA', 'Washington'],
];

interface DefaultRule {
  label: string;
  country: string;
  region_code: string;
  region_name: string;
  range_required: boolean;
  max_width: number | null;
  width_unit: 'AMOUNT' | 'PERCENT';
  salary_period: 'ANY' | 'YEAR' | 'MONTH' | 'HOUR';
  note: string;
}

export const DEFAULT_PAY_RULES: DefaultRule[] = [
  ...EU_STATES.map(([country, name]) => ({
    label: name,
    country,
    region_code: '',
    region_name: '',
    range_required: true,
    max_width: null,
    width_unit: 'AMOUNT' as const,
    salary_period: 'ANY' as const,
    note: EU_NOTE,
  })),
  {
    label: 'Ontario',
    country: 'CA',
    region_code: 'ON',
    region_name: 'Ontario',
    range_required: true,
    max_width: 50_000,
    width_unit: 'AMOUNT',
    salary_period: 'YEAR',
    note: ONTARIO_NOTE,
  },
  ...US_STATES.map(([code, name]) => ({
    label: name,
    country: 'US',
    region_code: code,
    region_name: name,
    range_required: true,
    max_width: null,
    width_unit: 'AMOUNT' as const,
    salary_period: 'ANY' as const,
    note: US_NOTE,
  })),
];

export async function up(knex: Knex): Promise<void> {
  const mysql = knex.client.config.client === 'mysql2';
  const table = (t: Knex.CreateTableBuilder) => {
    if (!mysql) return;
    t.engine('InnoDB');
    t.charset('utf8mb4');
    t.collate('utf8mb4_bin');
  };
  await knex.schema.createTable('pay_rules', (t) => {
    table(t);
    t.increments('id');
    t.string('label', 100).notNullable();
    t.string('country', 2).notNullable();
    t.string('region_code', 10).notNullable().defaultTo('');
    t.string('region_name', 100).notNullable().defaultTo('');
    t.boolean('range_required').notNullable().defaultTo(true);
    t.decimal('max_width', 14, 2).nullable();
    t.string('width_unit', 8).notNullable().defaultTo('AMOUNT');
    t.string('salary_period', 8).notNullable().defaultTo('ANY');
    t.string('note', 500).notNullable().defaultTo('');
    t.specificType('created_at', 'DATETIME(3)').notNullable();
    t.specificType('updated_at', 'DATETIME(3)').notNullable();
    t.unique(['country', 'region_code'], { indexName: 'pay_rules_place_unique' });
  });
  await knex.schema.createTable('job_approvals', (t) => {
    table(t);
    t.integer('job_id').unsigned().notNullable().primary().references('id').inTable('jobs').onDelete('CASCADE');
    t.string('state', 16).notNullable();
    t.string('requested_status', 16).notNullable();
    t.integer('requested_by').unsigned().nullable().references('id').inTable('hr_users').onDelete('SET NULL');
    t.specificType('requested_at', 'DATETIME(3)').notNullable();
    t.integer('decided_by').unsigned().nullable().references('id').inTable('hr_users').onDelete('SET NULL');
    t.specificType('decided_at', 'DATETIME(3)').nullable();
    t.string('comment', 1000).notNullable().defaultTo('');
    t.index(['state'], 'job_approvals_state_idx');
  });
  const now = toDbDate(new Date());
  await knex('pay_rules').insert(DEFAULT_PAY_RULES.map((r) => ({ ...r, created_at: now, updated_at: now })));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('job_approvals');
  await knex.schema.dropTableIfExists('pay_rules');
}
