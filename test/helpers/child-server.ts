/**
 * The server and the CLI as `npm start` and the installed `careers-admin` run them: the built
 * bundles in dist/ (the global setup, test/helpers/run-setup.ts, builds them when a source is newer),
 * in a child process: start it, read its output, wait for it.
 */
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';

const SERVER_ENTRY = fileURLToPath(new URL('../../dist/server.js', import.meta.url));
export const CLI_ENTRY = fileURLToPath(new URL('../../dist/careers-admin.js', import.meta.url));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export interface ChildServer {
  child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * The server with NODE_ENV=test, LOG_LEVEL=info (its start and stop lines are info lines of its
 * log, which tests wait for), no cron sweep and no apply rate limit unless `env` says otherwise.
 */
export function runServer(env: Record<string, string>): ChildServer {
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'info', POSTS_SWEEP_CRON: 'off', APPLY_RATE_LIMIT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => out, exited };
}

/** Waits until the output holds `text`; fails if the server exits first or `ms` pass. */
export async function waitForOutput(c: ChildServer, text: string, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  while (!c.output().includes(text)) {
    if (c.child.exitCode !== null || c.child.signalCode !== null) throw new Error(`server exited:\n${c.output()}`);
    if (Date.now() > until) throw new Error(`no "${text}" in:\n${c.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** careers-admin with `args` to its end, NODE_ENV=test and `env` over this process's environment; `input` is its standard input. */
export function cliSync(
  args: string[],
  env: Record<string, string> = {},
  input?: string,
): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [CLI_ENTRY, ...args], {
    env: { ...process.env, NODE_ENV: 'test', ...env },
    input,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
