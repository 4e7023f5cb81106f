/**
 * An offer letter as a PDF (issue 34), made on the server with pdfkit (no browser): the company's
 * name, the letter (sanitised rich text: paragraphs, lists, bold, italic, underline, links) and a
 * summary of the terms. The signature page is appended with pdf-lib to the exact PDF the candidate
 * was shown: pdf-lib writes the document out again (its pages as they were, plus one), so the signed
 * file's bytes differ; the PDF shown is kept as it was, and its SHA-256 is on the signature page.
 *
 * The standard PDF fonts (Helvetica) cover Latin-1 only: characters outside it are written as "?"
 * in the PDF (the offer page shows the letter's text as it is).
 */
import PDFDocument from 'pdfkit';
import { PDFDocument as LibDocument } from 'pdf-lib';

/** Font files for the PDFs (OFFER_PDF_FONT, OFFER_PDF_FONT_BOLD); none: the standard fonts (Latin-1 only). */
export interface PdfFonts {
  regular: string | null;
  bold: string | null;
}

/** A run of text inside a block, with its marks. */
interface Run {
  text: string;
  bold: boolean;
  italic: boolean;
  underline: boolean;
  link: string | null;
}

/** A paragraph or a list item (with its marker); `joined`: a line after a line break, no gap before it. */
interface Block {
  marker: string | null;
  depth: number;
  runs: Run[];
  joined: boolean;
  /** A line of a list item after a break: indented as the item. */
  inList: boolean;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', '#39': "'" };

function decode(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+\d*);/gi, (all, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : '';
    }
    return ENTITIES[e.toLowerCase()] ?? all;
  });
}

/** Latin-1 only (the standard fonts' characters); others become "?", controls go. */
export function latin1(s: string): string {
  return [...s]
    .map((ch) => {
      const c = ch.codePointAt(0)!;
      if (c === 10) return '\n';
      if (c < 32 || (c >= 0x7f && c < 0xa0)) return '';
      if (c === 0x2018 || c === 0x2019) return "'";
      if (c === 0x201c || c === 0x201d) return '"';
      if (c === 0x2013 || c === 0x2014) return '-';
      if (c === 0x2026) return '...';
      if (c === 0x20ac) return 'EUR';
      return c <= 0xff ? ch : '?';
    })
    .join('');
}

/** Sanitised rich text (src/shared/sanitize.ts: balanced allow-listed tags only) as blocks of runs. */
function blocksOf(html: string): Block[] {
  const blocks: Block[] = [];
  const lists: { ordered: boolean; n: number }[] = [];
  const marks = { b: 0, i: 0, u: 0 };
  let link: string | null = null;
  let current: Block | null = null;
  const open = (marker: string | null, joined = false) => {
    const prev: Block | null = current;
    current = { marker, depth: lists.length, runs: [], joined, inList: joined && !!prev && (prev.marker !== null || prev.inList) };
    blocks.push(current);
    return current;
  };
  const add = (t: string) => {
    if (!t) return;
    const block: Block = current ?? open(null);
    block.runs.push({ text: t, bold: marks.b > 0, italic: marks.i > 0, underline: marks.u > 0, link });
  };
  const TAG = /<(\/?)([a-z]+)([^>]*)>/g;
  let at = 0;
  for (const m of html.matchAll(TAG)) {
    add(decode(html.slice(at, m.index)).replace(/\s+/g, ' '));
    at = m.index! + m[0].length;
    const [, close, tag, attrs] = m;
    if (tag === 'p') {
      if (close) current = null;
      else open(null);
    } else if (tag === 'br') open(null, true);
    else if (tag === 'ul' || tag === 'ol') {
      if (close) lists.pop();
      else lists.push({ ordered: tag === 'ol', n: 0 });
      current = null;
    } else if (tag === 'li') {
      if (close) current = null;
      else {
        const list = lists.at(-1);
        if (list) list.n += 1;
        open(list?.ordered ? `${list.n}.` : '•');
      }
    } else if (tag === 'b' || tag === 'strong') marks.b += close ? -1 : 1;
    else if (tag === 'i' || tag === 'em') marks.i += close ? -1 : 1;
    else if (tag === 'u') marks.u += close ? -1 : 1;
    else if (tag === 'a') link = close ? null : decode(/href="([^"]*)"/.exec(attrs)?.[1] ?? '') || null;
  }
  add(decode(html.slice(at)).replace(/\s+/g, ' '));
  for (const b of blocks) {
    if (b.runs.length) b.runs[0].text = b.runs[0].text.replace(/^ +/, '');
    const last = b.runs.at(-1);
    if (last) last.text = last.text.replace(/ +$/, '');
  }
  // An empty line (two breaks in a row) keeps its place; empty paragraphs go.
  return blocks.filter((b) => b.joined || b.runs.some((r) => r.text.trim()));
}

/** The letter's text as the offer page shows it beside the PDF: one string per block. */
export function letterText(html: string): string[] {
  const out: string[] = [];
  for (const b of blocksOf(html)) {
    const line = (b.marker ? `${b.marker} ` : '') + b.runs.map((r) => r.text).join('');
    if (b.joined && out.length) out[out.length - 1] += `\n${line}`;
    else out.push(line);
  }
  return out;
}

export interface LetterFacts {
  company: string;
  heading: string;
  /** The line under the heading: the candidate and the job. */
  subtitle: string;
  letter: string;
  terms: [string, string][];
  footer: string;
}

interface FontSet {
  font: (r: Pick<Run, 'bold' | 'italic'>) => string;
  text: (s: string) => string;
}

/** The document's fonts: the files given, registered and embedded; else the standard fonts with text made Latin-1. */
function fontSet(doc: PDFKit.PDFDocument, fonts: PdfFonts | undefined): FontSet {
  if (!fonts?.regular) {
    return {
      font: (r) =>
        r.bold && r.italic ? 'Helvetica-BoldOblique' : r.bold ? 'Helvetica-Bold' : r.italic ? 'Helvetica-Oblique' : 'Helvetica',
      text: latin1,
    };
  }
  doc.registerFont('Body', fonts.regular);
  doc.registerFont('Body-Bold', fonts.bold ?? fonts.regular);
  return { font: (r) => (r.bold ? 'Body-Bold' : 'Body'), text: (s) => s.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, '') };
}

/** The letter's PDF bytes. */
export function renderLetterPdf(f: LetterFacts, fonts?: PdfFonts): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'A4',
      margins: { top: 64, bottom: 64, left: 64, right: 64 },
      info: { Title: `${f.heading}: ${f.subtitle}`, Author: f.company, Creator: 'Careers' },
      bufferPages: true,
    });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    const { font, text: latin1 } = fontSet(doc, fonts);
    const regular = font({ bold: false, italic: false });
    const bold = font({ bold: true, italic: false });
    doc.font(bold).fontSize(18).fillColor('#111111').text(latin1(f.company));
    doc.moveDown(0.3).font(regular).fontSize(13).fillColor('#333333').text(latin1(f.heading));
    doc.fontSize(10).fillColor('#555555').text(latin1(f.subtitle));
    doc.moveDown(1.2).fillColor('#111111').fontSize(11);
    const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
    const blocks = blocksOf(f.letter);
    blocks.forEach((block, i) => {
      const indent = block.marker || block.inList ? 16 * Math.max(1, block.depth) : 0;
      if (!block.runs.length) {
        doc.moveDown(1);
        return;
      }
      const x = doc.page.margins.left + indent;
      if (block.marker) doc.font(regular).text(latin1(block.marker), x - 12, doc.y, { continued: false, lineBreak: false });
      const y = doc.y;
      block.runs.forEach((run, i) => {
        const last = i === block.runs.length - 1;
        doc.font(font(run)).fillColor(run.link ? '#1a4fa0' : '#111111');
        const options: PDFKit.Mixins.TextOptions = { continued: !last, underline: run.underline || !!run.link, width: width - indent };
        if (run.link) options.link = run.link;
        if (i === 0) doc.text(latin1(run.text), x, y, options);
        else doc.text(latin1(run.text), options);
      });
      const next = blocks[i + 1];
      const listed = (b: Block | undefined) => !!b && (b.marker !== null || b.inList);
      doc.fillColor('#111111').moveDown(next?.joined ? 0 : listed(block) && listed(next) ? 0.25 : 0.7);
    });
    doc.moveDown(0.8).font(bold).fontSize(12).text('Summary of terms', doc.page.margins.left);
    doc.moveDown(0.3).fontSize(10);
    for (const [label, value] of f.terms) {
      if (!value) continue;
      doc.font(bold).text(`${latin1(label)}: `, doc.page.margins.left, doc.y, { continued: true, width });
      doc.font(regular).text(latin1(value));
    }
    const range = doc.bufferedPageRange();
    for (let i = range.start; i < range.start + range.count; i++) {
      doc.switchToPage(i);
      const bottom = doc.page.margins.bottom;
      doc.page.margins.bottom = 0;
      doc
        .font(regular)
        .fontSize(8)
        .fillColor('#666666')
        .text(`${latin1(f.footer)} - page ${i + 1} of ${range.count}`, doc.page.margins.left, doc.page.height - 40, {
          width,
          align: 'center',
          lineBreak: false,
        });
      doc.page.margins.bottom = bottom;
    }
    doc.end();
  });
}

export interface SignatureFacts {
  company: string;
  offerLabel: string;
  signedName: string;
  signedAt: Date;
  addressHash: string | null;
  pdfSha256: string;
}

/** The signature page alone, as a one-page PDF (pdfkit, so it has the letter's fonts). */
function signaturePage(sig: SignatureFacts, fonts?: PdfFonts): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margins: { top: 72, bottom: 64, left: 64, right: 64 } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    const { font, text } = fontSet(doc, fonts);
    const regular = font({ bold: false, italic: false });
    const bold = font({ bold: true, italic: false });
    const width = doc.page.width - 128;
    doc.font(bold).fontSize(18).fillColor('#111111').text(text(sig.company));
    doc.moveDown(0.6).fontSize(14).text('Electronic signature');
    doc
      .moveDown(0.4)
      .font(regular)
      .fontSize(10)
      .text(text(`The candidate accepted ${sig.offerLabel} by typing their full name on the offer page.`), { width });
    doc.moveDown(1);
    const line = (label: string, value: string) => {
      const y = doc.y;
      doc.font(bold).fontSize(11).text(label, 64, y, { width: 150 });
      doc
        .font(regular)
        .fontSize(11)
        .text(text(value), 220, y, { width: width - 156 });
      doc.moveDown(0.6);
      doc.x = 64;
    };
    line('Signed by', sig.signedName);
    line(
      'Signed at (UTC)',
      sig.signedAt
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, ' UTC'),
    );
    line('Client address hash', sig.addressHash ?? 'not recorded');
    line('SHA-256 of the offer shown', sig.pdfSha256);
    doc
      .moveDown(0.6)
      .font(regular)
      .fontSize(9)
      .fillColor('#555555')
      .text('The SHA-256 is of the offer PDF as shown to the candidate (the pages before this one).', 64, doc.y, { width });
    doc.end();
  });
}

/** `shown` (the PDF the candidate was shown) with a signature page appended. */
export async function appendSignaturePage(shown: Buffer, sig: SignatureFacts, fonts?: PdfFonts): Promise<Buffer> {
  const [doc, page] = await Promise.all([
    LibDocument.load(shown, { updateMetadata: false }),
    signaturePage(sig, fonts).then((b) => LibDocument.load(b)),
  ]);
  const [copied] = await doc.copyPages(page, [0]);
  doc.addPage(copied);
  // Without object streams: the signed file's dictionaries stay readable, as pdfkit writes them.
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}
