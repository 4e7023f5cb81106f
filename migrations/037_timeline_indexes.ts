/**
 * The timeline's pages (issue 33): an application's history is read newest first, 50 entries at a
 * time from a keyset cursor (time, then id), each of its sources limited to what the page needs.
 * These indexes give each source its entries in that order from the application's own range:
 * - audit_log (entity, entity_id, created_at, id): changes and notes;
 * - email_posts (application_id, created_at, id): emails queued; (application_id, cancelled_at, id):
 *   emails cancelled (null for all others, so the range holds only the cancelled ones);
 * - application_posts (application_id, created_at, id): webhook posts queued.
 * The older one-column indexes stay: other reads use them and they serve the foreign keys.
 * Webhook attempts are found through their posts (post_attempts has no application id), as before.
 */
import type { Knex } from 'knex';

const INDEXES: [table: string, columns: string[], name: string][] = [
  ['audit_log', ['entity', 'entity_id', 'created_at', 'id'], 'audit_log_entity_time_idx'],
  ['email_posts', ['application_id', 'created_at', 'id'], 'email_posts_app_time_idx'],
  ['email_posts', ['application_id', 'cancelled_at', 'id'], 'email_posts_app_cancelled_idx'],
  ['application_posts', ['application_id', 'created_at', 'id'], 'application_posts_app_time_idx'],
];

export async function up(knex: Knex): Promise<void> {
  for (const [table, columns, name] of INDEXES) await knex.schema.alterTable(table, (t) => t.index(columns, name));
}

export async function down(knex: Knex): Promise<void> {
  for (const [table, , name] of INDEXES) await knex.schema.alterTable(table, (t) => t.dropIndex([], name));
}
