/**
 * Writes every use case of applications shares, each run inside the caller's transaction: the audit
 * entries, the change counters the read caches stamp with, the share lock of an application a child
 * row is written under. Per use case: apply.repo.ts, status.repo.ts, retention.repo.ts,
 * stage.repo.ts, tallies.repo.ts.
 */
import type { Knex } from 'knex';
import { toDbDate, toDbJson } from '../db/codecs.js';
import { isMysql } from '../db/knex.js';

/** Ids per statement: well under every database's limit of bound parameters. */
export const ID_CHUNK = 500;

/** Counters the read caches put in their stamps (migration 005): raised in the writer's transaction. */
export type ChangeCounter = 'applications.status' | 'applications.removed' | 'applications.stage';

export async function bumpCounter(trx: Knex, name: ChangeCounter): Promise<void> {
  await trx('change_counters').where({ name }).increment('value', 1);
}

export interface ApplicationAudit {
  /** 'application' unless told (a job's stage list is a 'job' entry). */
  entity?: string;
  userId: number | null;
  action: string;
  entityId: number | null;
  details: unknown;
}

/** Who changed which application and when; written in the same transaction as the change. */
export async function insertApplicationAudit(trx: Knex, entries: ApplicationAudit[], now: Date): Promise<void> {
  const at = toDbDate(now);
  const rows = entries.map((e) => ({
    user_id: e.userId,
    action: e.action,
    entity: e.entity ?? 'application',
    entity_id: e.entityId,
    details: toDbJson(e.details),
    created_at: at,
  }));
  for (let i = 0; i < rows.length; i += ID_CHUNK) await trx('audit_log').insert(rows.slice(i, i + ID_CHUNK));
}

/**
 * Whether the application exists; on MySQL its row is share-locked until the commit, so a purge
 * or erase running at the same time waits, and a note is never written for an application going away.
 */
export async function lockApplicationForChild(trx: Knex, applicationId: number): Promise<boolean> {
  const q = trx('applications').where({ id: applicationId }).first('id');
  return !!(await (isMysql(trx) ? q.forShare() : q));
}
