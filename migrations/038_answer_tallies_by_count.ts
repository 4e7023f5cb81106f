/**
 * An index on answer_tallies by count within each question and kind, so a text question's most
 * frequent answers are read from its top end instead of sorting every distinct answer the
 * question has: a long-text question of 50,000 applicants has thousands (insights computed afresh,
 * bench/README.md, HR back office).
 */
import type { Knex } from 'knex';

const BY_COUNT = 'answer_tallies_by_count_idx';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('answer_tallies', (t) => {
    t.index(['question_id', 'kind', 'n'], BY_COUNT);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('answer_tallies', (t) => {
    t.dropIndex(['question_id', 'kind', 'n'], BY_COUNT);
  });
}
