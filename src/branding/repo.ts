/** The only code touching `site_settings` (issue 35, migration 042): one row, id 1. */
import type { Knex } from 'knex';
import { fromDbDate, fromDbJson, fromDbNumber, toDbDate, toDbJson } from '../db/codecs.js';
import type { FooterLink, LogoInfo, SiteSettingsInput } from './types.js';

const ROW = 1;

export interface StoredSettings {
  company_name: string | null;
  hero_title: string | null;
  hero_text: string | null;
  about_html: string | null;
  empty_message: string | null;
  accent_color: string | null;
  footer_links: FooterLink[];
  logo: (Omit<LogoInfo, 'url' | 'png_url'> & { hash: string }) | null;
  updated_at: Date | null;
}

const SETTING_COLUMNS = [
  'company_name',
  'hero_title',
  'hero_text',
  'about_html',
  'empty_message',
  'accent_color',
  'footer_links',
  'logo_type',
  'logo_hash',
  'logo_width',
  'logo_height',
  'updated_at',
];

const orNull = (s: string | null | undefined) => (s ? s : null);

export async function readSettings(db: Knex): Promise<StoredSettings> {
  const row = (await db('site_settings').where({ id: ROW }).first(SETTING_COLUMNS)) as Record<string, unknown> | undefined;
  if (!row) throw new Error('site_settings has no row (migration 042)');
  const hash = row.logo_hash ? String(row.logo_hash) : null;
  return {
    company_name: orNull(row.company_name as string | null),
    hero_title: orNull(row.hero_title as string | null),
    hero_text: orNull(row.hero_text as string | null),
    about_html: orNull(row.about_html as string | null),
    empty_message: orNull(row.empty_message as string | null),
    accent_color: orNull(row.accent_color as string | null),
    footer_links: fromDbJson<FooterLink[]>(row.footer_links, []),
    logo: hash
      ? {
          hash,
          type: String(row.logo_type) as LogoInfo['type'],
          width: fromDbNumber(row.logo_width) ?? 0,
          height: fromDbNumber(row.logo_height) ?? 0,
        }
      : null,
    updated_at: fromDbDate(row.updated_at),
  };
}

/** The settings' texts (blank as null: the default applies); the logo is left as it is. */
export async function writeSettings(trx: Knex, input: SiteSettingsInput, userId: number | null, at: Date): Promise<void> {
  await trx('site_settings')
    .where({ id: ROW })
    .update({
      company_name: orNull(input.company_name),
      hero_title: orNull(input.hero_title),
      hero_text: orNull(input.hero_text),
      about_html: orNull(input.about_html),
      empty_message: orNull(input.empty_message),
      accent_color: orNull(input.accent_color),
      footer_links: input.footer_links.length ? toDbJson(input.footer_links) : null,
      updated_by: userId,
      updated_at: toDbDate(at),
    });
}

export interface LogoWrite {
  type: LogoInfo['type'];
  bytes: Buffer;
  png: Buffer;
  hash: string;
  width: number;
  height: number;
}

/** Sets the logo, or removes it (null). */
export async function writeLogo(trx: Knex, logo: LogoWrite | null, userId: number | null, at: Date): Promise<void> {
  await trx('site_settings')
    .where({ id: ROW })
    .update({
      logo: logo?.bytes ?? null,
      logo_png: logo?.png ?? null,
      logo_type: logo?.type ?? null,
      logo_hash: logo?.hash ?? null,
      logo_width: logo?.width ?? null,
      logo_height: logo?.height ?? null,
      updated_by: userId,
      updated_at: toDbDate(at),
    });
}

/** The logo's bytes (or its PNG) when `hash` is the logo's now; null otherwise. */
export async function readLogoBytes(db: Knex, hash: string, png: boolean): Promise<{ type: string; bytes: Buffer } | null> {
  const row = (await db('site_settings')
    .where({ id: ROW, logo_hash: hash })
    .first(png ? 'logo_png as bytes' : 'logo as bytes', 'logo_type')) as
    | { bytes: Buffer | Uint8Array | null; logo_type: string }
    | undefined;
  if (!row?.bytes) return null;
  return { type: png ? 'image/png' : row.logo_type, bytes: Buffer.from(row.bytes) };
}

/** The change in the audit log (entity `site_settings`). */
export async function insertSettingsAudit(
  trx: Knex,
  userId: number | null,
  action: string,
  details: Record<string, unknown>,
  at: Date,
): Promise<void> {
  await trx('audit_log').insert({
    user_id: userId,
    action,
    entity: 'site_settings',
    entity_id: ROW,
    details: toDbJson(details),
    created_at: toDbDate(at),
  });
}
