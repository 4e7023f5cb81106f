/** The only writer of `pay_rules` (issue 34), and of the audit entries of its changes. */
import type { Knex } from 'knex';
import { toDbBool, toDbDate, toDbJson } from '../db/codecs.js';
import type { PayRuleInput } from './schema.js';

const columns = (input: PayRuleInput) => ({
  label: input.label,
  country: input.country,
  region_code: input.region_code,
  region_name: input.region_code ? input.region_name : '',
  range_required: toDbBool(input.range_required),
  max_width: input.max_width,
  width_unit: input.width_unit,
  salary_period: input.salary_period,
  note: input.note,
});

export async function insertRule(trx: Knex, input: PayRuleInput, at: Date): Promise<number> {
  const now = toDbDate(at);
  const [id] = await trx('pay_rules').insert({ ...columns(input), created_at: now, updated_at: now });
  return Number(id);
}

/** Answers whether the rule was there. */
export async function updateRule(trx: Knex, id: number, input: PayRuleInput, at: Date): Promise<boolean> {
  return (
    (await trx('pay_rules')
      .where({ id })
      .update({ ...columns(input), updated_at: toDbDate(at) })) > 0
  );
}

export async function deleteRule(trx: Knex, id: number): Promise<boolean> {
  return (await trx('pay_rules').where({ id }).delete()) > 0;
}

/** The id of the rule of this place, if any (another than `exceptId`). */
export async function ruleOfPlace(trx: Knex, country: string, regionCode: string, exceptId: number | null): Promise<number | null> {
  const q = trx('pay_rules').where({ country, region_code: regionCode });
  if (exceptId !== null) q.whereNot('id', exceptId);
  const row = await q.first('id');
  return row ? Number(row.id) : null;
}

export async function countRules(trx: Knex): Promise<number> {
  const [{ n }] = await trx('pay_rules').count({ n: '*' });
  return Number(n);
}

/** A rule's change in the audit log (entity `pay_rule`): who, what, the rule before and after. */
export async function insertRuleAudit(
  trx: Knex,
  entry: { userId: number | null; action: string; ruleId: number; details: Record<string, unknown> },
  at: Date,
): Promise<void> {
  await trx('audit_log').insert({
    user_id: entry.userId,
    action: entry.action,
    entity: 'pay_rule',
    entity_id: entry.ruleId,
    details: toDbJson(entry.details),
    created_at: toDbDate(at),
  });
}
