/**
 * HTTP requests with the request target sent exactly as given: `fetch` normalises URLs, so a
 * malformed percent sequence (`/careers/%`) or an absolute-form target
 * (`GET http://evil.example/api/jobs/ HTTP/1.1`) needs node:http.
 */
import http from 'node:http';
import net from 'node:net';
import { once } from 'node:events';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export function rawRequest(
  baseUrl: string,
  target: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: hostname, port, method: opts.method ?? 'GET', path: target, headers: opts.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

export interface NaiveResult {
  status: number | null;
  headers: Record<string, string>;
  body: string;
  /** Body bytes written before the server's answer was read (or the write failed). */
  sent: number;
  /** What stopped the client while it was still sending (EPIPE, ECONNRESET), if anything. */
  error: string | null;
}

/**
 * A client that writes its whole request before it reads anything, as most HTTP libraries do, over
 * a raw socket: `head` then filler up to `bodyBytes`, in `chunkBytes` pieces `delayMs` apart, with
 * Content-Length (or chunked). If the server closed the connection with body bytes unread, this
 * client fails with EPIPE/ECONNRESET and never sees the answer.
 */
export async function writeAllThenRead(
  baseUrl: string,
  target: string,
  opts: {
    method?: string;
    headers?: Record<string, string>;
    head?: Buffer;
    bodyBytes: number;
    chunkBytes?: number;
    delayMs?: number;
    chunked?: boolean;
    connectionClose?: boolean;
    timeoutMs?: number;
  },
): Promise<NaiveResult> {
  const { hostname, port } = new URL(baseUrl);
  const socket = net.connect(Number(port), hostname);
  await once(socket, 'connect');
  socket.pause(); // nothing is read until everything is written
  let error: string | null = null;
  let closed = false;
  socket.on('error', (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
  socket.on('close', () => (closed = true));
  const head: Record<string, string> = { Host: `${hostname}:${port}`, ...(opts.headers ?? {}) };
  if (opts.chunked) head['Transfer-Encoding'] = 'chunked';
  else head['Content-Length'] = String(opts.bodyBytes);
  if (opts.connectionClose) head.Connection = 'close';
  socket.write(
    `${opts.method ?? 'POST'} ${target} HTTP/1.1\r\n${Object.entries(head)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}\r\n`,
  );

  const chunkBytes = opts.chunkBytes ?? 64 * 1024;
  const filler = Buffer.alloc(chunkBytes, 0x41);
  let sent = 0;
  const write = (b: Buffer) =>
    new Promise<void>((resolve) => {
      if (closed || error) return resolve();
      const framed = opts.chunked ? Buffer.concat([Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from('\r\n')]) : b;
      socket.write(framed, () => resolve());
    });
  const firstPart = opts.head ?? Buffer.alloc(0);
  if (firstPart.length) {
    await write(firstPart);
    sent += firstPart.length;
  }
  while (sent < opts.bodyBytes && !closed && !error) {
    const n = Math.min(chunkBytes, opts.bodyBytes - sent);
    await write(n === chunkBytes ? filler : filler.subarray(0, n));
    if (!error) sent += n;
    if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
  }
  if (opts.chunked && !closed && !error) await write(Buffer.alloc(0)).then(() => undefined); // the last chunk: 0\r\n\r\n
  if (error) {
    socket.destroy();
    return { status: null, headers: {}, body: '', sent, error };
  }

  // Now read the answer.
  let received = Buffer.alloc(0);
  socket.on('data', (d: Buffer) => (received = Buffer.concat([received, d])));
  socket.resume();
  const until = Date.now() + (opts.timeoutMs ?? 30_000);
  const parse = () => {
    const end = received.indexOf('\r\n\r\n');
    if (end === -1) return null;
    const lines = received.subarray(0, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const i = line.indexOf(':');
      headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
    }
    const length = Number(headers['content-length'] ?? NaN);
    const body = received.subarray(end + 4);
    if (Number.isFinite(length) ? body.length < length : !closed) return null;
    return {
      status: Number(lines[0].split(' ')[1]),
      headers,
      body: body.subarray(0, Number.isFinite(length) ? length : undefined).toString('utf8'),
    };
  };
  let answer = parse();
  while (!answer && !closed && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 20));
    answer = parse();
  }
  answer ??= parse();
  socket.destroy();
  return { status: answer?.status ?? null, headers: answer?.headers ?? {}, body: answer?.body ?? '', sent, error };
}
