/**
 * A load run (lib.ts loadUrl) with the CPU it cost: the app server's and the database server's
 * (MariaDB/MySQL on this machine, found by its process name; none for SQLite, which runs inside the
 * app), in microseconds per answered request, warm-up included. On a machine shared with other
 * work the latencies move with the load; the CPU a request costs moves far less, so it tells a
 * change's effect apart from the neighbours'.
 */
import fs from 'node:fs';
import autocannon from 'autocannon';
import { type LoadResult, cpuSeconds, loadUrl } from './lib.js';

/** The local MariaDB/MySQL server's process id, or null (none running, or SQLite). */
export function databaseServerPid(): number | null {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const comm = fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      if (comm === 'mariadbd' || comm === 'mysqld') return Number(entry);
    } catch {
      // The process ended meanwhile.
    }
  }
  return null;
}

export interface CpuLoadResult extends LoadResult {
  /** CPU µs per answered request of the app server, and of the database server (NaN: none). */
  appCpuUs: number;
  dbCpuUs: number;
}

const total = (pid: number) => {
  const { user, system } = cpuSeconds(pid);
  return user + system;
};

/**
 * loadUrl, with the CPU of `appPid` and (when given) `dbPid` per answered request (loadUrl's
 * warm-up and measured run), counted after a warm-up of its own, so the first scenario does not
 * pay for the server's start (code compiled on first use).
 */
export async function loadUrlWithCpu(
  url: string,
  headers: Record<string, string>,
  connections: number,
  duration: number,
  appPid: number,
  dbPid: number | null,
): Promise<CpuLoadResult> {
  await autocannon({ url, connections, duration: 2, headers });
  const app0 = total(appPid);
  const db0 = dbPid === null ? 0 : total(dbPid);
  const r = await loadUrl(url, headers, connections, duration);
  const per = (seconds: number) => (seconds * 1e6) / Math.max(1, r.answered);
  return {
    ...r,
    appCpuUs: per(total(appPid) - app0),
    dbCpuUs: dbPid === null ? Number.NaN : per(total(dbPid) - db0),
  };
}

/** A column of figures for the tables the benches print: `app µs/req` and `db µs/req`. */
export function cpuColumns(r: CpuLoadResult): string {
  return `${r.appCpuUs.toFixed(0).padStart(8)} ${(Number.isNaN(r.dbCpuUs) ? '-' : r.dbCpuUs.toFixed(0)).padStart(8)}`;
}
