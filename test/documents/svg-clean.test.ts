/**
 * Issue 35: the SVG logo allow-list (src/documents/svg-clean.ts) on hostile spellings: any case,
 * namespaced elements, references outside the file, styles, entities and event handlers; and the
 * logo reader (src/documents/logo-image.ts) on types it refuses.
 */
import { expect } from 'chai';
import { cleanSvg, looksLikeSvg } from '../../src/documents/svg-clean.js';
import { logoImage } from '../../src/documents/logo-image.js';

const wrap = (inner: string, attrs = '') => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"${attrs}>${inner}</svg>`;

describe('SVG logo allow-list', () => {
  it('keeps drawing elements, presentation attributes and references inside the file, in SVG spelling', () => {
    const out = cleanSvg(
      wrap(
        '<defs><linearGradient id="g" gradientUnits="userSpaceOnUse"><stop offset="0" stop-color="#000"/></linearGradient><clipPath id="c"><rect width="5" height="5"/></clipPath></defs><g clip-path="url(#c)"><path d="M0 0h10v10z" fill="url(#g)" fill-rule="evenodd"/></g><text x="1" y="9" font-size="4">Acme</text>',
        ' preserveAspectRatio="xMidYMid meet"',
      ),
    )!;
    expect(out).to.match(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    for (const kept of [
      'viewBox="0 0 10 10"',
      'preserveAspectRatio="xMidYMid meet"',
      '<linearGradient id="g" gradientUnits="userSpaceOnUse">',
      '<clipPath id="c">',
      'clip-path="url(#c)"',
      'fill="url(#g)"',
      'fill-rule="evenodd"',
      '<text x="1" y="9" font-size="4">Acme</text>',
    ])
      expect(out).to.contain(kept);
  });

  it('drops scripts, handlers, styles, links, images, use, foreignObject and outside references, in any spelling', () => {
    const hostile = [
      '<SCRIPT>alert(1)</SCRIPT>',
      '<script type="text/ecmascript"><![CDATA[alert(2)]]></script>',
      '<svg:script xmlns:svg="http://www.w3.org/2000/svg">alert(3)</svg:script>',
      '<rect width="1" height="1" ONLOAD="alert(4)" onClick="alert(5)" style="fill:url(https://evil.example/a)"/>',
      '<style>@import url(https://evil.example/x.css);</style>',
      '<a xlink:href="javascript:alert(6)" href="https://evil.example/"><rect width="1" height="1"/></a>',
      '<image href="https://evil.example/p.png" width="1" height="1"/>',
      '<use href="#g"/><use xlink:href="https://evil.example/s.svg#x"/>',
      '<foreignObject><body xmlns="http://www.w3.org/1999/xhtml"><iframe src="https://evil.example/"></iframe></body></foreignObject>',
      '<rect width="1" height="1" fill="url(https://evil.example/f.svg#p)" mask="url( data:image/svg+xml,x )"/>',
      '<animate attributeName="href" to="javascript:alert(7)"/><set attributeName="onclick" to="alert(8)"/>',
      '<rect width="1" height="1" fill="javascript:alert(9)"/>',
    ].join('');
    const out = cleanSvg(
      `<!DOCTYPE svg [<!ENTITY x "&#60;script&#62;alert(10)&#60;/script&#62;">]>${wrap(`${hostile}<text>&x;</text>`, ' onload="alert(11)"')}`,
    )!;
    expect(out).to.be.a('string');
    for (const bad of [
      'alert',
      'script',
      'evil.example',
      'onload',
      'onclick',
      'style',
      'xlink',
      '<use',
      '<image',
      '<a',
      'foreignObject',
      'animate',
      '<set',
      'ENTITY',
      'data:',
    ])
      expect(out.toLowerCase(), bad).not.to.contain(bad.toLowerCase());
    expect(out).to.contain('<rect width="1" height="1"></rect>');
  });

  it('answers null when no svg root is left, and tells an SVG by its root element', () => {
    expect(cleanSvg('<p>no drawing here</p>')).to.equal(null);
    expect(cleanSvg('<svg:svg xmlns:svg="http://www.w3.org/2000/svg"><svg:rect/></svg:svg>')).to.equal(null);
    expect(looksLikeSvg('\ufeff<?xml version="1.0"?>\n<!-- logo -->\n<!DOCTYPE svg>\n<svg></svg>')).to.equal(true);
    expect(looksLikeSvg('<html><svg></svg></html>')).to.equal(false);
    expect(looksLikeSvg('just text')).to.equal(false);
  });
});

describe('logo reader', function () {
  this.timeout(20_000);
  it('refuses what is no PNG, WebP or SVG, and text that is not an SVG', async () => {
    for (const bytes of [
      Buffer.from('%PDF-1.7\n%...'),
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]),
      Buffer.from('GIF89a\x01\x00\x01\x00'),
      Buffer.from('<html><body>not a logo</body></html>'),
      Buffer.from([0xc3, 0x28, 0x3c, 0x73, 0x76, 0x67]),
      Buffer.from('<svg>\u0000</svg>'),
    ])
      expect(await logoImage(bytes), bytes.subarray(0, 8).toString('latin1')).to.deep.equal({ ok: false, reason: 'type' });
  });

  it('answers "unreadable" for a PNG signature with nothing after it', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    expect(await logoImage(png)).to.deep.equal({ ok: false, reason: 'unreadable' });
  });
});
