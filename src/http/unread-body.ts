/**
 * Answers sent before the request body was read (the apply route refusing an upload because the
 * database is down, the job is gone or the client is rate limited; the HR guard refusing a large
 * JSON body; a refusal in the middle of an upload) must still reach a client that is still
 * sending. Two things get in the way:
 *
 * - a client that writes its whole body before it reads (most HTTP libraries) gets EPIPE or a
 *   reset, and never sees the answer, when the server closes the connection with body bytes
 *   still unread; Node does exactly that after an answer to a `Connection: close` (or HTTP/1.0)
 *   request;
 * - on a kept-alive connection Node reads and discards the rest itself, but without any limit.
 *
 * So the rest of the body is read and thrown away up to DRAIN_LIMIT (past that the client is an
 * abuser and the connection is cut), and a connection that is to close after the answer closes
 * its sending side at once (the answer is complete) but is only destroyed once the body has
 * been read: the "lingering close" of RFC 9112 section 9.6. Node's requestTimeout still bounds
 * how long a slow body may take.
 */
import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';

/** After an early answer, at most this much more of the body is read (and discarded) before the connection is cut. */
export const DRAIN_LIMIT = 32 * 1024 * 1024;

const draining = new WeakSet<IncomingMessage>();

function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

/** Reads and discards what the client still sends, so it gets to read the answer; cuts off abusers. Idempotent. */
export function discardUnreadBody(req: IncomingMessage): void {
  if (draining.has(req) || req.complete || req.destroyed) return;
  draining.add(req);
  let seen = 0;
  req.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > DRAIN_LIMIT) req.destroy();
  });
  req.on('error', () => undefined);
  req.resume();
  lingerUntilRead(req);
}

/**
 * Node closes a `Connection: close` connection with socket.destroySoon() once the answer is
 * written. For this request it only ends the sending side then, and destroys the socket when the
 * body has been read (or the request is torn down).
 */
function lingerUntilRead(req: IncomingMessage): void {
  const socket = req.socket as IncomingMessage['socket'] & { destroySoon?: () => void };
  const original = socket.destroySoon;
  if (typeof original !== 'function') return;
  const lingering = () => {
    socket.destroySoon = original;
    if (req.complete || socket.destroyed) return original.call(socket);
    socket.end();
    const done = () => socket.destroy();
    req.once('end', done);
    req.once('close', done);
  };
  socket.destroySoon = lingering;
  // Once the body is in, the socket goes back to Node's own handling (a kept-alive socket serves the next request).
  req.once('end', () => {
    if (socket.destroySoon === lingering) socket.destroySoon = original;
  });
}

/**
 * Mounted first in the app: when an answer is about to go out while the request's body has not
 * been touched, the body is drained as above. Bodies being read (busboy, the JSON parser) are
 * left to their reader, which drains them itself on a refusal (src/http/multipart.ts).
 */
export const drainUnreadBodies: RequestHandler = (req, res, next) => {
  if (hasBody(req)) {
    res.once('prefinish', () => {
      if (req.readableFlowing === null && !req.complete) discardUnreadBody(req);
    });
  }
  next();
};
