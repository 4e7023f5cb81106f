/**
 * The parser process's entry (a child of `DocumentParsers`, built to dist/document-worker.js):
 * every parse of an untrusted document or image runs here, never in the server.
 */
import { logoImage } from './logo-image.js';
import { serveParsers } from './pool.js';
import { wordText, type WordKind } from './word-text.js';

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

serveParsers({
  wordText: (kind: WordKind, bytes: Uint8Array) => wordText(kind, asBuffer(bytes)),
  logoImage: (bytes: Uint8Array) => logoImage(asBuffer(bytes)),
});
