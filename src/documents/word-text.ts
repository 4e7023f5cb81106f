/**
 * The text of a Word document (DOCX or Word 97-2003 DOC), read with well-kept libraries: mammoth
 * for DOCX (its raw text, no HTML, so nothing of the file is ever rendered as markup) and
 * word-extractor for DOC. Runs only inside a parser child (`worker.ts`): the bytes are an
 * applicant's, and a parser may loop or grow without end on a crafted file.
 *
 * A DOCX is a ZIP, and its declared sizes may lie: before mammoth inflates anything, every entry
 * is inflated once through yauzl, which stops as soon as an entry outgrows its declared size, the
 * whole passes MAX_UNCOMPRESSED, or its XML parts hold more than MAX_XML_ELEMENTS tags (a few KB
 * of deflated empty paragraphs are millions of elements: bytes alone do not bound the work).
 */
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import mammoth from 'mammoth';
import WordExtractor from 'word-extractor';

export type WordKind = 'doc' | 'docx';

export interface DocumentText {
  text: string;
  /** True when the text was cut at MAX_CHARS. */
  truncated: boolean;
}

/** Characters of text returned; the rest is left for the download. */
const MAX_CHARS = 100_000;
/** What all entries of a DOCX may inflate to together. */
const MAX_UNCOMPRESSED = 32 * 1024 * 1024;
const MAX_ZIP_ENTRIES = 10_000;
/** Tags in a DOCX's XML parts: a resume of 30 full pages has fewer. */
const MAX_XML_ELEMENTS = 100_000;
const LESS_THAN = 0x3c;

/** The text of `bytes`, or null when the file cannot be read as its kind (corrupt, a zip bomb, too large a tree, not Word). */
export async function wordText(kind: WordKind, bytes: Buffer): Promise<DocumentText | null> {
  try {
    let text: string;
    if (kind === 'docx') {
      if (!(await withinLimits(bytes))) return null;
      text = (await mammoth.extractRawText({ buffer: bytes })).value;
    } else {
      text = (await new WordExtractor().extract(bytes)).getBody();
    }
    // Paragraphs end with blank lines in mammoth's output; three or more newlines read as one gap.
    const tidy = text
      .replace(/\r\n?/g, '\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
    const chars = [...tidy];
    return chars.length > MAX_CHARS ? { text: chars.slice(0, MAX_CHARS).join(''), truncated: true } : { text: tidy, truncated: false };
  } catch {
    return null;
  }
}

/**
 * True when every entry of the ZIP inflates to its declared size, all of them to at most
 * MAX_UNCOMPRESSED bytes, and its XML parts hold at most MAX_XML_ELEMENTS tags.
 */
function withinLimits(bytes: Buffer): Promise<boolean> {
  return new Promise((resolve) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false }, (err, zip) => {
      if (err || !zip) return resolve(false);
      if (zip.entryCount > MAX_ZIP_ENTRIES) return resolve(false);
      let total = 0;
      let elements = 0;
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
        if (total > MAX_UNCOMPRESSED) return done(false);
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        const isXml = /\.(xml|rels)$/i.test(entry.fileName);
        zip.openReadStream(entry, (openErr, stream) => {
          if (openErr || !stream) return done(false);
          const countTags = (chunk: Buffer) => {
            if (!isXml) return;
            for (let i = chunk.indexOf(LESS_THAN); i !== -1; i = chunk.indexOf(LESS_THAN, i + 1)) elements++;
            if (elements > MAX_XML_ELEMENTS) {
              stream.destroy();
              done(false);
            }
          };
          drain(stream, countTags).then(
            () => !settled && zip.readEntry(),
            () => done(false),
          );
        });
      });
      zip.readEntry();
    });
  });
}

/** Reads a stream to its end, handing each chunk to `look` and keeping nothing (yauzl's size checks run as it flows). */
function drain(stream: Readable, look: (chunk: Buffer) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.on('data', look);
    stream.on('end', resolve);
    stream.on('error', reject);
    stream.on('close', resolve);
  });
}
