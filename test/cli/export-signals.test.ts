/**
 * Issue 28 item 14: an export stopped by a signal leaves no hidden temporary file: Ctrl-C
 * (SIGINT), a stop (SIGTERM: kill, systemd) and a dropped SSH session (SIGHUP) each remove it
 * and end the process as the signal would (exit 128 + its number). The real bin is stopped while
 * its temporary file is being written.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { CLI_ENTRY } from '../helpers/child-server.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { databaseKinds, createTestDb, type TestDb } from '../helpers/db.js';
import { makeJob } from '../helpers/factories.js';
import { insertApplications } from '../helpers/applications.js';

const ROWS = 8000;

/** Starts an export, sends `signal` as soon as its temporary file exists, and answers how it ended and what the folder holds. */
async function stopExport(
  dir: string,
  env: Record<string, string>,
  signal: NodeJS.Signals,
): Promise<{ code: number | null; killedBy: string | null; sawTmp: boolean; files: string[] }> {
  const child = spawn(process.execPath, [CLI_ENTRY, 'export', 'applicants', '--out', 'all.xlsx', '--quiet'], {
    cwd: dir,
    env: { ...process.env, NODE_ENV: 'test', ...env },
  });
  child.stderr.resume();
  child.stdout.resume();
  const exited = new Promise<{ code: number | null; killedBy: string | null }>((resolve) =>
    child.on('exit', (code, sig) => resolve({ code, killedBy: sig })),
  );
  let sawTmp = false;
  let done = false;
  void exited.then(() => {
    done = true;
  });
  while (!done && !sawTmp) {
    if (fs.readdirSync(dir).some((f) => f.endsWith('.tmp'))) {
      sawTmp = true;
      child.kill(signal);
    } else await new Promise((r) => setTimeout(r, 5));
  }
  const end = await exited;
  return { ...end, sawTmp, files: fs.readdirSync(dir) };
}

for (const kind of databaseKinds()) {
  describe(`careers-admin export stopped by a signal [${kind}]`, function () {
    this.timeout(300_000);
    let t: TestDb;
    let env: Record<string, string>;
    let dir: string;

    before(async () => {
      t = await createTestDb(kind);
      env = { DATA_DIR: t.dataDir, DATABASE_URL: t.config.databaseUrl ?? '' };
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'careers-export-signal-'));
      const job = await makeJob(t.db, { title: 'Signal Job' });
      const apps = Array.from({ length: ROWS }, (_, i) => ({
        first_name: `First${i}`,
        last_name: 'Rao',
        email: `a${i}@example.com`,
        phone: '+919876543210',
        status: 'NEW' as const,
      }));
      await insertApplications(t.db, job.id, apps, []);
    });
    after(async () => {
      await t.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    for (const [signal, number] of [
      ['SIGTERM', 15],
      ['SIGHUP', 1],
      ['SIGINT', 2],
    ] as const) {
      it(`${signal} removes the temporary file and exits ${128 + number}`, async () => {
        const own = fs.mkdtempSync(path.join(dir, `${signal}-`));
        const r = await stopExport(own, env, signal);
        expect(r.sawTmp, 'the export ended before its temporary file was seen').to.equal(true);
        expect(r.files, 'left in the folder').to.deep.equal([]);
        expect([r.code, r.killedBy]).to.deep.equal([128 + number, null]);
      });
    }
  });
}
