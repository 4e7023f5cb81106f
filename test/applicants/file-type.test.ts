/** Resume type detection from bytes, the ZIP check through yauzl, and stored file names. */
import { Readable } from 'node:stream';
import { expect } from 'chai';
import { DOCX_MAIN_PART, TailReader, sliceStream, sniffHead, zipHasEntry } from '../../src/applicants/lib/file-type.js';
import { safeFileName } from '../../src/http/multipart.js';
import { docBytes, docxBytes, exeBytes, pdfBytes, plainZipBytes, zipBytes } from '../fixtures/resumes.js';

/** A stream of `data` in uneven chunks, as storage would hand it back. */
function chunked(data: Buffer, size = 977): Readable {
  const parts: Buffer[] = [];
  for (let i = 0; i < data.length; i += size) parts.push(data.subarray(i, i + size));
  return Readable.from(parts);
}

async function collect(stream: Readable): Promise<Buffer> {
  const out: Buffer[] = [];
  for await (const c of stream) out.push(c as Buffer);
  return Buffer.concat(out);
}

function isDocx(data: Buffer, tailBytes: number, opened?: { count: number }): Promise<boolean> {
  const reader = new TailReader(data.length, data.subarray(Math.max(0, data.length - tailBytes)), () => {
    if (opened) opened.count += 1;
    return chunked(data);
  });
  return zipHasEntry(reader, data.length, DOCX_MAIN_PART);
}

describe('resume type sniffing', () => {
  it('knows PDF, OLE2 (DOC) and ZIP by their first bytes', () => {
    expect(sniffHead(pdfBytes().subarray(0, 8))).to.equal('pdf');
    expect(sniffHead(Buffer.from('%PDF-'))).to.equal('pdf');
    expect(sniffHead(docBytes().subarray(0, 8))).to.equal('doc');
    expect(sniffHead(docxBytes().subarray(0, 8))).to.equal('zip');
  });

  it('refuses everything else, whatever the file would be called', () => {
    for (const head of [
      exeBytes().subarray(0, 8), // renamed .exe
      Buffer.alloc(0), // empty file
      Buffer.from('%PDF'), // too short to be sure
      Buffer.from('Hello, I am a text file'),
      Buffer.from('\ufeff%PDF-1.7', 'utf8'), // BOM in front
      Buffer.from(' %PDF-1.7'),
      Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe0]), // one byte off OLE2
      Buffer.from([0x50, 0x4b, 0x05, 0x06, 0, 0, 0, 0]), // empty ZIP (no local header)
      Buffer.from('<html><script>alert(1)</script>'),
      Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), // ELF
    ]) {
      expect(sniffHead(head), head.toString('latin1')).to.equal(null);
    }
  });
});

describe('DOCX check (ZIP holding word/document.xml, via yauzl)', () => {
  it('accepts a DOCX from the kept tail alone, without reading the file back', async () => {
    const opened = { count: 0 };
    expect(await isDocx(docxBytes(), 256 * 1024, opened)).to.equal(true);
    expect(opened.count).to.equal(0);
  });

  it('reads the file back from storage when the central directory lies outside the kept tail', async () => {
    const opened = { count: 0 };
    expect(await isDocx(docxBytes(50_000), 100, opened)).to.equal(true);
    expect(opened.count).to.be.greaterThan(0);
  });

  it('refuses a ZIP without word/document.xml, a near miss, a truncated and a garbled ZIP', async () => {
    expect(await isDocx(plainZipBytes(), 1 << 20)).to.equal(false);
    expect(await isDocx(zipBytes({ 'word/document.xml.bak': 'x', 'Word/Document.xml': 'y' }), 1 << 20)).to.equal(false);
    const full = docxBytes();
    expect(await isDocx(full.subarray(0, full.length - 10), 1 << 20)).to.equal(false);
    const garbled = Buffer.from(full);
    garbled.fill(0x20, garbled.length - 40, garbled.length - 10);
    expect(await isDocx(garbled, 1 << 20)).to.equal(false);
    expect(await isDocx(Buffer.from('PK\x03\x04 not really a zip'), 1 << 20)).to.equal(false);
  });

  it('refuses an archive with absurdly many entries without walking them', async () => {
    const entries: Record<string, string> = {};
    for (let i = 0; i < 10_001; i++) entries[`f${i}`] = '';
    entries[DOCX_MAIN_PART] = '<w:document/>';
    expect(await isDocx(zipBytes(entries), 4 << 20)).to.equal(false);
  });

  it('sliceStream returns exactly the asked range across chunk borders', async () => {
    const data = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
    for (const [start, end] of [
      [0, 10],
      [970, 990],
      [976, 978],
      [4990, 5000],
      [0, 5000],
      [1000, 1000 + 977 * 2],
    ]) {
      expect((await collect(sliceStream(chunked(data), start, end))).equals(data.subarray(start, end)), `${start}-${end}`).to.equal(true);
    }
  });
});

describe('stored file names (metadata only)', () => {
  const cases: [string, string][] = [
    ['cv.pdf', 'cv.pdf'],
    ['Résumé – Ana María.docx', 'Résumé – Ana María.docx'],
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\me\\cv.doc', 'cv.doc'],
    ['cv\u0000.pdf', 'cv.pdf'],
    ['cv\r\n.pdf', 'cv.pdf'],
    ['invoice\u202Efdp.exe', 'invoicefdp.exe'],
    ['.htaccess', 'htaccess'],
    ['..', 'resume'],
    ['   ', 'resume'],
    ['', 'resume'],
  ];
  for (const [input, expected] of cases) {
    it(JSON.stringify(input), () => expect(safeFileName(input, 'resume')).to.equal(expected));
  }

  it('caps the length at 200 characters and keeps the extension, without splitting an emoji', () => {
    expect(safeFileName(`${'a'.repeat(300)}.docx`)).to.equal(`${'a'.repeat(195)}.docx`);
    const emoji = safeFileName(`${'😀'.repeat(250)}.pdf`);
    expect(Array.from(emoji)).to.have.length(200);
    expect(emoji.endsWith('😀.pdf')).to.equal(true);
    expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(emoji), 'lone surrogate').to.equal(false);
  });
});
