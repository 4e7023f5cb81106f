/**
 * HR's notification digest keeps which kind of period each row covers (`period`: 'hourly' or
 * 'daily'). Before, a row was unique per recipient and period start alone, so the hourly digest of
 * 00:00–01:00 and the daily digest of that day shared a key: after a switch from hourly to daily,
 * the day's digest was taken as written already and never sent.
 *
 * Rows written before this migration did not say: one at midnight with no other row of the same
 * recipient later that day is taken as a daily digest, every other one as hourly.
 */
import type { Knex } from 'knex';
import { fromDbDate } from '../src/db/codecs.js';

const DAY = 86_400_000;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('hr_notify_digests', (t) => {
    t.string('period', 8).notNullable().defaultTo('hourly');
  });
  const rows = (await knex('hr_notify_digests').select('id', 'recipient', 'period_start')).map((r) => ({
    id: Number(r.id),
    recipient: String(r.recipient),
    start: fromDbDate(r.period_start)!.getTime(),
  }));
  const daily = rows.filter(
    (r) => r.start % DAY === 0 && !rows.some((o) => o.recipient === r.recipient && o.start > r.start && o.start < r.start + DAY),
  );
  if (daily.length)
    await knex('hr_notify_digests')
      .whereIn(
        'id',
        daily.map((r) => r.id),
      )
      .update({ period: 'daily' });
  await knex.schema.alterTable('hr_notify_digests', (t) => {
    t.dropUnique(['recipient', 'period_start'], 'hr_notify_digests_period_uq');
    t.unique(['recipient', 'period', 'period_start'], { indexName: 'hr_notify_digests_period_uq' });
  });
}

export async function down(knex: Knex): Promise<void> {
  // The old key holds one row per recipient and start: a daily row sharing its start with an hourly one goes.
  const hourly = knex('hr_notify_digests as h')
    .where('h.period', 'hourly')
    .whereRaw('h.recipient = hr_notify_digests.recipient')
    .whereRaw('h.period_start = hr_notify_digests.period_start')
    .select(knex.raw('1'));
  const doomed = await knex('hr_notify_digests').where('period', 'daily').whereExists(hourly).pluck('id');
  if (doomed.length) await knex('hr_notify_digests').whereIn('id', doomed).delete();
  await knex.schema.alterTable('hr_notify_digests', (t) => {
    t.dropUnique(['recipient', 'period', 'period_start'], 'hr_notify_digests_period_uq');
    t.unique(['recipient', 'period_start'], { indexName: 'hr_notify_digests_period_uq' });
  });
  await knex.schema.alterTable('hr_notify_digests', (t) => t.dropColumn('period'));
}
