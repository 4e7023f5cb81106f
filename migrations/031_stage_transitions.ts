/**
 * The stage-transition ledger (issue 31, "Reports for management"): one row per change of an
 * application's place in the pipeline, appended in the transaction that makes the change and never
 * updated (docs/decisions/0011-stage-transition-ledger.md).
 * - An application's entry: from_stage_id null, to_stage_id its first stage, at its created_at.
 * - A stage move or an outcome (a rejection, or a move out of Rejected): the stage before and after
 *   (the same stage for a rejection, which keeps it), the outcome after ('REJECTED' or null) with its
 *   reason, when and by whom.
 * Stage ids, not names: a rename keeps its history; a removed stage (only ever an empty one) keeps
 * its rows under its old id, which the reports name "(removed stage)".
 *
 * Backfill: every application gets its entry row (its stage then: the `from_id` of its first
 * `stage` audit entry, else the stage it is in now, since nothing moved it); then each audit entry
 * `stage` (details from_id, to_id) and `outcome` (details to, reason) of the application
 * (audit_log, entity 'application', written by the pipeline since migration 013) becomes a row, in
 * the audit's order; a stage and an outcome entry of the same change (same application, time and
 * user, one after the other: the pipeline writes both when a rejected application is moved) make one
 * row. `status` entries change no stage and make none.
 *
 * Indexes: (job_id, at) for a job's period; (application_id, at, to_stage_id, outcome) to walk one
 * application's history in order, covering what the reports read of it. The foreign key on applications cascades: erasing an application erases its
 * history with it.
 */
import type { Knex } from 'knex';
import { fromDbDate, fromDbJson, toDbDate } from '../src/db/codecs.js';

const CHUNK = 500;

type Row = Record<string, any>;

interface LedgerRow {
  application_id: number;
  job_id: number;
  from_stage_id: number | null;
  to_stage_id: number | null;
  outcome: string | null;
  reason: string | null;
  at: string;
  by_user_id: number | null;
}

const idOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : null);

/** The ledger of one application from its row and its stage/outcome audit entries (in id order). */
export function historyOf(app: Row, audits: Row[]): LedgerRow[] {
  const details = audits.map((a) => fromDbJson<Record<string, unknown>>(a.details, {}) ?? {});
  const firstMove = audits.findIndex((a) => a.action === 'stage');
  let stage: number | null = firstMove >= 0 ? idOrNull(details[firstMove].from_id) : app.stage_id === null ? null : Number(app.stage_id);
  let outcome: string | null = null;
  let reason: string | null = null;
  const jobId = Number(app.job_id);
  const out: LedgerRow[] = [
    {
      application_id: Number(app.id),
      job_id: jobId,
      from_stage_id: null,
      to_stage_id: stage,
      outcome: null,
      reason: null,
      at: toDbDate(fromDbDate(app.created_at)!),
      by_user_id: null,
    },
  ];
  for (let i = 0; i < audits.length; i++) {
    const a = audits[i];
    const at = toDbDate(fromDbDate(a.created_at)!);
    const user = a.user_id === null || a.user_id === undefined ? null : Number(a.user_id);
    const from = stage;
    const apply = (k: number) => {
      if (audits[k].action === 'stage') stage = idOrNull(details[k].to_id);
      else {
        const to = details[k].to;
        outcome = typeof to === 'string' ? to : null;
        reason = outcome && typeof details[k].reason === 'string' ? (details[k].reason as string).slice(0, 100) : null;
      }
    };
    apply(i);
    // The second entry of the same change (a stage and an outcome written together).
    const n = audits[i + 1];
    if (
      n &&
      n.action !== a.action &&
      fromDbDate(n.created_at)!.getTime() === fromDbDate(a.created_at)!.getTime() &&
      (n.user_id ?? null) === (a.user_id ?? null) &&
      (n.action === 'outcome' || n.action === 'stage')
    ) {
      apply(i + 1);
      i += 1;
    }
    out.push({
      application_id: Number(app.id),
      job_id: jobId,
      from_stage_id: from,
      to_stage_id: stage,
      outcome,
      reason,
      at,
      by_user_id: user,
    });
  }
  return out;
}

export async function up(knex: Knex): Promise<void> {
  const mysql = knex.client.config.client === 'mysql2';
  await knex.schema.createTable('stage_transitions', (t) => {
    if (mysql) {
      t.engine('InnoDB');
      t.charset('utf8mb4');
      t.collate('utf8mb4_unicode_ci');
    }
    t.increments('id');
    t.integer('application_id').unsigned().notNullable().references('id').inTable('applications').onDelete('CASCADE');
    t.integer('job_id').unsigned().notNullable();
    t.integer('from_stage_id').unsigned().nullable();
    t.integer('to_stage_id').unsigned().nullable();
    t.string('outcome', 16).nullable();
    t.string('reason', 100).nullable();
    t.specificType('at', 'DATETIME(3)').notNullable();
    t.integer('by_user_id').unsigned().nullable().references('id').inTable('hr_users').onDelete('SET NULL');
    t.index(['job_id', 'at'], 'stage_transitions_job_idx');
    // Covers what a report reads of an application's history (the id rides along on both databases).
    t.index(['application_id', 'at', 'to_stage_id', 'outcome'], 'stage_transitions_app_idx');
  });

  // Backfill, a chunk of applications at a time (any number of applications in bounded memory).
  let after = 0;
  for (;;) {
    const apps: Row[] = await knex('applications')
      .select('id', 'job_id', 'stage_id', 'created_at')
      .where('id', '>', after)
      .orderBy('id')
      .limit(CHUNK);
    if (!apps.length) break;
    after = Number(apps[apps.length - 1].id);
    const audits: Row[] = await knex('audit_log')
      .select('id', 'entity_id', 'action', 'details', 'user_id', 'created_at')
      .where('entity', 'application')
      .whereIn('action', ['stage', 'outcome'])
      .whereIn(
        'entity_id',
        apps.map((a) => Number(a.id)),
      )
      .orderBy('id');
    const byApp = new Map<number, Row[]>();
    for (const a of audits) {
      const list = byApp.get(Number(a.entity_id));
      if (list) list.push(a);
      else byApp.set(Number(a.entity_id), [a]);
    }
    const rows = apps.flatMap((app) => historyOf(app, byApp.get(Number(app.id)) ?? []));
    // Users removed since keep no id (the audit's user_id is SET NULL on delete too, so none is dangling).
    for (let i = 0; i < rows.length; i += CHUNK) await knex('stage_transitions').insert(rows.slice(i, i + CHUNK));
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('stage_transitions');
}
