/**
 * The pipeline (issue 20): a job's ordered stages and the rejection reasons HR keeps, moving
 * applications between stages or rejecting them, and a job's board. A stage move or an outcome
 * changes the spec's status as DESIGN.md section 3 says:
 * - moving out of the first stage (where applications arrive) makes NEW into REVIEWED;
 * - entering the Hired stage or being rejected makes it ARCHIVED;
 * - moving out of Hired, or out of Rejected into a stage, makes ARCHIVED into REVIEWED (the
 *   application is being considered again);
 * and a status change through the spec's call leaves the stage as it is (applicants/status.service.ts).
The pipeline writes its own tables (job_stages, rejection_reasons, repo.ts); the stage, outcome and
status of applications it writes through the applicants feature's face (index.ts), inside its own
transaction (docs/decisions/0002-pipeline-feature.md).
 * Every change is audited like a status change (`stage` and `outcome` entries with the old and
 * new names, plus a `status` entry when the status follows) and raises the change counters, in
 * the transaction that writes it.
 */
import { POSITION_FILLED, keepPositionFilled, type PoolDeps } from '../pools/index.js';
import { isMysql, readCommitted, type Db } from '../db/knex.js';
import { withDbRetry } from '../db/errors.js';
import { NotFound, ValidationError } from '../http/errors.js';
import { requireJob } from '../jobs/index.js';
import type { ApplicationStatus } from '../shared/enums.js';
import {
  applicationsPerStage,
  boardColumns,
  bumpCounter,
  insertApplicationAudit,
  insertStageTransitions,
  lockPipelineStates,
  writePipelineStates,
  type ApplicationAudit,
  type PipelineState,
  type StageTransition,
} from '../applicants/index.js';
import { reasonRows, removedJobs, stageWithJob, stagesOfJobs, writeReasons, writeStages, type StageRow } from './repo.js';
import { jobAndStages, boardStamp, reasonNames, stageNames } from './queries.js';
import type { ReadCache } from '../db/read-cache.js';
import { PIPELINE_MESSAGES, type ApplicationChange } from '../applicants/review.schema.js';
import type { BoardQuery, ReasonsInput, StagesInput } from './schema.js';
import type { Board } from './types.js';
import type { RejectionReason, Stage, StageList } from '../applicants/types.js';

interface PipelineDeps {
  db: Db;
  now: () => Date;
  /** With these, a rejection for "Position filled" asks the candidate's consent to be kept (talent pools, issue 35). */
  serverKey?: PoolDeps['serverKey'];
  config?: PoolDeps['config'];
}

const toStages = (rows: StageRow[], counts: Map<number, number>): Stage[] =>
  rows.map((s, position) => ({ id: s.id, name: s.name, position, hired: s.kind === 'HIRED', applicants: counts.get(s.id) ?? 0 }));

/**
 * A job's stages in order, with how many applications each holds (404 for an unknown job): the
 * job with its stages in one statement, then the counts (one range of applications_stage_idx).
 */
export async function jobStages({ db }: { db: Db }, jobId: number): Promise<StageList> {
  const head = await jobAndStages(db, jobId);
  if (!head) throw new NotFound('Not found.');
  const counts = await applicationsPerStage(
    db,
    head.stages.map((s) => s.id),
  );
  return { job_id: jobId, stages: toStages(head.stages, counts) };
}

/**
 * Replaces a job's stage list (PUT): items with an id keep that stage (and its applications) under
 * the new name and place; items without one are new stages; stages left out are removed, which is
 * refused while any application is in one. All or nothing.
 */
export async function replaceStages(deps: PipelineDeps, jobId: number, input: StagesInput, userId: number | null): Promise<StageList> {
  return withDbRetry(() =>
    deps.db.transaction(async (trx) => {
      const job = await requireJob(trx, jobId);
      if (job.status === 'REMOVED') throw new ValidationError({}, PIPELINE_MESSAGES.removedJob);
      const current = await stagesOfJobs(trx, [jobId], 'update');
      const byId = new Map(current.map((s) => [s.id, s]));
      const errors: Record<string, string[]> = {};
      input.forEach((item, i) => {
        if (item.id !== undefined && !byId.has(item.id)) errors[`stages.${i}.id`] = [PIPELINE_MESSAGES.stageId];
      });
      if (Object.keys(errors).length) throw new ValidationError(errors);
      const kept = new Set(input.flatMap((s) => (s.id === undefined ? [] : [s.id])));
      const removed = current.filter((s) => !kept.has(s.id));
      const inUse = await applicationsPerStage(
        trx,
        removed.map((s) => s.id),
      );
      const busy = removed.filter((s) => (inUse.get(s.id) ?? 0) > 0);
      if (busy.length) throw new ValidationError({ stages: busy.map((s) => PIPELINE_MESSAGES.stageInUse(s.name, inUse.get(s.id)!)) });
      await writeStages(
        trx,
        jobId,
        removed.map((s) => s.id),
        input.map((s) => ({ id: s.id, name: s.name, kind: s.id === undefined ? null : byId.get(s.id)!.kind })),
      );
      const before = current.map((s) => s.name);
      const after = input.map((s) => s.name);
      if (before.join('\u0000') !== after.join('\u0000')) {
        await insertApplicationAudit(
          trx,
          [{ entity: 'job', userId, action: 'stages', entityId: jobId, details: { from: before, to: after } }],
          deps.now(),
        );
        // Names changed: the dashboard's per-stage totals read them.
        await bumpCounter(trx, 'applications.stage');
      }
      const rows = await stagesOfJobs(trx, [jobId]);
      return {
        job_id: jobId,
        stages: toStages(
          rows,
          await applicationsPerStage(
            trx,
            rows.map((s) => s.id),
          ),
        ),
      };
      // READ COMMITTED (MySQL): once the stages are locked, the count of their applications sees
      // every move into them that committed meanwhile (a snapshot from before the lock would not).
    }, readCommitted(deps.db)),
  );
}

export async function rejectionReasons({ db }: { db: Db }): Promise<RejectionReason[]> {
  return reasonRows(db);
}

/** Replaces the rejection reasons (PUT). Rejected applications keep the reason's text they were given. */
export async function replaceRejectionReasons(deps: PipelineDeps, input: ReasonsInput): Promise<RejectionReason[]> {
  return withDbRetry(() =>
    deps.db.transaction(async (trx) => {
      const current = await reasonRows(trx, true);
      const ids = new Set(current.map((r) => r.id));
      const errors: Record<string, string[]> = {};
      input.forEach((r, i) => {
        if (r.id !== undefined && !ids.has(r.id)) errors[`reasons.${i}.id`] = [PIPELINE_MESSAGES.reasonId];
      });
      if (Object.keys(errors).length) throw new ValidationError(errors);
      const kept = new Set(input.flatMap((r) => (r.id === undefined ? [] : [r.id])));
      await writeReasons(
        trx,
        current.filter((r) => !kept.has(r.id)).map((r) => r.id),
        input,
      );
      return reasonRows(trx);
    }),
  );
}

/** A stage, a rejection, or the candidate withdrawing (issue 35: from their status page, with an optional reason). */
type PipelineChange = Exclude<ApplicationChange, { kind: 'status' }> | { kind: 'withdraw'; reason: string | null };

interface Target {
  stage_id: number | null;
  outcome: string | null;
  outcome_reason: string | null;
  status: ApplicationStatus;
}

/** Where an application goes for `change`, with the status rules above; null when nothing changes. */
function target(
  app: PipelineState,
  change: PipelineChange,
  stage: StageRow | null,
  stages: Map<number, StageRow>,
  firstStage: Map<number, number>,
): Target | null {
  const from = app.stage_id === null ? undefined : stages.get(app.stage_id);
  if (change.kind === 'outcome') {
    if (app.outcome === 'REJECTED' && app.outcome_reason === change.reason) return null;
    return { stage_id: app.stage_id, outcome: 'REJECTED', outcome_reason: change.reason, status: 'ARCHIVED' };
  }
  if (change.kind === 'withdraw') {
    if (app.outcome === 'WITHDREW') return null;
    return { stage_id: app.stage_id, outcome: 'WITHDREW', outcome_reason: change.reason, status: 'ARCHIVED' };
  }
  const to = stage!;
  if (app.outcome === null && app.stage_id === to.id) return null;
  let status = app.status;
  if (to.kind === 'HIRED') status = 'ARCHIVED';
  else if (status === 'ARCHIVED' && (app.outcome === 'REJECTED' || from?.kind === 'HIRED')) status = 'REVIEWED';
  else if (status === 'NEW' && to.id !== firstStage.get(app.job_id)) status = 'REVIEWED';
  return { stage_id: to.id, outcome: null, outcome_reason: null, status };
}

/**
 * Moves applications to a stage of their job, or rejects them with a reason from the list. One
 * transaction: every application is checked first (a stage of another job, a removed stage, an
 * application of a removed job, an unknown reason each refuse the whole request), then written
 * and audited. Ids that do not exist are answered back, as the status call does. `alongside` runs
 * last in the same transaction with the ids found (the emails feature queues a rejection's emails
 * there), so the change and what goes with it are written together or not at all.
 */
export async function changePipeline(
  deps: PipelineDeps,
  ids: number[],
  change: PipelineChange,
  userId: number | null,
  alongside?: (trx: Db, found: number[], rejectedBefore: number[]) => Promise<void>,
): Promise<{ changed: number[]; missing: number[] }> {
  const now = deps.now();
  return withDbRetry(() =>
    deps.db.transaction(async (trx) => {
      let stage: StageRow | null = null;
      if (change.kind === 'stage') {
        const found = await stageWithJob(trx, change.stage);
        if (!found) throw new ValidationError({ stage: [PIPELINE_MESSAGES.stage] });
        if (found.job_status === 'REMOVED') throw new ValidationError({ stage: [PIPELINE_MESSAGES.removedJob] });
        stage = found;
      } else if (change.kind === 'outcome') {
        const reasons = await reasonRows(trx);
        if (!reasons.some((r) => r.name === change.reason)) throw new ValidationError({ reason: [PIPELINE_MESSAGES.reason] });
      }
      const apps = await lockPipelineStates(trx, ids);
      const found = new Set(apps.map((a) => a.id));
      if (stage && apps.some((a) => a.job_id !== stage.job_id)) throw new ValidationError({ stage: [PIPELINE_MESSAGES.stage] });
      const jobIds = [...new Set(apps.map((a) => a.job_id))];
      if ((await removedJobs(trx, jobIds)).size) throw new ValidationError({ [change.kind]: [PIPELINE_MESSAGES.removedJob] });
      const jobStageRows = await stagesOfJobs(trx, jobIds);
      const stages = new Map(jobStageRows.map((s) => [s.id, s]));
      const firstStage = new Map<number, number>();
      for (const s of jobStageRows) if (!firstStage.has(s.job_id)) firstStage.set(s.job_id, s.id);

      const groups = new Map<string, { values: Target; ids: number[] }>();
      const audit: ApplicationAudit[] = [];
      const ledger: StageTransition[] = [];
      let statusChanged = false;
      for (const app of apps) {
        const t = target(app, change, stage, stages, firstStage);
        if (!t) continue;
        const key = JSON.stringify(t);
        const g = groups.get(key) ?? { values: t, ids: [] };
        g.ids.push(app.id);
        groups.set(key, g);
        const name = (id: number | null) => (id === null ? null : (stages.get(id)?.name ?? null));
        if (t.stage_id !== app.stage_id || t.outcome !== app.outcome || t.outcome_reason !== app.outcome_reason)
          ledger.push({
            application_id: app.id,
            job_id: app.job_id,
            from_stage_id: app.stage_id,
            to_stage_id: t.stage_id,
            outcome: t.outcome,
            reason: t.outcome_reason,
            by_user_id: userId,
          });
        if (t.stage_id !== app.stage_id)
          audit.push({
            userId,
            action: 'stage',
            entityId: app.id,
            details: { from: name(app.stage_id), to: name(t.stage_id), from_id: app.stage_id, to_id: t.stage_id },
          });
        if (t.outcome !== app.outcome || t.outcome_reason !== app.outcome_reason) {
          audit.push({
            userId,
            action: 'outcome',
            entityId: app.id,
            details: { from: app.outcome, to: t.outcome, reason: t.outcome_reason, stage: name(t.stage_id) },
          });
        }
        if (t.status !== app.status) {
          statusChanged = true;
          audit.push({ userId, action: 'status', entityId: app.id, details: { from: app.status, to: t.status } });
        }
      }
      for (const g of groups.values()) await writePipelineStates(trx, g.ids, g.values, now);
      // The ledger the reports read (decision 0011), with the change it records.
      await insertStageTransitions(trx, ledger, now);
      if (audit.length) {
        await insertApplicationAudit(trx, audit, now);
        // Counters last: their shared rows are held only briefly (as applicants/status.service.ts does).
        await bumpCounter(trx, 'applications.stage');
        if (statusChanged) await bumpCounter(trx, 'applications.status');
      }
      // Issue 35: rejected for "Position filled", the candidates are kept in the talent pool of that name.
      if (change.kind === 'outcome' && change.reason === POSITION_FILLED) {
        const rejected = [...groups.values()].flatMap((g) => g.ids);
        if (rejected.length) await keepPositionFilled(trx, deps, rejected, userId);
      }
      // With the ids that were rejected before this change (a bulk rejection emails them again only when asked).
      if (alongside)
        await alongside(
          trx,
          [...found].sort((a, b) => a - b),
          apps
            .filter((a) => a.outcome === 'REJECTED')
            .map((a) => a.id)
            .sort((a, b) => a - b),
        );
      const changed = [...groups.values()].flatMap((g) => g.ids).sort((a, b) => a - b);
      return { changed, missing: ids.filter((id) => !found.has(id)) };
    }, readCommitted(deps.db)),
  );
}

/** The candidate withdraws an application (outcome WITHDREW, archived; the history says so): false when it was withdrawn already. */
export async function withdrawApplication(deps: PipelineDeps, applicationId: number, reason: string | null): Promise<boolean> {
  const { changed } = await changePipeline(deps, [applicationId], { kind: 'withdraw', reason }, null);
  return changed.length > 0;
}

/**
 * A job's board (404 for an unknown job): its stages and the Rejected column with counts and the
 * newest cards for the filters, and the reasons a rejection may give.
 * The columns are reused while the board's stamp is unchanged (STAMPED_CACHE_OFF=board: never).
 */
export async function loadBoard(
  { db, cache, now: clock }: { db: Db; cache: ReadCache; now?: () => Date },
  jobId: number,
  query: BoardQuery,
): Promise<{ board: Board; stages: StageRow[] }> {
  const now = clock?.() ?? new Date();
  const read = async (q: Db) => {
    // Reads only: a job is made with its stages (jobs/repo.ts insertJob; migration 023 gave the
    // older jobs theirs), so opening a board never writes, nor opens a second transaction. Three
    // statements when the columns are kept: the job's heading with its stages, the stamp, the reasons.
    const [head, stamp, reasons] = await Promise.all([jobAndStages(q, jobId), boardStamp(q, now), reasonNames(q)]);
    if (!head) throw new NotFound('Not found.');
    const { job, stages } = head;
    if (query.column !== null && query.column !== 'rejected' && !stages.some((st) => st.id === query.column)) {
      throw new ValidationError({ column: [PIPELINE_MESSAGES.column] });
    }
    const only = query.column === null ? null : { column: query.column, offset: query.offset };
    // Kept while the stamp (read before the columns, so a change in between only makes the next
    // request count again) is unchanged: never stale, and a board opened by several HR users, or
    // polled, is counted once per change rather than once per request.
    const f = { q: query.q, status: query.status, date_from: query.date_from, date_to: query.date_to, source: query.source };
    const key = JSON.stringify([f, query.limit, only, stages.map((st) => [st.id, st.name, st.kind])]);
    const columns = await cache.stamped(`board:${jobId}:${key}`, stamp, () => boardColumns(q, jobId, stages, f, query.limit, only, now));
    return { board: { job, columns, reasons }, stages };
  };
  // MySQL: the reads go out at once on the pool's connections. SQLite (one connection): one
  // transaction, so a request runs start to end instead of queueing behind others at every statement.
  return isMysql(db) ? read(db) : db.transaction((trx) => read(trx));
}

/** The stage names the applicants list may filter by (every live job's, each once). */
export function listStageNames({ db }: { db: Db }): Promise<string[]> {
  return stageNames(db);
}
