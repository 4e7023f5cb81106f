/**
 * Mocha root hooks (`.mocharc.json` requires this file): what one test process sets up once and
 * takes down at its end, and the count of tests per database (from the `[sqlite]`/`[mysql]` in
 * their titles) printed as the run's last line, which `.ci/run` repeats in its summary.
 */
import type { Context } from 'mocha';
import { dropTestDatabases } from './db.js';

const counts = { sqlite: 0, mysql: 0, neither: 0, failed: 0 };

export const mochaHooks = {
  afterEach(this: Context): void {
    const test = this.currentTest;
    if (!test || test.state === 'pending') return;
    if (test.state === 'failed') counts.failed++;
    const title = test.fullTitle();
    if (title.includes('[mysql]')) counts.mysql++;
    else if (title.includes('[sqlite]')) counts.sqlite++;
    else counts.neither++;
  },
  async afterAll(): Promise<void> {
    await dropTestDatabases();
    console.log(`Tests run per database: sqlite ${counts.sqlite}, mysql ${counts.mysql}, no database named ${counts.neither}; failed ${counts.failed}`);
  },
};
