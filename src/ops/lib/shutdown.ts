/**
 * Stop signals for the server and `careers-admin cron`: the first SIGINT/SIGTERM starts an
 * orderly stop; any later one exits at once, with 128 + the signal's number (130 for SIGINT, 143
 * for SIGTERM), because whoever sends it again does not want to wait.
 */
import os from 'node:os';
import type { Logger } from '../../log/logger.js';

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

/** Calls `onFirst` on the first stop signal; every later one exits the process at once. */
export function onStopSignal(log: Logger, onFirst: (signal: StopSignal) => void): void {
  let seen = false;
  for (const signal of STOP_SIGNALS) {
    process.on(signal, () => {
      if (seen) {
        log.warn(`${signal} again: exiting now`);
        process.exit(128 + os.constants.signals[signal]);
      }
      seen = true;
      onFirst(signal);
    });
  }
}

/** Exits with code 1 if the process still runs `ms` from now (a stop that hangs); never keeps it alive by itself. */
export function exitAfter(log: Logger, ms: number, message: string): void {
  const timer = setTimeout(() => {
    log.error(message);
    process.exit(1);
  }, ms);
  timer.unref();
}
