/**
 * Rich-text sanitiser with exactly the spec's rules (spec 01 section 5):
 * allowed tags b, strong, i, em, u, a, p, br, ul, ol, li; div becomes p; other tags are unwrapped
 * (their text kept; script/style/textarea bodies are code, not text, and are dropped); on links
 * only href is kept, an href that is not http, https or mailto becomes '#', and links open in a
 * new tab with noopener noreferrer; empty paragraphs are removed.
 * Runs when a text is saved, never per read: the stored HTML is served as it is (DESIGN section 4).
 */
import sanitizeHtml from 'sanitize-html';

const RICH_TEXT_TAGS = ['b', 'strong', 'i', 'em', 'u', 'a', 'p', 'br', 'ul', 'ol', 'li'];
const SAFE_HREF = /^(https?:|mailto:)/i;

/** Decoded attribute value -> safe href. Control characters and spaces are ignored, as browsers do. */
export function safeHref(raw: string | undefined): string {
  const compact = (raw ?? '').replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
  return SAFE_HREF.test(compact) ? (raw ?? '').trim() : '#';
}

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: RICH_TEXT_TAGS,
  allowedAttributes: { a: ['href', 'target', 'rel'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title', 'template', 'iframe', 'xmp', 'noembed', 'noframes'],
  transformTags: {
    div: 'p',
    a: (_tag, attribs) => ({
      tagName: 'a',
      attribs: { href: safeHref(attribs.href), target: '_blank', rel: 'noopener noreferrer' },
    }),
  },
  exclusiveFilter: (frame) => frame.tag === 'p' && frame.text.replace(/[\s\u00a0\u200b]/g, '') === '',
};

/** A div turned into p inside another p would nest paragraphs, which browsers re-parse. */
const NESTED_P = /<p>(?:(?!<\/p>)[\s\S])*?<p>/;

export function sanitizeRichText(html: unknown): string {
  if (typeof html !== 'string' || html === '') return '';
  let out = sanitizeHtml(html, OPTIONS);
  // A second pass flattens nested paragraphs, so the result is stable when sanitised again.
  if (NESTED_P.test(out)) out = sanitizeHtml(out, OPTIONS);
  return out.trim();
}

/**
 * Deepest element nesting allowed in a saved text. Every read serves the stored HTML to browsers
 * (and React islands) that parse it; thousands of nested tags would make each of those parses
 * costly. The job editor's deepest output (a list item seven lists deep holding a link in bold,
 * italic and underline) is 19.
 */
export const RICH_TEXT_MAX_DEPTH = 20;

/** Sanitiser output only: balanced, allow-listed tags, `<` and `>` escaped in text and attributes. */
const TAG = /<(\/?)([a-z]+)[^>]*>/g;

/** How deeply the elements of sanitised HTML nest (`<p><b>x</b></p>` is 2); a linear scan, no parser. */
export function richTextDepth(html: string): number {
  let depth = 0;
  let max = 0;
  for (const [, close, name] of html.matchAll(TAG)) {
    if (name === 'br') continue;
    if (close) depth -= 1;
    else if (++depth > max) max = depth;
  }
  return max;
}
