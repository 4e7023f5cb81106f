/**
 * What an uploaded file is, judged from its bytes with the `file-type` package (DESIGN.md §3
 * "Form files"): the detected type's extension must be one the field allows; a file whose type
 * cannot be detected passes only with a text extension (txt, csv, md) and only when it is valid
 * UTF-8 without NUL bytes. Executables are refused whatever the field allows. The client's name
 * and Content-Type are never trusted.
 */
import type { Readable } from 'node:stream';
import { fileTypeFromStream } from 'file-type';
import { fileExtension, normaliseExtension } from '../shared/download-name.js';

export interface UploadType {
  /** The extension the file is saved and downloaded with. */
  ext: string;
  /** The Content-Type it is served with. */
  mime: string;
}

const TEXT_TYPES: Record<string, string> = { txt: 'text/plain; charset=utf-8', csv: 'text/csv; charset=utf-8', md: 'text/markdown; charset=utf-8' };

/** file-type's extension -> the extensions a field may list for it. */
const SAME_TYPE: Record<string, string[]> = {
  jpg: ['jpg', 'jpeg', 'jpe'],
  tif: ['tif', 'tiff'],
  // An OLE2 compound file: Word, Excel and PowerPoint 97-2003.
  cfb: ['doc', 'xls', 'ppt'],
};

const EXECUTABLE = new Set(['exe', 'elf', 'macho', 'msi', 'apk', 'dex', 'class', 'jar', 'wasm', 'deb', 'rpm', 'cab', 'swf', 'lnk', 'crx', 'xpi', 'dmg', 'reg', 'chm']);

/** Whether the stream is valid UTF-8 with no NUL byte (read to its end). */
async function isUtf8Text(stream: Readable): Promise<boolean> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of stream) {
      if ((chunk as Buffer).includes(0)) return false;
      decoder.decode(chunk as Buffer, { stream: true });
    }
    decoder.decode();
    return true;
  } catch {
    return false;
  } finally {
    stream.destroy();
  }
}

/**
 * The file's type when the field takes it, else null. `allowed`: the field's extensions (any
 * spelling, see normaliseExtension); empty means any type but executables. `read` opens the
 * stored bytes (read twice at most: the head for detection, the whole file for a text check).
 */
export async function judgeUpload(clientName: string, allowed: string[], read: () => Promise<Readable>): Promise<UploadType | null> {
  const allow = new Set(allowed.map(normaliseExtension).filter(Boolean));
  const head = await read();
  let detected: { ext: string; mime: string } | undefined;
  try {
    detected = await fileTypeFromStream(head);
  } finally {
    head.destroy();
  }
  if (detected) {
    if (EXECUTABLE.has(detected.ext)) return null;
    const names = SAME_TYPE[detected.ext] ?? [detected.ext];
    if (allow.size && !names.some((n) => allow.has(n))) return null;
    // The name sent keeps its extension only when it is a spelling of the detected type (jpeg, xls).
    const ext = names.includes(fileExtension(clientName)) ? fileExtension(clientName) : names[0];
    return { ext, mime: detected.mime };
  }
  const ext = fileExtension(clientName);
  if (!Object.hasOwn(TEXT_TYPES, ext) || (allow.size && !allow.has(ext))) return null;
  return (await isUtf8Text(await read())) ? { ext, mime: TEXT_TYPES[ext] } : null;
}
