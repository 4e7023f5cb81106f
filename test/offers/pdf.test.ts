/**
 * The offer letter's PDF and text (src/offers/lib/pdf.ts): the sanitised letter's blocks as the
 * offer page shows them (paragraphs, list items with their markers, line breaks, entities), the
 * PDF's pages, Latin-1 with the standard fonts, and the signature page appended to the PDF shown.
 */
import { expect } from 'chai';
import { PDFDocument } from 'pdf-lib';
import { appendSignaturePage, latin1, letterText, renderLetterPdf } from '../../src/offers/lib/pdf.js';

const facts = (letter: string) => ({
  company: 'Acme',
  heading: 'Offer of employment',
  subtitle: 'Ann Lee, Backend Engineer',
  letter,
  terms: [
    ['Base pay', '70,000 EUR per year'],
    ['Bonus', ''],
  ] as [string, string][],
  footer: 'Acme - offer 1, version 1',
});

describe('offer letter PDF and text', () => {
  it('reads the letter as the page shows it: paragraphs, numbered and bulleted items, breaks, entities', () => {
    expect(
      letterText(
        '<p>Dear <strong>Ann</strong> &amp; co,</p><ol><li>one</li><li>two<br>more</li></ol><ul><li><a href="https://x.example" target="_blank">link</a></li></ul><p>Yours<br>dana<br><br>Acme</p><p> </p>',
      ),
    ).to.deep.equal(['Dear Ann & co,', '1. one', '2. two\nmore', '• link', 'Yours\ndana\n\nAcme']);
    expect(letterText('')).to.deep.equal([]);
  });

  it('writes Latin-1 with the standard fonts, other characters as "?"', () => {
    expect(latin1('Zoë Łukasiewicz “quoted” – 10 € 李')).to.equal('Zoë ?ukasiewicz "quoted" - 10 EUR ?');
  });

  it('renders more pages for a longer letter, and appends exactly one signature page to the PDF shown', async () => {
    const short = await renderLetterPdf(facts('<p>Short.</p>'));
    const long = await renderLetterPdf(facts('<p>A long paragraph of the letter that goes on and on. </p>'.repeat(80)));
    expect(short.subarray(0, 5).toString()).to.equal('%PDF-');
    expect((await PDFDocument.load(short)).getPageCount()).to.equal(1);
    const longPages = (await PDFDocument.load(long)).getPageCount();
    expect(longPages).to.be.greaterThan(1);
    const signed = await appendSignaturePage(long, {
      company: 'Acme',
      offerLabel: 'offer 1 (version 1)',
      signedName: 'Ann Lee',
      signedAt: new Date('2026-11-27T10:00:00Z'),
      addressHash: 'a'.repeat(64),
      pdfSha256: 'b'.repeat(64),
    });
    expect((await PDFDocument.load(signed)).getPageCount()).to.equal(longPages + 1);
    // Drawn with the standard font (no OFFER_PDF_FONT): its font dictionary names Helvetica.
    expect(signed.toString('latin1')).to.include('/Helvetica');
  });
});
