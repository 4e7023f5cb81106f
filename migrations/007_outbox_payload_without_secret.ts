/**
 * Job webhook posts no longer keep the job's secret (issue 16 item 5): `secret_key` is added to
 * the body at send time from the job's current secret, the one the post is signed with. This
 * removes it from every payload stored before, on both databases (json_remove / JSON_REMOVE; a
 * payload that is not valid JSON is left as it is).
 *
 * `down` changes nothing: the removed secrets cannot be put back, and the sender adds the current
 * secret to a payload without one either way.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `UPDATE application_posts SET payload = JSON_REMOVE(payload, '$.secret_key') WHERE payload LIKE '%secret_key%' AND JSON_VALID(payload)`,
  );
}

export async function down(): Promise<void> {}
