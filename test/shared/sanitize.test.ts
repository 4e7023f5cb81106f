/** Hostile-input corpus for the rich-text sanitiser: everything must come out harmless. */
import { expect } from 'chai';
import { hasRichContent } from '../../src/shared/format.js';
import { RICH_TEXT_MAX_DEPTH, richTextDepth, safeHref, sanitizeRichText } from '../../src/shared/sanitize.js';

const ALLOWED = new Set(['b', 'strong', 'i', 'em', 'u', 'a', 'p', 'br', 'ul', 'ol', 'li']);

/** Structural check: only allowed tags, only href/target/rel on links, safe hrefs. */
function assertHarmless(html: string): void {
  for (const m of html.matchAll(/<(\/?)([a-zA-Z0-9-]+)([^>]*)>/g)) {
    const [, closing, tag, attrs] = m;
    expect(ALLOWED.has(tag.toLowerCase()), `tag ${tag} in ${html}`).to.equal(true);
    if (closing) continue;
    const names = [...attrs.matchAll(/\s([a-zA-Z-:]+)="[^"]*"/g)].map((a) => a[1].toLowerCase());
    if (tag === 'a') {
      for (const n of names) expect(['href', 'target', 'rel']).to.include(n);
      const href = /href="([^"]*)"/.exec(attrs)?.[1] ?? '';
      expect(href === '#' || /^(https?:|mailto:)/i.test(href), `href ${href}`).to.equal(true);
    } else {
      expect(names, `attributes on ${tag}`).to.deep.equal([]);
    }
  }
  // No live markup beyond the allow-list: leftover text like "alert(1)" is harmless, escaped text.
  expect(html).not.to.match(/<script|<style|<svg|<iframe|<img|<math|<object|<embed|<form|<meta|<base/i);
  expect(html).not.to.match(/\son\w+="/i);
}

const HOSTILE = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//evil.example/x.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<p onclick="alert(1)">click</p>',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>',
  '<a href="&#x6A;avascript:alert(1)">x</a>',
  '<a href="java&#x09;script:alert(1)">x</a>',
  '<a href="java\nscript:alert(1)">x</a>',
  '<a href=" javascript:alert(1)">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<a href="//evil.example">protocol relative</a>',
  '<svg><script>alert(1)</script></svg>',
  '<svg onload=alert(1)><circle r=5></circle></svg>',
  '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
  '<style>body{background:url(javascript:alert(1))}</style><p>text</p>',
  '<p style="background:url(javascript:alert(1))">styled</p>',
  '<iframe src="https://evil.example"></iframe>',
  '<object data="x.swf"></object><embed src="x.swf">',
  '<form action="https://evil.example"><input name=x><button>go</button></form>',
  '<b><i><u><script>alert(1)</script>deep</u></i></b>',
  '<div><div><div onmouseover=alert(1)>nested</div></div></div>',
  '<<script>script>alert(1)<</script>/script>',
  '<a href="https://ok.example" onclick="alert(1)" style="x" class="y" id="z">ok</a>',
  '<p>unclosed <b>bold <i>italic',
  '<!--<script>alert(1)</script>--><p>after comment</p>',
  '<![CDATA[<script>alert(1)</script>]]>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<table><tr><td onclick=alert(1)>cell</td></tr></table>',
  '<template><script>alert(1)</script></template>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<a href="mailto:hr@example.com?subject=<script>">mail</a>',
  '<p><a href="http://example.com/?q=&quot;onmouseover=alert(1)">q</a></p>',
  '<textarea><script>alert(1)</script></textarea>',
  '"><script>alert(1)</script>',
];

describe('rich-text sanitiser', () => {
  for (const input of HOSTILE) {
    it(`neutralises ${JSON.stringify(input).slice(0, 70)}`, () => {
      const out = sanitizeRichText(input);
      assertHarmless(out);
      // Idempotent: a stored text sent back (the editor, Remove) saves as it is.
      expect(sanitizeRichText(out)).to.equal(out);
    });
  }

  it('keeps the allowed tags', () => {
    const html = '<p><b>b</b> <strong>s</strong> <i>i</i> <em>e</em> <u>u</u><br /></p><ul><li>one</li></ul><ol><li>two</li></ol>';
    expect(sanitizeRichText(html)).to.equal(html);
  });

  it('turns div into p and unwraps other tags keeping their text', () => {
    expect(sanitizeRichText('<div>a</div>')).to.equal('<p>a</p>');
    expect(sanitizeRichText('<h1>Title</h1><span>text</span>')).to.equal('Titletext');
    expect(sanitizeRichText('<p><span style="color:red">red</span></p>')).to.equal('<p>red</p>');
  });

  it('keeps only http, https and mailto hrefs, others become #; links open in a new tab safely', () => {
    expect(sanitizeRichText('<a href="https://a.example/x?y=1&amp;z=2" title="t">a</a>')).to.equal(
      '<a href="https://a.example/x?y=1&amp;z=2" target="_blank" rel="noopener noreferrer">a</a>',
    );
    expect(sanitizeRichText('<a href="mailto:x@y.z">m</a>')).to.equal(
      '<a href="mailto:x@y.z" target="_blank" rel="noopener noreferrer">m</a>',
    );
    expect(sanitizeRichText('<a href="/relative">r</a>')).to.equal('<a href="#" target="_blank" rel="noopener noreferrer">r</a>');
    expect(sanitizeRichText('<a href="ftp://x">f</a>')).to.equal('<a href="#" target="_blank" rel="noopener noreferrer">f</a>');
    expect(safeHref('java\u0000script:alert(1)')).to.equal('#');
  });

  it('removes empty paragraphs', () => {
    expect(sanitizeRichText('<p></p><p> </p><p>&nbsp;</p><p><br></p><p>kept</p>')).to.equal('<p>kept</p>');
  });

  it('tells stored text with visible content from empty markup without parsing it', () => {
    for (const empty of [
      null,
      undefined,
      '',
      ' ',
      '<p><br></p>',
      '<p><br /></p>',
      '<p>&nbsp;</p>',
      '<p>&#160;\u200b</p>',
      '<ul><li></li></ul>',
      '<b> </b><i>\n</i>',
    ]) {
      expect(hasRichContent(empty), String(empty)).to.equal(false);
    }
    for (const full of [
      '<p>x</p>',
      'plain',
      '<p>&amp;</p>',
      '<ul><li>1</li></ul>',
      '<a href="#" target="_blank" rel="noopener noreferrer">link</a>',
    ]) {
      expect(hasRichContent(full), full).to.equal(true);
    }
  });

  it('measures how deeply sanitised HTML nests, counting elements only', () => {
    const cases: [string, number][] = [
      ['', 0],
      ['plain text', 0],
      ['<p>x</p>', 1],
      ['<p>a<br />b</p><p>c</p>', 1],
      ['<p><strong>x</strong></p><p>y</p>', 2],
      [
        '<ul><li><p>x</p><ul><li><p><a href="https://e.example/" target="_blank" rel="noopener noreferrer"><strong><em><u>y</u></em></strong></a></p></li></ul></li></ul>',
        9,
      ],
      [sanitizeRichText('<a href="https://e.example/?a>b<c">x<b>y</b></a><p>1 > 0 < 2</p>'), 2], // escaped in attributes and text
      [sanitizeRichText('<span><span><span><b>x</b></span></span></span>'), 1], // unwrapped tags do not count
      [sanitizeRichText('<b>'.repeat(30) + 'x'), 30], // unclosed tags are closed by the sanitiser
    ];
    for (const [html, depth] of cases) expect(richTextDepth(html), html).to.equal(depth);
    expect(RICH_TEXT_MAX_DEPTH).to.equal(20);
  });

  it('copes with non-strings and huge input', () => {
    expect(sanitizeRichText(undefined)).to.equal('');
    expect(sanitizeRichText(42 as unknown)).to.equal('');
    const big = '<p>' + 'x'.repeat(200_000) + '</p>';
    expect(sanitizeRichText(big)).to.equal(big);
    const deep = '<b>'.repeat(5000) + 'deep' + '</b>'.repeat(5000);
    assertHarmless(sanitizeRichText(deep));
  });
});
