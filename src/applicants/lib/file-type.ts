/**
 * Resume type detection from the file's bytes, never from its name or the client's header:
 * PDF starts with "%PDF-", a Word 97-2003 DOC is an OLE2 compound file (D0 CF 11 E0 A1 B1 1A E1),
 * a DOCX is a ZIP (PK 03 04) that holds `word/document.xml`. The ZIP check lists the archive's
 * central directory with yauzl (nothing is decompressed, so a zip bomb costs nothing).
 */
import { PassThrough, Readable } from 'node:stream';
import yauzl from 'yauzl';
import { downloadName } from '../../shared/download-name.js';

export type ResumeKind = 'pdf' | 'doc' | 'docx';
/** What the first bytes say; 'zip' still needs the archive check to count as a DOCX. */
export type HeadKind = 'pdf' | 'doc' | 'zip';

/** Bytes needed to decide the head kind. */
export const SNIFF_BYTES = 8;

export const RESUME_CONTENT_TYPES: Record<ResumeKind, string> = {
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

/** The extension of a stored resume's detected type ('bin' for a type no upload can have). */
function resumeExtension(contentType: string): string {
  return (Object.keys(RESUME_CONTENT_TYPES) as ResumeKind[]).find((k) => RESUME_CONTENT_TYPES[k] === contentType) ?? 'bin';
}

/** The name HR saves a resume under: the person and the job, with the detected type's extension. */
export function resumeDownloadName(r: { first_name: string; last_name: string; job_title: string; content_type: string }): string {
  return downloadName([r.first_name, r.last_name, r.job_title], resumeExtension(r.content_type), 'resume');
}

const PDF = Buffer.from('%PDF-', 'latin1');
const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const ZIP_LOCAL_HEADER = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

function startsWith(head: Uint8Array, magic: Buffer): boolean {
  if (head.length < magic.length) return false;
  for (let i = 0; i < magic.length; i++) if (head[i] !== magic[i]) return false;
  return true;
}

/** The kind the first bytes announce, or null for anything else (including an empty file). */
export function sniffHead(head: Uint8Array): HeadKind | null {
  if (startsWith(head, PDF)) return 'pdf';
  if (startsWith(head, OLE2)) return 'doc';
  if (startsWith(head, ZIP_LOCAL_HEADER)) return 'zip';
  return null;
}

export const DOCX_MAIN_PART = 'word/document.xml';
/** A real DOCX has a few dozen entries; more than this is not a resume. */
const MAX_ZIP_ENTRIES = 10_000;

/**
 * A yauzl reader over a stored file: ranges inside the kept tail of the upload are served from
 * memory (the central directory sits at the end, so that is the usual case), anything else is
 * read from storage.
 */
export class TailReader extends yauzl.RandomAccessReader {
  constructor(
    private readonly size: number,
    private readonly tail: Buffer,
    private readonly openStored: () => Readable,
  ) {
    super();
  }

  _readStreamForRange(start: number, end: number): Readable {
    const tailStart = this.size - this.tail.length;
    if (start >= tailStart) return Readable.from([this.tail.subarray(start - tailStart, end - tailStart)]);
    return sliceStream(this.openStored(), start, end);
  }
}

/** Bytes [start, end) of a stream; the source is destroyed once the range is passed. */
export function sliceStream(source: Readable, start: number, end: number): Readable {
  const out = new PassThrough();
  let pos = 0;
  source.on('data', (chunk: Buffer) => {
    const from = Math.max(start - pos, 0);
    const to = Math.min(end - pos, chunk.length);
    pos += chunk.length;
    if (to > from) out.write(chunk.subarray(from, to));
    if (pos >= end) {
      source.destroy();
      out.end();
    }
  });
  source.on('end', () => out.end());
  source.on('error', (err) => out.destroy(err));
  return out;
}

/** True when the ZIP readable through `reader` lists an entry named `name`; false when it is no valid ZIP. */
export function zipHasEntry(reader: yauzl.RandomAccessReader, size: number, name: string): Promise<boolean> {
  return new Promise((resolve) => {
    yauzl.fromRandomAccessReader(
      reader,
      size,
      { lazyEntries: true, autoClose: false, strictFileNames: false, validateEntrySizes: true },
      (err, zip) => {
        if (err || !zip) return resolve(false);
        let settled = false;
        const done = (found: boolean) => {
          if (settled) return;
          settled = true;
          zip.close();
          resolve(found);
        };
        if (zip.entryCount > MAX_ZIP_ENTRIES) return done(false);
        zip.on('entry', (entry: yauzl.Entry) => {
          if (entry.fileName === name) done(true);
          else zip.readEntry();
        });
        zip.on('end', () => done(false));
        zip.on('error', () => done(false));
        zip.readEntry();
      },
    );
  });
}
