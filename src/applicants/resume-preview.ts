/**
 * The text of a DOC or DOCX resume, for HR to read beside the answers without downloading it
 * (issue 20, fast review). Extracted from the stored file with well-kept libraries: mammoth for
 * DOCX (its raw text, no HTML, so nothing of the file is ever rendered as markup) and
 * word-extractor for Word 97-2003 DOC. PDFs are not here: the page shows them in the browser's
 * own viewer from the bytes of the download.
 *
 * A DOCX is a ZIP, and its declared sizes may lie: before mammoth inflates anything, every entry
 * is inflated once through yauzl, which stops as soon as an entry outgrows its declared size or the
 * whole passes PREVIEW_MAX_UNCOMPRESSED, so a zip bomb costs at most that much work and memory.
 */
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import mammoth from 'mammoth';
import WordExtractor from 'word-extractor';
import { RESUME_CONTENT_TYPES, type ResumeKind } from './file-type.js';

/** Characters of text returned; the rest is left for the download. */
const PREVIEW_MAX_CHARS = 100_000;
/** What all entries of a DOCX may inflate to together. */
const PREVIEW_MAX_UNCOMPRESSED = 32 * 1024 * 1024;
const MAX_ZIP_ENTRIES = 10_000;

export interface ResumePreview {
  text: string;
  /** True when the text was cut at PREVIEW_MAX_CHARS. */
  truncated: boolean;
}

/** The kinds with a text preview. */
export function previewKind(contentType: string): Extract<ResumeKind, 'doc' | 'docx'> | null {
  if (contentType === RESUME_CONTENT_TYPES.docx) return 'docx';
  if (contentType === RESUME_CONTENT_TYPES.doc) return 'doc';
  return null;
}

/** The text of `bytes`, or null when the file cannot be read as its kind (corrupt, a zip bomb, not Word). */
export async function extractResumeText(kind: 'doc' | 'docx', bytes: Buffer): Promise<ResumePreview | null> {
  try {
    let text: string;
    if (kind === 'docx') {
      if (!(await inflatesWithin(bytes, PREVIEW_MAX_UNCOMPRESSED))) return null;
      text = (await mammoth.extractRawText({ buffer: bytes })).value;
    } else {
      text = (await new WordExtractor().extract(bytes)).getBody();
    }
    // Paragraphs end with blank lines in mammoth's output; three or more newlines read as one gap.
    const tidy = text.replace(/\r\n?/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
    const chars = [...tidy];
    return chars.length > PREVIEW_MAX_CHARS ? { text: chars.slice(0, PREVIEW_MAX_CHARS).join(''), truncated: true } : { text: tidy, truncated: false };
  } catch {
    return null;
  }
}

/** True when every entry of the ZIP inflates to its declared size and all of them to at most `limit` bytes. */
function inflatesWithin(bytes: Buffer, limit: number): Promise<boolean> {
  return new Promise((resolve) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false }, (err, zip) => {
      if (err || !zip) return resolve(false);
      if (zip.entryCount > MAX_ZIP_ENTRIES) return resolve(false);
      let total = 0;
      let settled = false;
      const done = (ok: boolean) => {
        if (settled) return;
        settled = true;
        zip.close();
        resolve(ok);
      };
      zip.on('error', () => done(false));
      zip.on('end', () => done(true));
      zip.on('entry', (entry: yauzl.Entry) => {
        total += entry.uncompressedSize;
        if (total > limit) return done(false);
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        zip.openReadStream(entry, (openErr, stream) => {
          if (openErr || !stream) return done(false);
          drain(stream).then(() => zip.readEntry(), () => done(false));
        });
      });
      zip.readEntry();
    });
  });
}

/** Reads a stream to its end, keeping nothing (yauzl's size checks run as it flows). */
function drain(stream: Readable): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.on('data', () => undefined);
    stream.on('end', resolve);
    stream.on('error', reject);
  });
}
