/**
 * The true limit for a page benchmark: a bare Express server, in its own process, answering each
 * URL with the exact bytes (status, headers, body) the real app sent for it, from memory. Started
 * by `startTrueLimit` (bench/lib.ts) with the path of a JSON file of captured responses, keyed by
 * path and the request's Accept-Encoding, so the compressed and uncompressed variants of a page
 * are both answered as the app answered them.
 */
import fs from 'node:fs';
import express from 'express';

interface Captured {
  path: string;
  acceptEncoding: string;
  status: number;
  headers: Record<string, string>;
  body: string; // base64
}

const captured = JSON.parse(fs.readFileSync(process.env.TRUE_LIMIT_RESPONSES!, 'utf8')) as Captured[];
const answers = new Map(captured.map((c) => [`${c.path}\n${c.acceptEncoding}`, { ...c, bytes: Buffer.from(c.body, 'base64') }]));

const app = express();
app.disable('x-powered-by');
app.disable('etag');
app.use((req, res) => {
  const answer = answers.get(`${req.originalUrl}\n${req.headers['accept-encoding'] ?? ''}`);
  if (!answer) return res.status(404).end();
  res.status(answer.status).set(answer.headers).end(answer.bytes);
});
const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => console.log(`true limit listening on ${process.env.PORT}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
