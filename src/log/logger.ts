/**
 * The process's log (pino): one JSON line per event on standard output (standard error in
 * `careers-admin`, src/cli/context.ts), or pino-pretty's lines on a terminal in development.
 * The context carries it (`ctx.log`): code that has a context logs there, and code that has none
 * is handed the logger. `processLog()`, the same logger once a context has been made, is for what
 * runs before or without one: the CLI, the server's first lines, and the database's once-a-second
 * notices (src/db/errors.ts, src/db/knex.ts). Nothing personal is logged: no URL query, no request
 * body, no header value, no bound SQL value (see `loggable`, src/http/error-handler.ts).
 */
import { pino, type Logger } from 'pino';
import type { LogLevel } from '../../config/index.js';

export type { Logger };

/**
 * Standard output through sonic-boom, asynchronous: lines written while a write is in flight go
 * out together, so a request line costs no system call of its own (a pipe's writes block on
 * Linux). What is still buffered is written when the process exits.
 */
const stdout = pino.destination({ dest: 1, sync: false });
process.once('exit', () => stdout.flushSync());

/** Where JSON lines go: standard output, or what a test collects (`setLogSink`). */
let sink: (line: string) => void = (line) => void stdout.write(line);
const destination = { write: (line: string) => sink(line) };

let current: Logger = pino({ level: 'info' }, destination);

/** Makes the process's logger (and returns it): `pretty` prints readable lines instead of JSON. */
export function createLogger(settings: { level: LogLevel; pretty: boolean }): Logger {
  const options = { level: settings.level, base: { pid: process.pid } };
  current = settings.pretty
    ? pino({ ...options, transport: { target: 'pino-pretty', options: { colorize: true, ignore: 'pid', translateTime: 'SYS:HH:MM:ss' } } })
    : pino(options, destination);
  return current;
}

/** Sends every JSON log line to `write` instead of standard output (tests); answers the previous sink. */
export function setLogSink(write: (line: string) => void): (line: string) => void {
  const previous = sink;
  sink = write;
  return previous;
}

/** The process's logger, for kernel code that runs outside a request or a context. */
export function processLog(): Logger {
  return current;
}
