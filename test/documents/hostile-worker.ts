/** A parser process entry that misbehaves on request, for the pool's own tests (test/documents/parsers.test.ts). */
import { serveParsers } from '../../src/documents/pool.js';

serveParsers({
  spin() {
    for (;;);
  },
  grow() {
    const kept: number[][] = [];
    for (;;) kept.push(new Array(4_000_000).fill(kept.length));
  },
  async sleep(ms: number) {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return 'done sleep';
  },
  answer: () => 'done answer',
  exit: () => process.exit(3),
});
