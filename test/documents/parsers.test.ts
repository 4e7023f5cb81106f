/**
 * The document parsers (src/documents/pool.ts, issue 28): every parse of an untrusted document runs
 * in a child process with a deadline and a memory cap. A parser that spins or grows without end is
 * killed and answered null while the server's event loop keeps turning; the deadline counts parsing, not
 * waiting for a worker; the queue is bounded; real Word files still give their text; the looping DOC
 * and the DOCX of 500,000 empty paragraphs give none, and fast.
 */
import fs from 'node:fs';
import { expect } from 'chai';
import { DocumentParsers, ParsersBusy, type ParserLimits } from '../../src/documents/pool.js';
import { wordText } from '../../src/documents/word-text.js';
import { DOC_SAMPLE_PATH, DOC_SAMPLE_TEXT, emptyParagraphsDocxBytes, loopingDocBytes, textDocxBytes } from '../fixtures/resumes.js';
import { createLogger } from '../../src/log/logger.js';
import { captureLog } from '../helpers/log.js';

const HOSTILE = new URL('./hostile-worker.ts', import.meta.url);
const LIMITS: ParserLimits = { deadlineMs: 1000, heapMb: 64, processes: 1, queue: 2 };

/** The longest the event loop went without turning while `work` ran. */
async function maxLoopLag<T>(work: () => Promise<T>): Promise<{ result: T; lagMs: number }> {
  let last = performance.now();
  let lagMs = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    lagMs = Math.max(lagMs, now - last - 20);
    last = now;
  }, 20);
  try {
    return { result: await work(), lagMs };
  } finally {
    clearInterval(tick);
  }
}

describe('document parsers: child processes with a deadline and a memory cap', () => {
  const captured = captureLog();
  const parsers = new DocumentParsers(createLogger({ level: 'info', pretty: false }), LIMITS, HOSTILE);
  const stopped = (reason: string) =>
    captured.lines().some((l) => l.startsWith('document parser stopped') && l.includes(`"reason":"${reason}"`));
  const run = (mode: string, ms?: number) => parsers.run<string>(mode, ms === undefined ? [] : [ms]);
  after(async () => {
    captured.restore();
    await parsers.close();
  });

  it('stops a parser that never ends at its deadline, the main thread turning meanwhile', async () => {
    // A child started first: its start (seconds on a loaded machine) is not what this times.
    expect(await run('answer')).to.equal('done answer');
    const t = Date.now();
    const { result, lagMs } = await maxLoopLag(() => run('spin'));
    expect(result).to.equal(null);
    expect(Date.now() - t).to.be.within(900, 4000);
    expect(lagMs).to.be.below(1000);
    expect(stopped('deadline')).to.equal(true);
    // The pool replaces the stopped worker.
    expect(await run('answer')).to.equal('done answer');
  });

  it('stops a parser that outgrows its memory cap, the main thread turning meanwhile', async () => {
    // A deadline long enough that the memory cap is what stops it.
    const roomy = new DocumentParsers(createLogger({ level: 'info', pretty: false }), { ...LIMITS, deadlineMs: 20_000 }, HOSTILE);
    try {
      const { result, lagMs } = await maxLoopLag(() => roomy.run<string>('grow', []));
      expect(result).to.equal(null);
      expect(lagMs).to.be.below(1000);
      expect(stopped('died (SIGABRT)'), captured.lines().join('\n')).to.equal(true);
      expect(await roomy.run<string>('answer', [])).to.equal('done answer');
    } finally {
      await roomy.close();
    }
  });

  it('answers null when its child exits in the middle, and starts another for the next parse', async () => {
    expect(await run('exit')).to.equal(null);
    expect(stopped('died (3)')).to.equal(true);
    expect(await run('answer')).to.equal('done answer');
  });

  it('counts the deadline from when a worker starts the parse, not while it waits', async () => {
    // One worker: the second task waits 700 ms, then parses for 700 ms: 1.4 s in all, each under 1 s.
    const [a, b] = await Promise.all([run('sleep', 700), run('sleep', 700)]);
    expect([a, b]).to.deep.equal(['done sleep', 'done sleep']);
  });

  it('keeps a bounded queue and says when it is full', async () => {
    const running = [run('sleep', 300), run('sleep', 300), run('sleep', 300)];
    let busy: unknown;
    await run('answer').catch((err) => (busy = err));
    expect(busy).to.be.instanceOf(ParsersBusy);
    expect(await Promise.all(running)).to.deep.equal(['done sleep', 'done sleep', 'done sleep']);
  });
});

describe('document parsers: Word files', () => {
  const parsers = new DocumentParsers(createLogger({ level: 'error', pretty: false }));
  after(() => parsers.close());

  it('reads the text of a DOCX and a DOC in a child process', async () => {
    expect(await parsers.wordText('docx', textDocxBytes(['Priya Sharma', 'Payroll lead']))).to.deep.equal({
      text: 'Priya Sharma\n\nPayroll lead',
      truncated: false,
    });
    const doc = await parsers.wordText('doc', fs.readFileSync(DOC_SAMPLE_PATH));
    expect(doc?.text).to.contain(DOC_SAMPLE_TEXT);
  });

  it('gives up on a DOC whose sector chain loops, at the deadline, and reads the next file', async () => {
    const t = Date.now();
    const { result, lagMs } = await maxLoopLag(() => parsers.wordText('doc', loopingDocBytes()));
    expect(result).to.equal(null);
    expect(Date.now() - t).to.be.below(5000);
    expect(lagMs).to.be.below(1000);
    expect(await parsers.wordText('docx', textDocxBytes(['After']))).to.deep.equal({ text: 'After', truncated: false });
  });

  it('refuses a DOCX of 500,000 empty paragraphs by its element count, before parsing it', async () => {
    const bytes = emptyParagraphsDocxBytes(500_000);
    expect(bytes.length).to.be.below(10_000);
    const t = performance.now();
    expect(await wordText('docx', bytes)).to.equal(null);
    // Counting the tags takes about half a second (a second under a loaded CI); parsing them would take far longer.
    expect(performance.now() - t).to.be.below(3000);
    // A long but real document is still read.
    expect((await wordText('docx', emptyParagraphsDocxBytes(20_000)))?.text).to.equal('');
  });
});
