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
import { PDFDocument as LibDocument, StandardFonts, rgb } from 'pdf-lib';

/** A run of text inside a block, with its marks. */
interface Run {
  text: string;
  bold: boolean;
  italic: boolean;
  underline: boolean;
  link: string | null;
}

/** A paragraph or a list item (with its marker). */
interface Block {
  marker: string | null;
  depth: number;
  runs: Run[];
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
  const open = (marker: string | null) => {
    current = { marker, depth: lists.length, runs: [] };
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
    } else if (tag === 'br') add('\n');
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
  return blocks.filter((b) => b.runs.some((r) => r.text.trim()));
}

/** The letter's text as the offer page shows it beside the PDF: one string per block. */
export function letterText(html: string): string[] {
  return blocksOf(html).map((b) => (b.marker ? `${b.marker} ` : '') + b.runs.map((r) => r.text).join(''));
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

const FONT = (r: Pick<Run, 'bold' | 'italic'>) =>
  r.bold && r.italic ? 'Helvetica-BoldOblique' : r.bold ? 'Helvetica-Bold' : r.italic ? 'Helvetica-Oblique' : 'Helvetica';

/** The letter's PDF bytes. */
export function renderLetterPdf(f: LetterFacts): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'A4',
      margins: { top: 64, bottom: 64, left: 64, right: 64 },
      info: { Title: latin1(`${f.heading}: ${f.subtitle}`), Author: latin1(f.company), Creator: 'Careers' },
      bufferPages: true,
    });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.font('Helvetica-Bold').fontSize(18).fillColor('#111111').text(latin1(f.company));
    doc.moveDown(0.3).font('Helvetica').fontSize(13).fillColor('#333333').text(latin1(f.heading));
    doc.fontSize(10).fillColor('#555555').text(latin1(f.subtitle));
    doc.moveDown(1.2).fillColor('#111111').fontSize(11);
    const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
    for (const block of blocksOf(f.letter)) {
      const indent = block.marker ? 16 * Math.max(1, block.depth) : 0;
      const x = doc.page.margins.left + indent;
      if (block.marker) doc.font('Helvetica').text(latin1(block.marker), x - 12, doc.y, { continued: false, lineBreak: false });
      const y = doc.y;
      block.runs.forEach((run, i) => {
        const last = i === block.runs.length - 1;
        doc.font(FONT(run)).fillColor(run.link ? '#1a4fa0' : '#111111');
        const options: PDFKit.Mixins.TextOptions = { continued: !last, underline: run.underline || !!run.link, width: width - indent };
        if (run.link) options.link = run.link;
        if (i === 0) doc.text(latin1(run.text), x, y, options);
        else doc.text(latin1(run.text), options);
      });
      doc.fillColor('#111111').moveDown(block.marker ? 0.25 : 0.7);
    }
    doc.moveDown(0.8).font('Helvetica-Bold').fontSize(12).text('Summary of terms', doc.page.margins.left);
    doc.moveDown(0.3).fontSize(10);
    for (const [label, value] of f.terms) {
      if (!value) continue;
      doc.font('Helvetica-Bold').text(`${latin1(label)}: `, doc.page.margins.left, doc.y, { continued: true, width });
      doc.font('Helvetica').text(latin1(value));
    }
    const range = doc.bufferedPageRange();
    for (let i = range.start; i < range.start + range.count; i++) {
      doc.switchToPage(i);
      const bottom = doc.page.margins.bottom;
      doc.page.margins.bottom = 0;
      doc
        .font('Helvetica')
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

/** `shown` (the PDF the candidate was shown) with a signature page appended. */
export async function appendSignaturePage(shown: Buffer, s: SignatureFacts): Promise<Buffer> {
  const doc = await LibDocument.load(shown, { updateMetadata: false });
  const page = doc.addPage([595.28, 841.89]);
  const [regular, bold] = await Promise.all([doc.embedFont(StandardFonts.Helvetica), doc.embedFont(StandardFonts.HelveticaBold)]);
  let y = 841.89 - 72;
  const line = (label: string, value: string, size = 11) => {
    page.drawText(latin1(label), { x: 64, y, size, font: bold, color: rgb(0.1, 0.1, 0.1) });
    // Long values (the hashes) wrap at 64 characters.
    const parts = latin1(value).match(/.{1,64}/g) ?? [''];
    for (const part of parts) {
      page.drawText(part, { x: 220, y, size, font: regular, color: rgb(0.1, 0.1, 0.1) });
      y -= size + 6;
    }
    y -= 6;
  };
  page.drawText(latin1(s.company), { x: 64, y, size: 18, font: bold });
  y -= 30;
  page.drawText('Electronic signature', { x: 64, y, size: 14, font: bold });
  y -= 22;
  page.drawText(latin1(`The candidate accepted ${s.offerLabel} by typing their full name on the offer page.`), {
    x: 64,
    y,
    size: 10,
    font: regular,
    maxWidth: 467,
  });
  y -= 34;
  line('Signed by', s.signedName);
  line(
    'Signed at (UTC)',
    s.signedAt
      .toISOString()
      .replace('T', ' ')
      .replace(/\.\d+Z$/, ' UTC'),
  );
  line('Client address hash', s.addressHash ?? 'not recorded');
  line('SHA-256 of the offer shown', s.pdfSha256);
  y -= 10;
  page.drawText('The SHA-256 is of the offer PDF as shown to the candidate (the pages before this one).', {
    x: 64,
    y,
    size: 9,
    font: regular,
    color: rgb(0.35, 0.35, 0.35),
    maxWidth: 467,
  });
  return Buffer.from(await doc.save());
}
