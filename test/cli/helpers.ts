/** Running the real careers-admin bin in a child process, from any working folder. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CLI_ENTRY } from '../helpers/child-server.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CliResult {
  code: number | null;
  out: string;
  err: string;
}

/**
 * careers-admin with `args`, NODE_ENV=test and `env` over this process's environment (a value of
 * undefined removes the variable); `cwd` defaults to the project folder.
 */
export function runCli(args: string[], env: Record<string, string | undefined> = {}, cwd = ROOT): Promise<CliResult> {
  const childEnv: Record<string, string | undefined> = { ...process.env, NODE_ENV: 'test', ...env };
  for (const [k, v] of Object.entries(childEnv)) if (v === undefined) delete childEnv[k];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI_ENTRY, ...args], { env: childEnv, cwd });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    // 'close', not 'exit': the pipes may still hold output when the process exits.
    child.on('close', (code) => resolve({ code, out, err }));
  });
}
