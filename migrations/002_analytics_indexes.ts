/**
 * Job insights of number questions read MIN/MAX and range counts of answer_number per question.
 * With only (question_id, answer_key) they looked up every answer row (about 190 ms per query for
 * a question with 50,000 answers on SQLite, measured by bench/hr.ts); with this index both are
 * answered from the index alone.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('application_answers', (t) => {
    t.index(['question_id', 'answer_number'], 'application_answers_question_number_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('application_answers', (t) => {
    t.dropIndex(['question_id', 'answer_number'], 'application_answers_question_number_idx');
  });
}
