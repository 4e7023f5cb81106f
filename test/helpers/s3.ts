/**
 * An S3-compatible server for the tests (s3rver in a child process, files in a temp folder), with
 * the settings that point the app at it: STORAGE_URL and the AWS keys s3rver accepts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { S3Client } from '@aws-sdk/client-s3';

// The SDK warns once that its releases after January 2027 need Node 22: true, but not the tests' business.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const MAIN = fileURLToPath(new URL('./s3rver-main.mjs', import.meta.url));
export const S3_BUCKET = 'careers-test';
/** s3rver's only account. */
const KEYS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };

export interface S3TestServer {
  endpoint: string;
  port: number;
  /** STORAGE_URL for a prefix in the test bucket, plus the keys: the app's whole S3 setting. */
  env: (prefix: string) => Record<string, string>;
  /** A client on the same server, to look at the bucket behind the app's back. */
  client: S3Client;
  /** Stops the server (its files stay, so start(sameDir, samePort) brings the same bucket back). */
  stop: () => Promise<void>;
  dir: string;
}

export async function startS3Server(opts: { dir?: string; port?: number } = {}): Promise<S3TestServer> {
  const dir = opts.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'careers-s3-'));
  const child: ChildProcess = spawn(process.execPath, ['--openssl-legacy-provider', MAIN, dir, String(opts.port ?? 0), S3_BUCKET], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`s3rver exited with code ${code}`)));
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: KEYS.AWS_ACCESS_KEY_ID, secretAccessKey: KEYS.AWS_SECRET_ACCESS_KEY },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return {
    endpoint,
    port,
    dir,
    client,
    env: (prefix: string) => ({
      STORAGE_URL: `s3://${S3_BUCKET}/${prefix}?endpoint=${endpoint}&region=us-east-1&force_path_style=true`,
      ...KEYS,
    }),
    stop: async () => {
      client.destroy();
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
