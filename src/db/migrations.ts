/**
 * Migrations, and running them (server start, `careers-admin migrate`). They are imported
 * statically so they work the same under tsx (tests, dev) and in the bundled dist/ build, where
 * there is no migrations folder to scan.
 */
import type { Knex } from 'knex';
import { withoutStatementTimeout } from './statement-timeout.js';
import * as m001 from '../../migrations/001_initial_schema.js';
import * as m002 from '../../migrations/002_analytics_indexes.js';
import * as m003 from '../../migrations/003_applications_updated_index.js';
import * as m004 from '../../migrations/004_text_sizes_and_public_ids.js';
import * as m005 from '../../migrations/005_applicant_search_and_counters.js';
import * as m006 from '../../migrations/006_post_delivery.js';
import * as m007 from '../../migrations/007_outbox_payload_without_secret.js';
import * as m008 from '../../migrations/008_email_exact_match.js';
import * as m009 from '../../migrations/009_server_key.js';
import * as m010 from '../../migrations/010_public_list_index.js';
import * as m011 from '../../migrations/011_answer_tallies.js';
import * as m012 from '../../migrations/012_user_roles.js';
import * as m013 from '../../migrations/013_pipeline_stages.js';
import * as m014 from '../../migrations/014_application_notes.js';
import * as m015 from '../../migrations/015_hr_job_list_indexes.js';
import * as m016 from '../../migrations/016_email_templates.js';
import * as m017 from '../../migrations/017_application_consent.js';
import * as m018 from '../../migrations/018_job_reach_fields.js';
import * as m019 from '../../migrations/019_applicant_sort_indexes.js';
import * as m020 from '../../migrations/020_source_attribution.js';
import * as m021 from '../../migrations/021_job_funnel_counts.js';
import * as m022 from '../../migrations/022_email_payload_size.js';
import * as m023 from '../../migrations/023_stages_of_new_jobs.js';
import * as m025 from '../../migrations/025_user_emails.js';
import * as m027 from '../../migrations/027_scheduled_emails.js';
import * as m028 from '../../migrations/028_job_public_id_draft.js';
import * as m029 from '../../migrations/029_scorecards.js';
import * as m030 from '../../migrations/030_job_team_members.js';
import * as m031 from '../../migrations/031_stage_transitions.js';
import * as m032 from '../../migrations/032_digest_period.js';
import * as m033 from '../../migrations/033_interviews.js';
import * as m034 from '../../migrations/034_reminder_templates.js';
import * as m035 from '../../migrations/035_public_version.js';
import * as m037 from '../../migrations/037_timeline_indexes.js';
import * as m038 from '../../migrations/038_answer_tallies_by_count.js';
import * as m039 from '../../migrations/039_pay_rules.js';
import * as m044 from '../../migrations/044_people.js';
import * as m045 from '../../migrations/045_candidate_status.js';
import * as m046 from '../../migrations/046_talent_pools.js';
import * as m047 from '../../migrations/047_pool_templates.js';
import * as m042 from '../../migrations/042_site_settings.js';
import * as m043 from '../../migrations/043_job_alerts.js';
import * as m040 from '../../migrations/040_offers.js';
import * as m036 from '../../migrations/036_applicant_list_page_indexes.js';

const migrations: Record<string, Knex.Migration> = {
  '001_initial_schema': m001,
  '002_analytics_indexes': m002,
  '003_applications_updated_index': m003,
  '004_text_sizes_and_public_ids': m004,
  '005_applicant_search_and_counters': m005,
  '006_post_delivery': m006,
  '007_outbox_payload_without_secret': m007,
  '008_email_exact_match': m008,
  '009_server_key': m009,
  '010_public_list_index': m010,
  '011_answer_tallies': m011,
  '012_user_roles': m012,
  '013_pipeline_stages': m013,
  '014_application_notes': m014,
  '015_hr_job_list_indexes': m015,
  '016_email_templates': m016,
  '017_application_consent': m017,
  '018_job_reach_fields': m018,
  '019_applicant_sort_indexes': m019,
  '020_source_attribution': m020,
  '021_job_funnel_counts': m021,
  '022_email_payload_size': m022,
  '023_stages_of_new_jobs': m023,
  '025_user_emails': m025,
  '027_scheduled_emails': m027,
  '028_job_public_id_draft': m028,
  '029_scorecards': m029,
  '030_job_team_members': m030,
  '031_stage_transitions': m031,
  '032_digest_period': m032,
  '033_interviews': m033,
  '034_reminder_templates': m034,
  '035_public_version': m035,
  '037_timeline_indexes': m037,
  '038_answer_tallies_by_count': m038,
  '039_pay_rules': m039,
  '042_site_settings': m042,
  '043_job_alerts': m043,
  '040_offers': m040,
  '036_applicant_list_page_indexes': m036,
  '044_people': m044,
  '045_candidate_status': m045,
  '046_talent_pools': m046,
  '047_pool_templates': m047,
};

export const migrationSource: Knex.MigrationSource<string> = {
  async getMigrations() {
    return Object.keys(migrations).sort();
  },
  getMigrationName(name) {
    return name;
  },
  async getMigration(name) {
    return migrations[name];
  },
};

/** Applies pending migrations; answers the batch number and the names applied (none: up to date). */
export async function migrateLatest(db: Knex): Promise<{ batch: number; names: string[] }> {
  // A migration may rebuild a large table: no statement limit (src/db/statement-timeout.ts).
  const [batch, names] = await withoutStatementTimeout(db, () => db.migrate.latest());
  return { batch, names };
}

/** Applied and pending migrations, by name. Reads only: on an empty database (where Knex's list would create its table) all are pending. */
export async function migrationStatus(db: Knex): Promise<{ applied: string[]; pending: string[] }> {
  if (!(await db.schema.hasTable('knex_migrations'))) return { applied: [], pending: await migrationSource.getMigrations([]) };
  const [done, pending] = (await db.migrate.list()) as [{ name: string }[], ({ file: string } | string)[]];
  return { applied: done.map((m) => m.name), pending: pending.map((m) => (typeof m === 'string' ? m : m.file)) };
}

/**
 * What undoing each migration drops with its data (null: indexes or nothing, no data), for the
 * rollback's question. Every migration is listed (a test checks it): a new one says what its
 * `down` loses.
 */
export const UNDO_DROPS: Record<string, string | null> = {
  '001_initial_schema': 'every table the others build on (jobs, applications, users, forms, files, outbox), with all their rows',
  '002_analytics_indexes': null,
  '003_applications_updated_index': null,
  '004_text_sizes_and_public_ids': 'on MySQL, the end of any text longer than 65,535 bytes (its columns go back to TEXT)',
  '005_applicant_search_and_counters': 'tables application_search_words and change_counters',
  '006_post_delivery': "tables email_posts and post_attempts (every email and delivery attempt), the outbox's claim_token and message_id",
  '007_outbox_payload_without_secret': null,
  '008_email_exact_match': null,
  '009_server_key': 'table server_keys (the key of stored client-address hashes)',
  '010_public_list_index': null,
  '011_answer_tallies': 'tables answer_tallies and answer_tally_jobs',
  '012_user_roles': "table hr_user_links and every user's role",
  '013_pipeline_stages': "tables job_stages and rejection_reasons, and every application's stage and outcome",
  '014_application_notes': 'table application_notes (every note)',
  '015_hr_job_list_indexes': null,
  '016_email_templates': 'table email_templates, and the sender and template of every sent email',
  '017_application_consent': "every application's consent_at and consent_text",
  '018_job_reach_fields': "every job's department, closes_at, salary_period and applicant_countries",
  '019_applicant_sort_indexes': null,
  '020_source_attribution': "table tracking_links, every application's source, medium, campaign and link, and jobs' webhook_include_source",
  '021_job_funnel_counts': "table job_funnel_counts (the apply funnel's counts)",
  '022_email_payload_size': null,
  '023_stages_of_new_jobs': null,
  '025_user_emails': "every HR user's email address",
  '027_scheduled_emails': "table hr_notify_digests, every email's scheduled time and cancellation, and templates' default delays",
  '028_job_public_id_draft': "every job's public_id_draft mark (a duplicate not yet saved then keeps its copy-of-… public id)",
  '029_scorecards':
    'tables kit_templates, interview_kits, scorecards, scorecard_amendments and scorecard_decisions (every kit, scorecard and debrief decision)',
  '030_job_team_members': "table job_team_members (every job's hiring team)",
  '031_stage_transitions':
    'table stage_transitions (the stage-transition ledger the reports read; the audit log keeps what it was backfilled from)',
  '032_digest_period':
    "every HR digest's kind of period (hourly or daily), and a daily digest's record where an hourly one began at the same time",
  '033_interviews':
    'tables interviews, interview_participants, interviewer_settings, calendar_sources, booking_links and booking_link_slots (every interview, booking link, working hours and calendar address)',
  '034_reminder_templates': "the two interview reminder templates (with HR's edits to them) and every template's reminder times",
  '035_public_version': "table public_versions (the public pages' version counter: processes render their kept pages once more)",
  '037_timeline_indexes': null,
  '038_answer_tallies_by_count': null,
  '039_pay_rules': 'tables pay_rules and job_approvals (the pay rules admins kept and every job approval)',
  '040_offers':
    'tables offers, offer_approvals, offer_approval_chains and offer_templates (every offer, its signature and approvals, the chains and letters)',
  '036_applicant_list_page_indexes': null,
  '044_people':
    "tables people, person_suggestions and person_merges (every person, suggested duplicate and merge) and every application's person",
  '045_candidate_status':
    "tables stage_status_texts and erasure_requests (the status texts admins wrote and candidates' open erasure requests)",
  '046_talent_pools': 'tables talent_pools, pool_members, pool_consents and pool_invites (every pool, member, consent and invitation)',
  '047_pool_templates': "the two talent pool email templates (with HR's edits to them)",
  '042_site_settings': "table site_settings (the site's branding admins set, and its logo)",
  '043_job_alerts':
    'tables job_alerts and job_alert_jobs (every job alert, its consent and the jobs it was sent) and the two job alert email templates',
};

/** Which rollback: the latest migration (default), back to `to` (which stays applied), or every one. */
export type RollbackTarget = { kind: 'latest' } | { kind: 'to'; name: string } | { kind: 'all' };

/**
 * The applied migrations a rollback would undo, newest first (none: nothing to undo). `to` must
 * name an applied migration: the ones after it are undone and it stays applied.
 */
export async function rollbackPlan(db: Knex, target: RollbackTarget): Promise<{ names: string[]; unknown?: string }> {
  const { applied } = await migrationStatus(db);
  const order = await migrationSource.getMigrations([]);
  const done = order.filter((name) => applied.includes(name));
  if (target.kind === 'all') return { names: done.reverse() };
  if (target.kind === 'latest') return { names: done.slice(-1) };
  const at = done.indexOf(target.name);
  if (at < 0) return { names: [], unknown: target.name };
  return { names: done.slice(at + 1).reverse() };
}

/** Undoes `names`, newest first, one migration (and one transaction where the database allows) at a time. */
export async function rollbackMigrations(db: Knex, names: string[]): Promise<string[]> {
  const undone: string[] = [];
  await withoutStatementTimeout(db, async () => {
    for (const name of names) {
      await db.migrate.down({ name });
      undone.push(name);
    }
  });
  return undone;
}

/** Whether the schema is in place (the CLI refuses to work on an empty database). */
export function hasSchema(db: Knex, table: string): Promise<boolean> {
  return db.schema.hasTable(table);
}
