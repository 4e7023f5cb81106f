/**
 * Whether a screening question asks for current or past pay (issue 34: the EU directive and
 * several US states forbid asking for salary history), judged by its wording in English and a few
 * other languages of the EU. Asking for the expected or desired pay is allowed and not flagged
 * ("expected CTC", "salary expectations"); "current and expected salary" is flagged for its first
 * half. The text is compared without markup, accents, case or punctuation.
 */

const PAST = '(?:current|currently|present|previous|previously|prior|past|last|former|existing|recent|most recent|latest|actual|old)';
/** Words that may stand between PAST and the pay ("current annual base salary", "last drawn CTC", "current or expected salary"). */
const BETWEEN =
  '(?:(?:annual|annually|yearly|monthly|weekly|hourly|daily|base|basic|gross|net|total|fixed|drawn|take home|cash|or|and|expected|desired|job s|employer s|company s)\\s+){0,3}';
const PAY =
  '(?:salary|salaries|pay|paid|payment|compensation|comp|wage|wages|remuneration|income|earnings|ctc|package|pay rate|rate of pay|rate|bonus)';
const PAY_NOUN = '(?:salary|pay|compensation|wage|wages|earnings|income|remuneration|ctc)';
const EMPLOYER = '(?:job|employer|company|role|position|workplace|organisation|organization|firm|post)';

const PATTERNS: RegExp[] = [
  // "present salary expectations" asks for the expected pay.
  new RegExp(`\\b${PAST}\\s+${BETWEEN}${PAY}\\b(?!\\s+(?:expectation|expectations|requirement|requirements|range|band|bands|budget)\\b)`),
  new RegExp(`\\b${PAY_NOUN}\\s+(?:history|histories|record|records|details)\\b`),
  new RegExp(`\\b${PAY_NOUN}\\s+(?:at|in|with|from|of)\\s+(?:your\\s+)?${PAST}\\s+${EMPLOYER}\\b`),
  /\b(?:how much|what)\s+(?:do\s+|did\s+)?you\s+(?:currently\s+|now\s+|previously\s+)?(?:earn|earned|make|made|get paid|got paid|take home)\b/,
  /\b(?:how much|what)\s+(?:are|were)\s+you\s+(?:currently\s+|now\s+|previously\s+)?(?:paid|earning|making|getting paid)\b/,
  new RegExp(`\\bwhat\\s+(?:is|was|s)\\s+your\\s+${PAY_NOUN}\\b`),
  /\b(?:pay|salary|wage)\s+(?:slip|slips|stub|stubs)\b|\bpay ?slips?\b|\bpaystubs?\b/,
  // German
  /\b(?:aktuell|derzeitig|bisherig|letzt|jetzig|momentan|vorherig|fruher)(?:e|er|es|en|em)?\s+(?:\w+\s+)?(?:gehalt|gehalts|verdienst|vergutung|lohn|einkommen|bruttogehalt|jahresgehalt|monatsgehalt)\b/,
  /\bgehaltshistorie\b|\b(?:was|wie viel)\s+verdienen\s+sie\b/,
  // French
  /\b(?:salaire|remuneration|paie|paye)\s+(?:\w+\s+)?(?:actuel|actuelle|precedent|precedente|anterieur|anterieure|dernier|derniere)\b/,
  /\b(?:actuel|dernier|precedent)\s+salaire\b|\bhistorique\s+(?:de\s+|des\s+)?(?:salaire|remuneration)s?\b|\bcombien\s+gagnez\s+vous\b/,
  // Spanish
  /\b(?:salario|sueldo|remuneracion)\s+(?:\w+\s+)?(?:actual|anterior|previo|ultimo)\b|\b(?:ultimo|actual)\s+(?:salario|sueldo)\b|\bcuanto\s+(?:ganas|gana\s+usted|cobras)\b/,
  // Dutch
  /\b(?:huidig|huidige|vorig|vorige|laatste|laatst verdiende)\s+(?:\w+\s+)?(?:salaris|loon|inkomen)\b/,
  // Italian
  /\b(?:stipendio|retribuzione|ral)\s+(?:\w+\s+)?(?:attuale|precedente)\b|\b(?:attuale|ultima|ultimo)\s+(?:stipendio|retribuzione|ral)\b/,
];

/** "CTC" (cost to company) alone asks for the current pay, unless expected, desired or offered. */
const CTC = /(?:^|\s)((?:\S+\s+){0,2})ctc\b/g;
const NOT_CURRENT = /\b(?:expected|expect|desired|target|proposed|offered|offer|future|acceptable)\b/;

/** Text as compared: markup and entities out, accents dropped, lower case, letters and digits between single spaces. */
function plainWords(text: string): string {
  return text
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(?:nbsp|#160);/gi, ' ')
    .replace(/&amp;/gi, '&')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The words of `text` that ask for current or past pay, or null. */
export function salaryHistoryWords(text: string): string | null {
  const words = plainWords(text);
  if (!words) return null;
  for (const pattern of PATTERNS) {
    const m = pattern.exec(words);
    if (m) return m[0].trim();
  }
  for (const m of words.matchAll(CTC)) {
    if (!NOT_CURRENT.test(m[1])) return m[0].trim();
  }
  return null;
}
