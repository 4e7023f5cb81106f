/**
 * The parser worker's entry (a worker thread of `DocumentParsers`, built to dist/document-worker.js):
 * every parse of an untrusted document runs here, never on the server's main thread.
 */
import type { MessagePort } from 'node:worker_threads';
import { wordText, type DocumentText, type WordKind } from './word-text.js';

export interface ParseTask {
  kind: WordKind;
  bytes: Uint8Array;
  /** Told when the parse starts, so the deadline counts parsing, not waiting for a worker. */
  started: MessagePort;
}

export default function parse({ kind, bytes, started }: ParseTask): Promise<DocumentText | null> {
  started.postMessage('started');
  started.close();
  return wordText(kind, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}
