/**
 * The public pages' version (issue 33, migration 035): a counter in the database that every write
 * able to change a public page raises in its own transaction (`bumpPublicVersion`). With
 * PUBLIC_CACHE_SECONDS=0 a process keeps each public page it rendered with the version it read
 * before reading the page's data, and answers it again only after reading the version once more
 * (one primary-key read) and finding it unchanged: every process on the database sees a committed
 * write at once, and nothing is rendered again while nothing changed.
 *
 * `VersionReads` shares reads between requests without ever answering one with a read that began
 * before it asked: a request that comes while a read is in flight waits for the next read, which
 * starts when that one ends and is shared by every request that came meanwhile.
 */
import type { Knex } from 'knex';

const PAGES = 'pages';

/** Raises the public pages' version; call it inside the transaction of the write, as its last statement (so it holds the row lock only until the commit). */
export async function bumpPublicVersion(trx: Knex): Promise<void> {
  await trx('public_versions').where({ name: PAGES }).increment('version', 1);
}

/** The public pages' version as committed now. */
export async function readPublicVersion(db: Knex): Promise<string> {
  const row = (await db('public_versions').where({ name: PAGES }).first('version')) as { version: number | string } | undefined;
  if (!row) throw new Error('public_versions has no pages row (migration 035)');
  return String(row.version);
}

const ignore = () => undefined;

/** Reads of a value that each begin after their caller asked; callers that ask during one read share the next. */
export class VersionReads {
  private current: Promise<string> | null = null;
  private next: Promise<string> | null = null;

  constructor(private readonly load: () => Promise<string>) {}

  read(): Promise<string> {
    if (!this.current) return this.start();
    // The read in flight may have begun before a write this caller has seen: wait for the next one.
    this.next ??= this.current.then(ignore, ignore).then(() => {
      this.next = null;
      return this.start();
    });
    return this.next;
  }

  private start(): Promise<string> {
    const read = this.load();
    this.current = read;
    const done = () => {
      if (this.current === read) this.current = null;
    };
    read.then(done, done);
    return read;
  }
}
