/**
 * Interviews on the calendar (issue 32):
 * - `interviews`: an application's interview at a stage: type (phone, video, onsite, other), start
 *   and end in UTC with the time zone it was planned in, a place or a video link, notes for the
 *   candidate, the kit of its stage when it has one. `uid` is the iCalendar UID every invitation,
 *   update and cancellation carries; `sequence` is raised on every change sent. `status`:
 *   'scheduled' or 'cancelled' (a cancelled interview keeps its row: its UID was sent).
 *   `reminded_24h_at`/`reminded_1h_at`: the reminders were queued. `booking_link_id`: the
 *   candidate booked it through that link. No foreign key on stage_id (as applications.stage_id).
 * - `interview_participants`: who takes part: an HR user, or an outside person by email; the
 *   candidate is not a row (the application's email). `response`: what their calendar answered
 *   (needs-action, accepted, declined, tentative).
 * - `interviewer_settings`: an HR user's working hours (ISO weekdays, start and end in their time
 *   zone), buffers before and after an interview and the minimum notice for a slot.
 * - `calendar_sources`: calendars read for an interviewer's busy times: a secret iCal URL or a
 *   CalDAV calendar, the address (and CalDAV credentials) encrypted with the server key; `url_hint`
 *   is all that is ever shown again.
 * - `booking_links`: a signed link letting the candidate book one interview (token kept as its
 *   SHA-256): what the interview will be (`details`, JSON: type, interviewers, place, notes), its
 *   length, the offer (hand-picked slots in `booking_link_slots`, or any free slot of the
 *   interviewers in the next `window_days` days), until when the candidate may reschedule or cancel
 *   (`cutoff_minutes` before the start) and when it expires. The interview booked with it points
 *   back (interviews.booking_link_id).
 */
import type { Knex } from 'knex';

const isMysql = (knex: Knex) => knex.client.config.client === 'mysql2';

export async function up(knex: Knex): Promise<void> {
  const mysql = isMysql(knex);
  const tableOpts = (t: Knex.CreateTableBuilder) => {
    if (mysql) {
      t.engine('InnoDB');
      t.charset('utf8mb4');
      t.collate('utf8mb4_unicode_ci');
    }
  };
  const dt = (t: Knex.CreateTableBuilder, name: string) => t.specificType(name, 'DATETIME(3)');
  const user = (t: Knex.CreateTableBuilder, name: string) =>
    t.integer(name).unsigned().nullable().references('id').inTable('hr_users').onDelete('SET NULL');

  await knex.schema.createTable('booking_links', (t) => {
    tableOpts(t);
    t.increments('id');
    t.integer('application_id').unsigned().notNullable().references('id').inTable('applications').onDelete('CASCADE');
    t.integer('stage_id').unsigned().nullable();
    t.string('token_hash', 64).notNullable().unique();
    t.text('details').notNullable();
    t.integer('duration_minutes').unsigned().notNullable();
    t.integer('window_days').unsigned().nullable();
    t.integer('cutoff_minutes').unsigned().notNullable();
    dt(t, 'expires_at').notNullable();
    dt(t, 'revoked_at').nullable();
    user(t, 'created_by');
    dt(t, 'created_at').notNullable();
    t.index(['application_id'], 'booking_links_application_idx');
  });
  await knex.schema.createTable('booking_link_slots', (t) => {
    tableOpts(t);
    t.increments('id');
    t.integer('booking_link_id').unsigned().notNullable().references('id').inTable('booking_links').onDelete('CASCADE');
    dt(t, 'starts_at').notNullable();
    dt(t, 'ends_at').notNullable();
    t.index(['booking_link_id', 'starts_at'], 'booking_link_slots_link_idx');
  });
  await knex.schema.createTable('interviews', (t) => {
    tableOpts(t);
    t.increments('id');
    t.integer('application_id').unsigned().notNullable().references('id').inTable('applications').onDelete('CASCADE');
    t.integer('stage_id').unsigned().nullable();
    t.string('stage_name', 60).notNullable();
    t.integer('kit_id').unsigned().nullable().references('id').inTable('interview_kits').onDelete('SET NULL');
    t.string('type', 8).notNullable();
    dt(t, 'starts_at').notNullable();
    dt(t, 'ends_at').notNullable();
    t.string('time_zone', 64).notNullable();
    t.string('location', 500).nullable();
    t.string('video_url', 2000).nullable();
    t.text('candidate_notes').nullable();
    t.string('uid', 100).notNullable().unique();
    t.integer('sequence').unsigned().notNullable().defaultTo(0);
    t.string('status', 12).notNullable().defaultTo('scheduled');
    t.integer('booking_link_id').unsigned().nullable().references('id').inTable('booking_links').onDelete('SET NULL');
    dt(t, 'reminded_24h_at').nullable();
    dt(t, 'reminded_1h_at').nullable();
    user(t, 'created_by');
    dt(t, 'created_at').notNullable();
    dt(t, 'updated_at').notNullable();
    dt(t, 'cancelled_at').nullable();
    t.index(['application_id', 'starts_at'], 'interviews_application_idx');
    t.index(['status', 'starts_at'], 'interviews_start_idx');
  });
  await knex.schema.createTable('interview_participants', (t) => {
    tableOpts(t);
    t.increments('id');
    t.integer('interview_id').unsigned().notNullable().references('id').inTable('interviews').onDelete('CASCADE');
    t.integer('hr_user_id').unsigned().nullable().references('id').inTable('hr_users').onDelete('SET NULL');
    t.string('email', 191).notNullable();
    t.string('name', 100).notNullable();
    t.string('response', 16).notNullable().defaultTo('needs-action');
    t.unique(['interview_id', 'email'], { indexName: 'interview_participants_uq' });
    t.index(['hr_user_id'], 'interview_participants_user_idx');
  });
  await knex.schema.createTable('interviewer_settings', (t) => {
    tableOpts(t);
    t.integer('hr_user_id').unsigned().notNullable().primary().references('id').inTable('hr_users').onDelete('CASCADE');
    t.string('time_zone', 64).notNullable();
    t.string('work_days', 20).notNullable();
    t.string('work_start', 5).notNullable();
    t.string('work_end', 5).notNullable();
    t.integer('buffer_before_minutes').unsigned().notNullable().defaultTo(0);
    t.integer('buffer_after_minutes').unsigned().notNullable().defaultTo(0);
    t.integer('min_notice_minutes').unsigned().notNullable().defaultTo(0);
    dt(t, 'updated_at').notNullable();
  });
  await knex.schema.createTable('calendar_sources', (t) => {
    tableOpts(t);
    t.increments('id');
    t.integer('hr_user_id').unsigned().notNullable().references('id').inTable('hr_users').onDelete('CASCADE');
    t.string('kind', 8).notNullable();
    t.string('label', 100).notNullable();
    t.text('url_encrypted').notNullable();
    t.text('credentials_encrypted').nullable();
    t.string('url_hint', 120).notNullable();
    dt(t, 'created_at').notNullable();
    dt(t, 'last_fetched_at').nullable();
    t.string('last_error', 500).nullable();
    t.index(['hr_user_id'], 'calendar_sources_user_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'calendar_sources',
    'interviewer_settings',
    'interview_participants',
    'interviews',
    'booking_link_slots',
    'booking_links',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
