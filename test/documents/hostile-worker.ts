/** A parser worker entry that misbehaves on request, for the pool's own tests (test/documents/parsers.test.ts). */
import type { MessagePort } from 'node:worker_threads';

export interface HostileTask {
  mode: 'spin' | 'grow' | 'sleep' | 'answer';
  ms?: number;
  started: MessagePort;
}

export default async function hostile({ mode, ms = 0, started }: HostileTask): Promise<string> {
  started.postMessage('started');
  started.close();
  if (mode === 'spin') for (;;);
  if (mode === 'grow') {
    const kept: number[][] = [];
    for (;;) kept.push(new Array(4_000_000).fill(kept.length));
  }
  if (mode === 'sleep') await new Promise((resolve) => setTimeout(resolve, ms));
  return `done ${mode}`;
}
