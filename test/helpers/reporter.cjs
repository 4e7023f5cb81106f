/**
 * The run's reporter (`.mocharc.json`): mocha's spec output, then the count of tests per database
 * (from the `[sqlite]`/`[mysql]` in their titles) as the last line, which `.ci/run` repeats in its
 * summary. A reporter lives in mocha's own process, so it counts the tests of every worker of a
 * `--parallel` run.
 */
const Mocha = require('mocha');

const { EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_RUN_END } = Mocha.Runner.constants;

class CountingSpec extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const counts = { sqlite: 0, mysql: 0, neither: 0, failed: 0 };
    const count = (test) => {
      const title = test.fullTitle();
      if (title.includes('[mysql]')) counts.mysql++;
      else if (title.includes('[sqlite]')) counts.sqlite++;
      else counts.neither++;
    };
    runner.on(EVENT_TEST_PASS, count);
    runner.on(EVENT_TEST_FAIL, (test) => {
      // A failing hook is reported as a failure too; only tests count per database.
      if (test.type === 'test') count(test);
      counts.failed++;
    });
    runner.once(EVENT_RUN_END, () => {
      console.log(
        `Tests run per database: sqlite ${counts.sqlite}, mysql ${counts.mysql}, no database named ${counts.neither}; failed ${counts.failed}`,
      );
    });
  }
}

module.exports = CountingSpec;
