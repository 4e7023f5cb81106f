/**
 * The site settings' input and messages (issue 35), Node-free: the site-settings island imports the
 * limits, messages and the contrast check; the schema is built in a function (no zod in the island).
 * Blank texts mean "not set": the default applies (SiteSettingsView.defaults).
 */
import * as z from 'zod/mini';
import { FIELD_MESSAGES, issue } from '../shared/field-errors.js';
import { isObject, multilineText, oneLine, textInput } from '../shared/input-rules.js';
import type { FooterLink, SiteSettingsInput } from './types.js';

export const BRANDING_LIMITS = {
  companyName: 100,
  /** `#rrggbb`. */
  accentColor: 7,
  heroTitle: 120,
  heroText: 500,
  /** The About block as sent (before sanitising). */
  aboutHtml: 20_000,
  emptyMessage: 500,
  footerLinks: 6,
  linkLabel: 60,
  linkUrl: 500,
  /** Bytes of a logo upload. */
  logoBytes: 2 * 1024 * 1024,
} as const;

/** WCAG 2 AA for normal text. */
export const MIN_CONTRAST = 4.5;
/** The accent colour is the text colour of links on these and the background of buttons with white text. */
const AGAINST = ['#ffffff', '#f9fafb'];

export const BRANDING_MESSAGES = {
  notObject: 'Expected a JSON object.',
  color: 'Enter a colour as #RRGGBB, such as #1d4ed8, or leave it blank for the default.',
  contrast: (hex: string, ratio: string) =>
    `The accent colour ${hex} has a contrast ratio of ${ratio}:1 against white text and the page background; WCAG AA needs at least ${MIN_CONTRAST}:1. Choose a darker colour.`,
  links: `Give at most ${BRANDING_LIMITS.footerLinks} footer links.`,
  linksNotList: 'Must be a list of links: [{"label": "…", "url": "https://…"}].',
  linkNotObject: 'Each link must be an object: {"label": "…", "url": "https://…"}.',
  linkUrl: 'Enter a full https:// address (without a user name or password).',
  aboutTooDeep: 'This text nests its formatting too deeply. Simplify it.',
  logoMissing: 'Choose a logo file to upload (the form field "logo").',
  logoType: 'The logo must be a PNG, WebP or SVG image. Other file types are refused.',
  logoUnreadable: 'The logo could not be read as an image. Save it again as PNG, WebP or SVG and upload it again.',
  logoTooLarge: `The logo must be at most ${BRANDING_LIMITS.logoBytes / 1024 / 1024} MB and 25 megapixels.`,
  logoBusy: 'The server is busy checking other files. Please try the upload again in a moment.',
  logoOneFile: 'Upload one logo file at a time.',
} as const;

/** `#abc` or `#aabbcc` (any case) as `#aabbcc`; null when it is not a hex colour. */
export function normaliseHex(v: string): string | null {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(v.trim());
  if (!m) return null;
  const h = m[1].toLowerCase();
  return `#${h.length === 3 ? [...h].map((c) => c + c).join('') : h}`;
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2's contrast ratio of two `#rrggbb` colours (1 to 21). */
function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** The accent's lowest contrast against what it meets (white button text, the page's backgrounds). */
export function accentContrast(hex: string): number {
  return Math.min(...AGAINST.map((c) => contrastRatio(hex, c)));
}

/** A ratio as a message says it: two decimals, rounded down (4.499 is never "4.50"). */
export const ratioText = (r: number) => (Math.floor(r * 100) / 100).toFixed(2);

/** The problem with an accent colour as typed ('' is none: the default). */
export function accentProblem(v: string): string | null {
  if (!v.trim()) return null;
  const hex = normaliseHex(v);
  if (!hex) return BRANDING_MESSAGES.color;
  const ratio = accentContrast(hex);
  return ratio < MIN_CONTRAST ? BRANDING_MESSAGES.contrast(hex, ratioText(ratio)) : null;
}

/** An https URL without credentials, at most linkUrl characters; null when it is not one. */
function httpsUrl(v: string): string | null {
  const s = v.trim();
  if (!s || s.length > BRANDING_LIMITS.linkUrl || /[\s\u0000-\u001f]/.test(s)) return null;
  try {
    const u = new URL(s);
    if (u.protocol !== 'https:' || u.username || u.password || !u.hostname) return null;
    return u.href;
  } catch {
    return null;
  }
}

const accent = () =>
  z.pipe(
    textInput(),
    z.transform((v: string, ctx): string => {
      const problem = accentProblem(v);
      if (problem) ctx.issues.push(issue(v, problem));
      return normaliseHex(v) ?? '';
    }),
  );

const footerLinks = () =>
  z.transform((v: unknown, ctx): FooterLink[] => {
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) {
      ctx.issues.push(issue(v, BRANDING_MESSAGES.linksNotList));
      return [];
    }
    if (v.length > BRANDING_LIMITS.footerLinks) {
      ctx.issues.push(issue(v, BRANDING_MESSAGES.links));
      return [];
    }
    const label = oneLine(BRANDING_LIMITS.linkLabel, true);
    return v.map((item, i) => {
      if (!isObject(item)) {
        ctx.issues.push(issue(item, BRANDING_MESSAGES.linkNotObject, [i]));
        return { label: '', url: '' };
      }
      const l = label.safeParse(item.label);
      for (const e of l.error?.issues ?? []) ctx.issues.push(issue(item.label, e.message, [i, 'label']));
      const url = typeof item.url === 'string' ? httpsUrl(item.url) : null;
      if (!url) ctx.issues.push(issue(item.url, BRANDING_MESSAGES.linkUrl, [i, 'url']));
      return { label: l.data ?? '', url: url ?? '' };
    });
  });

/** The order of the settings' error keys. */
export const SETTINGS_ERROR_ORDER = [
  'detail',
  'company_name',
  'hero_title',
  'hero_text',
  'about_html',
  'empty_message',
  'accent_color',
  'footer_links',
  'label',
  'url',
] as const;

/** PUT /api/hr/settings/site/: every field (a missing one is blank: the default). */
export function siteSettingsSchema() {
  return z.object(
    {
      company_name: oneLine(BRANDING_LIMITS.companyName),
      hero_title: oneLine(BRANDING_LIMITS.heroTitle),
      hero_text: multilineText(BRANDING_LIMITS.heroText),
      about_html: z.pipe(
        textInput(),
        z.string().check(z.maxLength(BRANDING_LIMITS.aboutHtml, FIELD_MESSAGES.tooLong(BRANDING_LIMITS.aboutHtml))),
      ),
      empty_message: multilineText(BRANDING_LIMITS.emptyMessage),
      accent_color: accent(),
      footer_links: footerLinks(),
    },
    BRANDING_MESSAGES.notObject,
  ) as unknown as z.ZodMiniType<SiteSettingsInput>;
}
