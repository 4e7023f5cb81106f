/** Collects this process's log lines (src/log/logger.ts) instead of printing them. */
import { setLogSink } from '../../src/log/logger.js';

/** Each line as `msg {other fields}` (level, time and pid left out), so tests can match the message and its values. */
export function captureLog(): { lines: () => string[]; restore: () => void } {
  const lines: string[] = [];
  const previous = setLogSink((json) => {
    const { level: _level, time: _time, pid: _pid, msg, ...rest } = JSON.parse(json);
    lines.push(Object.keys(rest).length ? `${msg} ${JSON.stringify(rest)}` : String(msg));
  });
  return { lines: () => [...lines], restore: () => void setLogSink(previous) };
}

/** The messages of a child process's output: each JSON log line's `msg`, other lines as they are. */
export function logMessages(output: string): string[] {
  return output
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      try {
        return String(JSON.parse(line).msg);
      } catch {
        return line;
      }
    });
}
