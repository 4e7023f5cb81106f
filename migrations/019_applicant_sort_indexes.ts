/**
 * The applicants list sorted by name or email within a status (issue 20, sortable columns): a
 * status holds a large share of all applications, so without these SQLite read the whole status
 * range and sorted it for every page; with them both databases read the page in index order.
 * Other orders and filters already have theirs (migrations 001 and 013); bench/README.md
 * ('Applicants: sorted lists') has the figures.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('applications', (t) => {
    t.index(['status', 'last_name', 'first_name'], 'applications_status_name_idx');
    t.index(['status', 'email'], 'applications_status_email_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('applications', (t) => {
    t.dropIndex([], 'applications_status_name_idx');
    t.dropIndex([], 'applications_status_email_idx');
  });
}
