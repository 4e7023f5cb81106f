/**
 * The pay rules (issue 34), kept by admins: list, read, create, replace, delete. One rule per
 * place (country and region); every change goes to the audit log with the rule before and after.
 */
import type { Db } from '../db/knex.js';
import { isUniqueViolation } from '../db/errors.js';
import { NotFound, ValidationError } from '../http/errors.js';
import { findRule, listRules } from './queries.js';
import { countRules, deleteRule, insertRule, insertRuleAudit, ruleOfPlace, updateRule } from './rules.repo.js';
import { PUBLISHING_LIMITS, PUBLISHING_MESSAGES, type PayRuleInput } from './schema.js';
import type { PayRule } from './types.js';

export function payRules(db: Db): Promise<PayRule[]> {
  return listRules(db);
}

export async function payRule(db: Db, id: number): Promise<PayRule> {
  const rule = await findRule(db, id);
  if (!rule) throw new NotFound(PUBLISHING_MESSAGES.notFound);
  return rule;
}

/** The 400 of a place that has its rule already. */
function duplicate(input: PayRuleInput): ValidationError {
  return new ValidationError({ [input.region_code ? 'region_code' : 'country']: [PUBLISHING_MESSAGES.duplicate] });
}

export async function createPayRule(db: Db, input: PayRuleInput, userId: number | null, now: Date): Promise<PayRule> {
  let id: number;
  try {
    id = await db.transaction(async (trx) => {
      if ((await countRules(trx)) >= PUBLISHING_LIMITS.rules) throw new ValidationError({}, PUBLISHING_MESSAGES.tooManyRules);
      if ((await ruleOfPlace(trx, input.country, input.region_code, null)) !== null) throw duplicate(input);
      const ruleId = await insertRule(trx, input, now);
      await insertRuleAudit(trx, { userId, action: 'pay_rule.create', ruleId, details: { rule: input } }, now);
      return ruleId;
    });
  } catch (err) {
    // Another admin added the place's rule meanwhile: the unique index's answer.
    if (isUniqueViolation(err)) throw duplicate(input);
    throw err;
  }
  return payRule(db, id);
}

export async function replacePayRule(db: Db, id: number, input: PayRuleInput, userId: number | null, now: Date): Promise<PayRule> {
  try {
    await db.transaction(async (trx) => {
      const before = await findRule(trx, id);
      if (!before) throw new NotFound(PUBLISHING_MESSAGES.notFound);
      if ((await ruleOfPlace(trx, input.country, input.region_code, id)) !== null) throw duplicate(input);
      await updateRule(trx, id, input, now);
      await insertRuleAudit(trx, { userId, action: 'pay_rule.update', ruleId: id, details: { from: before, to: input } }, now);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicate(input);
    throw err;
  }
  return payRule(db, id);
}

export async function removePayRule(db: Db, id: number, userId: number | null, now: Date): Promise<void> {
  await db.transaction(async (trx) => {
    const before = await findRule(trx, id);
    if (!before || !(await deleteRule(trx, id))) throw new NotFound(PUBLISHING_MESSAGES.notFound);
    await insertRuleAudit(trx, { userId, action: 'pay_rule.delete', ruleId: id, details: { rule: before } }, now);
  });
}
