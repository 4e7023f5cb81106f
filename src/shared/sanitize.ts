/**
 * Rich-text sanitiser with exactly the spec's rules (spec 01 section 5):
 * allowed tags b, strong, i, em, u, a, p, br, ul, ol, li; div becomes p; other tags are unwrapped
 * (their text kept; script/style/textarea bodies are code, not text, and are dropped); on links
 * only href is kept, an href that is not http, https or mailto becomes '#', and links open in a
 * new tab with noopener noreferrer; empty paragraphs are removed.
 * Runs on save and again before render, on the server and in islands that preview rich text.
 */
import sanitizeHtml from 'sanitize-html';

export const RICH_TEXT_TAGS = ['b', 'strong', 'i', 'em', 'u', 'a', 'p', 'br', 'ul', 'ol', 'li'];
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

function sanitizeUncached(html: string): string {
  let out = sanitizeHtml(html, OPTIONS);
  // A second pass flattens nested paragraphs, so the result is stable when sanitised again.
  if (NESTED_P.test(out)) out = sanitizeHtml(out, OPTIONS);
  return out.trim();
}

/**
 * Job pages sanitise the same stored texts on every view; remembering recent results (the output
 * depends only on the input string) keeps "sanitise before render" off the hot path.
 */
const memo = new Map<string, string>();
const MEMO_MAX_ENTRIES = 1000;
const MEMO_MAX_INPUT = 20_000;

export function sanitizeRichText(html: unknown): string {
  if (typeof html !== 'string' || html === '') return '';
  if (html.length > MEMO_MAX_INPUT) return sanitizeUncached(html);
  let out = memo.get(html);
  if (out === undefined) {
    out = sanitizeUncached(html);
    if (memo.size >= MEMO_MAX_ENTRIES) memo.delete(memo.keys().next().value!);
    memo.set(html, out);
  }
  return out;
}

/** True when sanitised rich text has visible content (sections are shown only when non-empty). */
export function hasRichContent(html: string | null | undefined): boolean {
  return !!html && sanitizeRichText(html).replace(/<[^>]*>/g, '').replace(/&nbsp;|[\s\u00a0]/g, '') !== '';
}
