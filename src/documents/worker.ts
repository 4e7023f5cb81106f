/**
 * The parser process's entry (a child of `DocumentParsers`, built to dist/document-worker.js):
 * every parse of an untrusted document runs here, never in the server.
 */
import { serveParsers } from './pool.js';
import { wordText, type WordKind } from './word-text.js';

serveParsers({
  wordText: (kind: WordKind, bytes: Uint8Array) => wordText(kind, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)),
});
