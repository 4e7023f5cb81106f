/** Mocha root hooks (`.mocharc.json` requires this file): what one test process sets up once and takes down at its end. */
import { dropTestDatabases } from './db.js';

export const mochaHooks = {
  async afterAll(): Promise<void> {
    await dropTestDatabases();
  },
};
