/** Running the real careers-admin bin in a child process, from any working folder. */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/careers-admin.ts', import.meta.url));
// tsx by its full address: the child may run in a folder with no node_modules (a temp folder).
const TSX = import.meta.resolve('tsx');

export interface CliResult {
  code: number | null;
  out: string;
  err: string;
}

/**
 * careers-admin with `args`, NODE_ENV=test and `env` over this process's environment (a value of
 * undefined removes the variable); `cwd` defaults to the project folder.
 */
export function runCli(args: string[], env: Record<string, string | undefined> = {}, cwd = path.dirname(path.dirname(BIN))): Promise<CliResult> {
  const childEnv: Record<string, string | undefined> = { ...process.env, NODE_ENV: 'test', ...env };
  for (const [k, v] of Object.entries(childEnv)) if (v === undefined) delete childEnv[k];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', TSX, BIN, ...args], { env: childEnv, cwd });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}
