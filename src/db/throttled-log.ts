/**
 * A log line that may repeat many times a second (every request failing while the database is
 * down): at most one line per interval. The first failure is written at once; those that follow
 * within the interval are counted, and when it ends the latest of them is written with the count,
 * so a 10 s outage writes about ten lines however many requests failed.
 */
export class ThrottledLog {
  private windowEnd = -Infinity;
  private suppressed = 0;
  private latest = '';
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly write: (line: string) => void,
    private readonly intervalMs = 1000,
    private readonly now: () => number = Date.now,
  ) {}

  log(line: string): void {
    const t = this.now();
    if (t >= this.windowEnd && !this.timer) {
      this.write(line);
      this.windowEnd = t + this.intervalMs;
      return;
    }
    this.suppressed++;
    this.latest = line;
    if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), Math.max(0, this.windowEnd - t));
      this.timer.unref();
    }
  }

  /** Writes what was held back (the latest line and how many were not written). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.suppressed) return;
    const n = this.suppressed;
    this.suppressed = 0;
    this.write(n === 1 ? this.latest : `${this.latest} (${n - 1} more like it in the last ${this.intervalMs / 1000} s not logged)`);
    this.windowEnd = this.now() + this.intervalMs;
  }
}
