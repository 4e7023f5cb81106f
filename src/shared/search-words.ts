/**
 * The applicants search's normalised words, the same code for both databases: text is folded
 * (NFKD with the combining marks dropped, a few letters that do not decompose spelled out,
 * lower-cased) and split at every character that is not a letter or a digit. An application's
 * name and email words, and every tail of its phone digits (marked with PHONE_MARK, so they never
 * meet a name word), are kept in `application_search_words`; a query word matches the stored
 * words it is a prefix of, which is an index range `word >= w AND word < prefixEnd(w)`.
 */

/** Longest stored word (the column is VARCHAR(64)); longer words are cut, query words too. */
const SEARCH_WORD_MAX = 64;
/** Phone tails are stored from this length up: one or two digits would match nearly every phone. */
const PHONE_DIGITS_MIN = 3;
/** Sorts before every digit and letter, so phone entries are their own range of the index. */
export const PHONE_MARK = '#';

const SPELLED: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };

export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[ßæœøłđðþı]/g, (c) => SPELLED[c]);
}

/** Distinct folded words of a text, in order, each at most SEARCH_WORD_MAX characters. */
export function textWords(text: string): string[] {
  const words = foldText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map((w) => [...w].slice(0, SEARCH_WORD_MAX).join(''));
  return [...new Set(words)];
}

function digitsOf(text: string): string {
  return text.replace(/\D+/g, '');
}

/** Every stored word of one application: name and email words, then the phone's digit tails. */
export function applicationSearchWords(a: { first_name: string; last_name: string; email: string; phone: string }): string[] {
  const words = new Set(textWords(`${a.first_name} ${a.last_name} ${a.email}`));
  const digits = digitsOf(a.phone).slice(-(SEARCH_WORD_MAX - 1));
  for (let i = 0; i + PHONE_DIGITS_MIN <= digits.length; i++) words.add(PHONE_MARK + digits.slice(i));
  return [...words];
}

/**
 * What a query looks for: its words (a word that is a prefix of another query word adds nothing
 * and is dropped) and, when it holds at least PHONE_DIGITS_MIN digits, those digits run together.
 */
export function searchTerms(q: string): { words: string[]; phoneDigits: string | null } {
  const all = textWords(q);
  const words = all.filter((w) => !all.some((o) => o !== w && o.startsWith(w)));
  const digits = digitsOf(q);
  return { words, phoneDigits: digits.length >= PHONE_DIGITS_MIN ? digits.slice(0, SEARCH_WORD_MAX - 1) : null };
}

/** The smallest string after every string starting with `prefix`, in code point order. */
export function prefixEnd(prefix: string): string {
  const chars = [...prefix];
  const last = chars.pop()!.codePointAt(0)!;
  return chars.join('') + String.fromCodePoint(last + 1);
}
