/**
 * Issue 35: the site settings' rules shared by the island and the API (src/branding/schema.ts):
 * colours, WCAG contrast (4.5:1 against white text and the page's light backgrounds), footer links.
 */
import { expect } from 'chai';
import {
  BRANDING_MESSAGES,
  accentContrast,
  accentProblem,
  normaliseHex,
  ratioText,
  siteSettingsSchema,
} from '../../src/branding/schema.js';

describe('site settings rules', () => {
  it('reads #rgb and #rrggbb in any case, and nothing else', () => {
    expect(normaliseHex('#1D4ED8')).to.equal('#1d4ed8');
    expect(normaliseHex(' #abc ')).to.equal('#aabbcc');
    expect(normaliseHex('0f766e')).to.equal('#0f766e');
    for (const bad of ['', '#', '#12', '#12345', '#1234567', 'red', 'rgb(0,0,0)', '#ggg', '#1d4ed8;x'])
      expect(normaliseHex(bad), bad).to.equal(null);
  });

  it("measures WCAG 2's contrast, the lowest against white and the page's light grey", () => {
    // Black on white is 21:1; on #f9fafb a little less.
    expect(accentContrast('#000000')).to.be.closeTo(20.1, 0.05);
    // #767676 is the classic 4.54:1 on white, but under 4.5:1 on the page's #f9fafb.
    expect(accentContrast('#767676')).to.be.closeTo(4.35, 0.01);
    expect(accentContrast('#1d4ed8')).to.be.closeTo(6.4, 0.1);
    expect(ratioText(4.499)).to.equal('4.49');
    expect(ratioText(12)).to.equal('12.00');
  });

  it('refuses a light accent naming its ratio, accepts a dark one and blank (the default)', () => {
    expect(accentProblem('')).to.equal(null);
    expect(accentProblem('#0f766e')).to.equal(null);
    expect(accentProblem('#036')).to.equal(null);
    expect(accentProblem('#22c55e')).to.equal(BRANDING_MESSAGES.contrast('#22c55e', ratioText(accentContrast('#22c55e'))));
    expect(accentProblem('#22c55e')).to.match(/contrast ratio of 2\.\d\d:1/);
    expect(accentProblem('blue')).to.equal(BRANDING_MESSAGES.color);
  });

  it('takes https links only, at most 6, trimmed; and leaves missing fields blank', () => {
    const schema = siteSettingsSchema();
    const ok = schema.safeParse({ footer_links: [{ label: '  Blog ', url: ' https://blog.example.com/a?b=1 ' }] });
    expect(ok.success).to.equal(true);
    expect(ok.data).to.deep.equal({
      company_name: '',
      hero_title: '',
      hero_text: '',
      about_html: '',
      empty_message: '',
      accent_color: '',
      footer_links: [{ label: 'Blog', url: 'https://blog.example.com/a?b=1' }],
    });
    for (const url of [
      'http://x.example/',
      'ftp://x.example/',
      'https://',
      '//x.example/',
      'https://u:p@x.example/',
      'https://x.example/a b',
      'javascript:alert(1)',
      5,
    ])
      expect(schema.safeParse({ footer_links: [{ label: 'L', url }] }).success, String(url)).to.equal(false);
  });
});
