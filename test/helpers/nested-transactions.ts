/**
 * Fails any transaction opened on a SQLite handle while one of the same handle is open in the
 * same flow of work (an `await db.transaction(...)` inside another's callback). SQLite has one
 * connection: the inner transaction waits for the outer one's connection, which the outer one
 * holds until the inner one ends, so it stalls until the pool's acquire timeout (a 503 after
 * seconds, with every other request queued behind it). This makes the class fail at once, with
 * its own message, in every suite whose database comes from createTestDb. A transaction of the
 * transaction (`trx.transaction`, a savepoint on the same connection) is fine and untouched, and
 * so are transactions of separate requests that merely overlap: each waits its turn.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Knex } from 'knex';

export class NestedTransactionError extends Error {
  constructor() {
    super(
      'A transaction was opened on the SQLite handle inside another transaction of it: it would wait for the only connection, which the outer one holds (pass the transaction down instead).',
    );
    this.name = 'NestedTransactionError';
  }
}

type Begin = (container?: unknown, config?: unknown) => Promise<unknown>;

/**
 * The handles whose transaction the current flow of work is inside. One store for every handle:
 * each AsyncLocalStorage in use adds a call to every promise the process makes, so one per test
 * database made a suite's promises slower with every suite before it in the same mocha worker.
 */
const inside = new AsyncLocalStorage<ReadonlySet<object>>();

/** Installs the check on `db` (its root context, where `db.transaction` and Knex's migrator begin). */
export function failNestedTransactions(db: Knex): Knex {
  const context = (db as unknown as { context: { transaction: Begin } }).context;
  const begin = context.transaction.bind(context);
  context.transaction = (container?: unknown, config?: unknown) => {
    const outer = inside.getStore();
    if (outer?.has(context)) {
      const err = new NestedTransactionError();
      console.error(err.stack);
      return Promise.reject(err);
    }
    if (typeof container !== 'function') return begin(container, config);
    const work = container as (trx: Knex.Transaction) => unknown;
    return begin((trx: Knex.Transaction) => inside.run(new Set([...(outer ?? []), context]), () => work(trx)), config);
  };
  return db;
}
