/**
 * What an uploaded file is, judged from its bytes with the `file-type` package (DESIGN.md §3
 * "Form files"): the detected type's extension must be one the field allows; a file whose type
 * cannot be detected passes only with a text extension (txt, csv, md) and only when it is valid
 * UTF-8 without NUL bytes. Executables are refused whatever the field allows, and so is active
 * content (issue 28): macro-enabled Office files (the type file-type reads from
 * [Content_Types].xml, or a ZIP holding a VBA project or Excel 4 macro sheets) and XML a browser
 * runs as a page (SVG or XHTML by its root or namespaces, a stylesheet, entity declarations), and
 * files named with those types' extensions whatever their bytes. The client's name and
 * Content-Type are never trusted otherwise.
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

const TEXT_TYPES: Record<string, string> = {
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
};

/** file-type's extension -> the extensions a field may list for it. */
const SAME_TYPE: Record<string, string[]> = {
  jpg: ['jpg', 'jpeg', 'jpe'],
  tif: ['tif', 'tiff'],
  // An OLE2 compound file: Word, Excel and PowerPoint 97-2003.
  cfb: ['doc', 'xls', 'ppt'],
};

const EXECUTABLE = new Set([
  'exe',
  'elf',
  'macho',
  'msi',
  'apk',
  'dex',
  'class',
  'jar',
  'wasm',
  'deb',
  'rpm',
  'cab',
  'swf',
  'lnk',
  'crx',
  'xpi',
  'dmg',
  'reg',
  'chm',
]);

/** Macro-enabled Office types (documents, templates, add-ins, slide shows). */
const MACRO_OFFICE = ['docm', 'dotm', 'xlsm', 'xltm', 'xlam', 'pptm', 'potm', 'ppsm', 'ppam', 'sldm'];
/** Names refused whatever the bytes: macro-enabled Office files and the types a browser runs as a page. */
const ACTIVE_NAME = new Set([...MACRO_OFFICE, 'svg', 'svgz', 'xhtml', 'xht', 'htm', 'html', 'mht', 'mhtml', 'xsl', 'xslt']);
/** Parts of a ZIP (OOXML) package that hold macros: a VBA project, its data, Excel 4 macro sheets. */
const MACRO_PARTS = ['vbaproject.bin', 'vbadata.xml', 'macrosheets/'];
/** In XML: the namespaces a browser renders as a page (and runs the scripts of), and what makes XML a page or hides those names. */
const ACTIVE_XML = [/http:\/\/www\.w3\.org\/1999\/xhtml/i, /http:\/\/www\.w3\.org\/2000\/svg/i, /<\?xml-stylesheet/i, /<!ENTITY/i];

/**
 * Whether the stream's bytes contain one of `needles` (lower-case ASCII), in any case, read to
 * the end. ZIP entry names are stored uncompressed, so a part's name is found this way.
 */
async function containsAscii(stream: Readable, needles: string[]): Promise<boolean> {
  const keep = Math.max(...needles.map((n) => n.length)) - 1;
  let tail = '';
  try {
    for await (const chunk of stream) {
      const text = tail + (chunk as Buffer).toString('latin1').toLowerCase();
      if (needles.some((n) => text.includes(n))) return true;
      tail = text.slice(-keep);
    }
    return false;
  } finally {
    stream.destroy();
  }
}

/** The whole stream as text: UTF-16 by its byte order mark, else UTF-8; null when it does not decode. */
async function readText(stream: Readable): Promise<string | null> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of stream) chunks.push(chunk as Buffer);
  } finally {
    stream.destroy();
  }
  let bytes = Buffer.concat(chunks);
  let encoding: 'utf-8' | 'utf-16le' = 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) encoding = 'utf-16le';
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) [bytes, encoding] = [Buffer.from(bytes).swap16(), 'utf-16le'];
  if (encoding === 'utf-16le' && bytes.length % 2) return null;
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/**
 * Whether XML would run as a page when the saved file is opened: its root element is svg or html,
 * or it names the XHTML or SVG namespace anywhere (an element of either runs inside any XML), asks
 * for a stylesheet, or declares entities (which could spell those names). Character references
 * are read first, so `&#x68;tml` is no way around it.
 */
function isActiveXml(text: string): boolean {
  const plain = text.replace(/&#(x[0-9a-f]+|\d+);?/gi, (_, n: string) => {
    const code = n[0].toLowerCase() === 'x' ? Number.parseInt(n.slice(1), 16) : Number(n);
    return code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
  if (ACTIVE_XML.some((re) => re.test(plain))) return true;
  // The root: the first element after the declaration, comments, processing instructions and doctype.
  const root = /^(?:\s|<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(?:\[[\s\S]*?\])?\s*>)*<([^\s/>]+)/i.exec(
    plain.replace(/^\ufeff/, ''),
  );
  const name = root?.[1].toLowerCase().split(':').pop() ?? '';
  return name === 'svg' || name === 'html';
}

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
 * stored bytes (three times at most: the head for detection, the whole file for a text check, a
 * ZIP's part names or XML's root and namespaces).
 */
export async function judgeUpload(clientName: string, allowed: string[], read: () => Promise<Readable>): Promise<UploadType | null> {
  if (ACTIVE_NAME.has(fileExtension(clientName))) return null;
  const allow = new Set(allowed.map(normaliseExtension).filter(Boolean));
  const head = await read();
  let detected: { ext: string; mime: string } | undefined;
  try {
    detected = await fileTypeFromStream(head);
  } finally {
    head.destroy();
  }
  if (detected) {
    if (EXECUTABLE.has(detected.ext) || MACRO_OFFICE.includes(detected.ext)) return null;
    if ((detected.ext === 'zip' || detected.mime.includes('openxmlformats')) && (await containsAscii(await read(), MACRO_PARTS)))
      return null;
    if (detected.ext === 'xml') {
      const text = await readText(await read());
      if (text === null || isActiveXml(text)) return null;
    }
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
