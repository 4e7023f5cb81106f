/**
 * The site's branding (issue 35): the settings admins keep on /hr/settings/site over the defaults
 * from the environment (COMPANY_NAME) and built-in texts, and the logo.
 * - `siteBrand`: what public pages, emails and the embed show, read through the public cache
 *   ('public-jobs' space: a save clears it in this process; with PUBLIC_CACHE_SECONDS=0 it is read
 *   for every page rendered, and kept pages check the public version first).
 * - Every save bumps the public pages' version in its own transaction, so kept pages of every
 *   process change at once (src/db/public-version.ts), and clears this process's public cache.
 * - A logo upload is judged, cleaned and sized in a parser child (src/documents/logo-image.ts)
 *   and kept in the database under the hash of its bytes: its public URL changes with its content.
 */
import { createHash } from 'node:crypto';
import type { Config } from '../../config/index.js';
import type { Db } from '../db/knex.js';
import { bumpPublicVersion } from '../db/public-version.js';
import type { ReadCache } from '../db/read-cache.js';
import { ParsersBusy, type DocumentParsers } from '../documents/pool.js';
import { ServiceUnavailable, ValidationError } from '../http/errors.js';
import { RICH_TEXT_MAX_DEPTH, richTextDepth, sanitizeRichText } from '../shared/sanitize.js';
import { insertSettingsAudit, readLogoBytes, readSettings, writeLogo, writeSettings, type StoredSettings } from './repo.js';
import { BRANDING_LIMITS, BRANDING_MESSAGES, normaliseHex } from './schema.js';
import type { Brand, LogoInfo, SiteSettingsInput, SiteSettingsView } from './types.js';

export interface BrandingDeps {
  db: Db;
  cache: ReadCache;
  config: Pick<Config, 'company' | 'publicBaseUrl'>;
}

const DEFAULT_TEXTS = {
  heroTitle: (company: string) => `Join ${company}`,
  heroText: 'See our open positions and apply online.',
  emptyMessage: 'There are no open positions right now. Please check back soon.',
} as const;

const EXTENSIONS: Record<LogoInfo['type'], string> = { 'image/png': 'png', 'image/webp': 'webp', 'image/svg+xml': 'svg' };

/** The logo's public paths (content-hashed). */
const logoPath = (hash: string, type: LogoInfo['type']) => `/brand/logo-${hash}.${EXTENSIONS[type]}`;
const logoPngPath = (hash: string) => `/brand/logo-${hash}-raster.png`;
/** The theme stylesheet of an accent colour: its content is the colour's, so its name is too. */
const themePath = (hex: string) => `/brand/theme-${hex.slice(1)}.css`;

/** `hex` mixed with black: the hover and gradient shade of the accent. */
function darker(hex: string, amount = 0.3): string {
  const parts = [1, 3, 5].map((i) => Math.round(Number.parseInt(hex.slice(i, i + 2), 16) * (1 - amount)));
  return `#${parts.map((n) => n.toString(16).padStart(2, '0')).join('')}`;
}

/** The theme stylesheet of an accent colour (`#rrggbb`). */
export function themeCss(hex: string): string {
  return `:root { --brand: ${hex}; --brand-dark: ${darker(hex)}; }\n`;
}

function logoInfo(logo: StoredSettings['logo']): LogoInfo | null {
  if (!logo) return null;
  return { url: logoPath(logo.hash, logo.type), png_url: logoPngPath(logo.hash), type: logo.type, width: logo.width, height: logo.height };
}

/** The brand from stored settings over the defaults. */
export function brandOf(config: BrandingDeps['config'], s: StoredSettings | null): Brand {
  const companyName = s?.company_name ?? config.company.name;
  return {
    companyName,
    heroTitle: s?.hero_title ?? DEFAULT_TEXTS.heroTitle(companyName),
    heroText: s?.hero_text ?? DEFAULT_TEXTS.heroText,
    aboutHtml: s?.about_html ?? '',
    emptyMessage: s?.empty_message ?? DEFAULT_TEXTS.emptyMessage,
    accentColor: s?.accent_color ?? null,
    themeUrl: s?.accent_color ? themePath(s.accent_color) : null,
    footerLinks: s?.footer_links ?? [],
    logo: logoInfo(s?.logo ?? null),
  };
}

/** What the public pages show now (kept with the public reads). */
export function siteBrand(deps: BrandingDeps): Promise<Brand> {
  return deps.cache.fresh('public-jobs:brand', async () => brandOf(deps.config, await readSettings(deps.db)));
}

/** The absolute URL of the logo's PNG (emails, feeds, JSON-LD): the uploaded logo's, else COMPANY_LOGO_URL, else null. */
export function logoPngUrl(config: BrandingDeps['config'], brand: Brand): string | null {
  return brand.logo ? `${config.publicBaseUrl}${brand.logo.png_url}` : config.company.logoUrl;
}

/**
 * `config` with the company as the site settings name it, and the logo's PNG as its logo (emails,
 * written in the caller's transaction `db`): one read of the settings, never cached (a save in
 * another process shows at once).
 */
export async function brandedConfig<C extends BrandingDeps['config']>(db: Db, config: C): Promise<C> {
  const brand = brandOf(config, await readSettings(db));
  return { ...config, company: { ...config.company, name: brand.companyName, logoUrl: logoPngUrl(config, brand) } };
}

/** What an email's header shows: the company name and the logo's PNG (absolute), if any. */
export async function emailBrand(db: Db, config: BrandingDeps['config']): Promise<{ name: string; logoUrl: string | null }> {
  const brand = brandOf(config, await readSettings(db));
  return { name: brand.companyName, logoUrl: logoPngUrl(config, brand) };
}

function viewOf(config: BrandingDeps['config'], s: StoredSettings): SiteSettingsView {
  return {
    company_name: s.company_name ?? '',
    hero_title: s.hero_title ?? '',
    hero_text: s.hero_text ?? '',
    about_html: s.about_html ?? '',
    empty_message: s.empty_message ?? '',
    accent_color: s.accent_color ?? '',
    footer_links: s.footer_links,
    logo: logoInfo(s.logo),
    defaults: {
      company_name: config.company.name,
      hero_title: DEFAULT_TEXTS.heroTitle(s.company_name ?? config.company.name),
      hero_text: DEFAULT_TEXTS.heroText,
      empty_message: DEFAULT_TEXTS.emptyMessage,
      accent_color: '#1d4ed8',
    },
    updated_at: s.updated_at?.toISOString() ?? null,
  };
}

export async function siteSettings(deps: BrandingDeps): Promise<SiteSettingsView> {
  return viewOf(deps.config, await readSettings(deps.db));
}

/** After a commit: nothing read before it stays in this process's public cache. */
function committed(deps: BrandingDeps): void {
  deps.cache.clear('public-jobs');
}

/** Saves every setting (the schema's output); the About block through the rich-text sanitiser. */
export async function saveSiteSettings(
  deps: BrandingDeps,
  input: SiteSettingsInput,
  userId: number | null,
  now: Date,
): Promise<SiteSettingsView> {
  const about = sanitizeRichText(input.about_html);
  if (richTextDepth(about) > RICH_TEXT_MAX_DEPTH) throw new ValidationError({ about_html: [BRANDING_MESSAGES.aboutTooDeep] });
  const accent = input.accent_color ? (normaliseHex(input.accent_color) ?? '') : '';
  const saved: SiteSettingsInput = { ...input, about_html: about, accent_color: accent };
  await deps.db.transaction(async (trx) => {
    await writeSettings(trx, saved, userId, now);
    await insertSettingsAudit(trx, userId, 'site_settings.update', { settings: saved }, now);
    await bumpPublicVersion(trx);
  });
  committed(deps);
  return siteSettings(deps);
}

/** Judges, cleans and sizes an uploaded logo in a parser child, then keeps it. */
export async function uploadLogo(
  deps: BrandingDeps & { documents: DocumentParsers },
  bytes: Buffer,
  userId: number | null,
  now: Date,
): Promise<SiteSettingsView> {
  if (bytes.length > BRANDING_LIMITS.logoBytes) throw new ValidationError({ logo: [BRANDING_MESSAGES.logoTooLarge] });
  let result: Awaited<ReturnType<DocumentParsers['logoImage']>>;
  try {
    result = await deps.documents.logoImage(bytes);
  } catch (err) {
    if (err instanceof ParsersBusy) throw new ServiceUnavailable(BRANDING_MESSAGES.logoBusy, 2);
    throw err;
  }
  // null: the child overran its deadline or its memory, or died.
  if (!result) throw new ValidationError({ logo: [BRANDING_MESSAGES.logoUnreadable] });
  if (!result.ok) {
    const message =
      result.reason === 'type'
        ? BRANDING_MESSAGES.logoType
        : result.reason === 'too_large'
          ? BRANDING_MESSAGES.logoTooLarge
          : BRANDING_MESSAGES.logoUnreadable;
    throw new ValidationError({ logo: [message] });
  }
  const stored = Buffer.from(result.bytes);
  const hash = createHash('sha256').update(stored).digest('hex').slice(0, 24);
  await deps.db.transaction(async (trx) => {
    await writeLogo(
      trx,
      { type: result.type, bytes: stored, png: Buffer.from(result.png), hash, width: result.width, height: result.height },
      userId,
      now,
    );
    await insertSettingsAudit(trx, userId, 'site_settings.logo', { type: result.type, hash, bytes: stored.length }, now);
    await bumpPublicVersion(trx);
  });
  committed(deps);
  return siteSettings(deps);
}

export async function removeLogo(deps: BrandingDeps, userId: number | null, now: Date): Promise<void> {
  await deps.db.transaction(async (trx) => {
    await writeLogo(trx, null, userId, now);
    await insertSettingsAudit(trx, userId, 'site_settings.logo_remove', {}, now);
    await bumpPublicVersion(trx);
  });
  committed(deps);
}

/** The logo's bytes by its public name (the hash of the logo now), or null. */
export function logoBytes(db: Db, hash: string, png: boolean): Promise<{ type: string; bytes: Buffer } | null> {
  return readLogoBytes(db, hash, png);
}
