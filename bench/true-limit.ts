/**
 * The true limit for a page benchmark: a bare node:http server, in its own process, answering each
 * URL with the exact bytes (status, headers, body) the real app sent for it, from memory. Started
 * by `startTrueLimit` (bench/lib.ts) with the path of a JSON file of captured responses, keyed by
 * path and the request's Accept-Encoding, so the compressed and uncompressed variants of a page
 * are both answered as the app answered them. Not Express: the app answers kept pages before
 * Express (src/http/kept-pages.ts), so a limit built on Express would be slower than the app.
 */
import fs from 'node:fs';
import http from 'node:http';

interface Captured {
  path: string;
  acceptEncoding: string;
  status: number;
  headers: Record<string, string>;
  body: string; // base64
}

const captured = JSON.parse(fs.readFileSync(process.env.TRUE_LIMIT_RESPONSES!, 'utf8')) as Captured[];
const answers = new Map(captured.map((c) => [`${c.path}\n${c.acceptEncoding}`, { ...c, bytes: Buffer.from(c.body, 'base64') }]));

const server = http.createServer((req, res) => {
  const answer = answers.get(`${req.url}\n${req.headers['accept-encoding'] ?? ''}`);
  if (!answer) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(answer.status, answer.headers).end(req.method === 'HEAD' ? undefined : answer.bytes);
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log(`true limit listening on ${process.env.PORT}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
