/**
 * The site's branding (issue 35), Node-free (the site-settings island imports it):
 * - `SiteSettings`: what admins set on /hr/settings/site, null where they set nothing;
 * - `Brand`: what every public page, email and the embed show: the settings over the defaults
 *   (COMPANY_NAME and the built-in texts), with the logo's and theme's public URLs.
 */

export interface FooterLink {
  label: string;
  url: string;
}

/** The settings' fields as the API reads and writes them. */
export interface SiteSettingsInput {
  company_name: string;
  hero_title: string;
  hero_text: string;
  about_html: string;
  empty_message: string;
  accent_color: string;
  footer_links: FooterLink[];
}

export interface LogoInfo {
  /** Public, content-hashed: kept by browsers for a year. */
  url: string;
  /** The PNG of the logo (emails, feeds, JSON-LD), content-hashed too. */
  png_url: string;
  type: 'image/png' | 'image/webp' | 'image/svg+xml';
  width: number;
  height: number;
}

/** GET/PUT /api/hr/settings/site/: what is set ('' and [] where nothing is), the logo, and what applies where nothing is set. */
export interface SiteSettingsView extends SiteSettingsInput {
  logo: LogoInfo | null;
  defaults: Pick<SiteSettingsInput, 'company_name' | 'hero_title' | 'hero_text' | 'empty_message' | 'accent_color'>;
  updated_at: string | null;
}

/** What the public pages show. */
export interface Brand {
  companyName: string;
  heroTitle: string;
  heroText: string;
  /** Sanitised rich text; '' shows no "About us" block. */
  aboutHtml: string;
  emptyMessage: string;
  /** null: the stylesheet's own colour. */
  accentColor: string | null;
  /** The stylesheet that sets the accent colour (content-hashed), or null. */
  themeUrl: string | null;
  footerLinks: FooterLink[];
  logo: LogoInfo | null;
}
