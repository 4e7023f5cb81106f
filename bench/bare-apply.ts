/**
 * The true limit for bench/apply.ts: a bare Express server, in its own process on the same Node,
 * that takes the same multipart POST as `/api/jobs/{publicId}/apply/` and does only what any
 * durable upload must do: busboy parses the body, each file part is streamed into a new file in
 * BARE_APPLY_DIR (a temp folder beside the app's DATA_DIR, so on the same disk), fsynced and
 * closed, then the answer is 201 with a small JSON body like the app's. No database, no
 * validation, no hashing, no type check, no middleware; text fields are parsed and dropped.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import express from 'express';

const dir = process.env.BARE_APPLY_DIR!;
fs.mkdirSync(dir, { recursive: true });

/** Streams one file part into a new file; `flush` fsyncs it before the close that settles the pipeline. */
function store(stream: Readable): Promise<void> {
  const file = path.join(dir, randomBytes(16).toString('hex'));
  return pipeline(stream, fs.createWriteStream(file, { flags: 'wx', mode: 0o600, flush: true }));
}

const app = express();
app.disable('x-powered-by');
app.disable('etag');
app.post('/api/jobs/:publicId/apply/', (req, res) => {
  const writes: Promise<void>[] = [];
  const bb = busboy({ headers: req.headers });
  bb.on('file', (_name, stream) => writes.push(store(stream)));
  bb.on('error', () => res.status(400).json({ detail: 'Malformed form.' }));
  bb.on('finish', () => {
    Promise.all(writes).then(
      () => res.status(201).json({ detail: 'Application submitted.' }),
      (err: Error) => res.status(500).json({ detail: err.message }),
    );
  });
  req.pipe(bb);
});
const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => console.log(`bare apply listening on ${process.env.PORT}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
