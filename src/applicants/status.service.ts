/** Changing the status of applications (HR): one or many at once, audited, the counters raised. */
import { readCommitted, type Db } from '../db/knex.js';
import { withDbRetry } from '../db/errors.js';
import { bumpCounter, insertApplicationAudit } from './repo.js';
import { updateStatuses } from './status.repo.js';
import type { ApplicationStatus } from '../shared/enums.js';

export interface StatusChangeDeps {
  db: Db;
  now: () => Date;
}

/**
 * Sets the status of applications, in one transaction with one audit entry per changed
 * application (who, when, from, to) and the `applications.status` counter, so the dashboard's and
 * every process's cached totals see the change at once. Ids that do not exist are answered back.
 */
export async function changeStatuses(
  deps: StatusChangeDeps,
  ids: number[],
  status: ApplicationStatus,
  userId: number | null,
): Promise<{ changed: number[]; missing: number[] }> {
  const now = deps.now();
  // READ COMMITTED (MySQL): a statement locks only the rows it changes, not every row a table scan
  // passes, so changes over other applications never wait for each other. The counter is touched
  // last, so its one shared row is held only briefly; a deadlock victim runs again.
  return withDbRetry(() =>
    deps.db.transaction(async (trx) => {
      const { found, changed } = await updateStatuses(trx, ids, status, now);
      if (changed.length) {
        await insertApplicationAudit(
          trx,
          changed.map((c) => ({ userId, action: 'status', entityId: c.id, details: { from: c.from, to: status } })),
          now,
        );
        await bumpCounter(trx, 'applications.status');
      }
      return { changed: changed.map((c) => c.id), missing: ids.filter((id) => !found.has(id)) };
    }, readCommitted(deps.db)),
  );
}
