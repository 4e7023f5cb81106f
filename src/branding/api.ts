/**
 * The site settings API (issue 35), admins only (app.ts mounts requireAdmin on ADMIN_API_PATHS):
 * - `GET /api/hr/settings/site/`: the settings (blank where the default applies), the logo, the defaults;
 * - `PUT /api/hr/settings/site/`: every setting at once (siteSettingsSchema);
 * - `POST /api/hr/settings/site/logo/`: multipart/form-data with one file part `logo` (PNG, WebP
 *   or SVG, at most BRANDING_LIMITS.logoBytes), judged and cleaned off the main thread;
 * - `DELETE /api/hr/settings/site/logo/`: no logo (204).
 * And the public assets, content-named and kept by browsers for a year: the logo
 * (`/brand/logo-<hash>.<ext>`, SVG with a CSP that runs nothing) and the theme stylesheet of an
 * accent colour (`/brand/theme-<rrggbb>.css`).
 */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { NotFound } from '../http/errors.js';
import { receiveMultipart, type MultipartOptions } from '../http/multipart.js';
import { validate } from '../http/validate.js';
import { BRANDING_LIMITS, BRANDING_MESSAGES, SETTINGS_ERROR_ORDER, siteSettingsSchema } from './schema.js';
import { logoBytes, removeLogo, saveSiteSettings, siteSettings, themeCss, uploadLogo } from './service.js';

/** The first bytes of what may be a logo: PNG, WebP (RIFF....WEBP) or text (an SVG, checked in full later). */
function logoHead(head: Buffer): string | null {
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return null;
  if (head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP') return null;
  // Text: an SVG starts with its declaration, a comment, a doctype or <svg (after a BOM or spaces).
  if (/^(?:\ufeff)?\s*</.test(head.toString('utf8'))) return null;
  return BRANDING_MESSAGES.logoType;
}

const LOGO_UPLOAD: MultipartOptions = {
  fileRules: new Map([
    [
      'logo',
      {
        maxBytes: BRANDING_LIMITS.logoBytes,
        tooLargeMessage: BRANDING_MESSAGES.logoTooLarge,
        headBytes: 64,
        checkHead: logoHead,
        tailBytes: () => 0,
      },
    ],
  ]),
  maxTotalFileBytes: BRANDING_LIMITS.logoBytes,
  maxFields: 5,
  maxFieldBytes: 1000,
  maxTextBytes: 5000,
  maxParts: 6,
  notMultipartMessage: 'Send the logo as multipart/form-data with the file in the field "logo".',
};

const YEAR = 365 * 24 * 3600;
/** The public names: the logo by the hash of its bytes, the theme by its colour. */
const LOGO_NAME = /^logo-([0-9a-f]{24})(-raster\.png|\.png|\.webp|\.svg)$/;
const THEME_NAME = /^theme-([0-9a-f]{6})\.css$/;
/** An SVG opened on its own runs nothing and loads nothing. */
const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

export function brandingApi(ctx: AppContext): Router {
  const router = Router();
  const schema = siteSettingsSchema();

  router.get('/api/hr/settings/site/', async (_req, res) => {
    res.json(await siteSettings(ctx));
  });

  router.put('/api/hr/settings/site/', async (req, res) => {
    res.json(await saveSiteSettings(ctx, validate(schema, req.body, SETTINGS_ERROR_ORDER), req.hr!.userId, ctx.now()));
  });

  router.post('/api/hr/settings/site/logo/', async (req, res) => {
    const form = await receiveMultipart(req, ctx.storage, LOGO_UPLOAD);
    const file = form.files.get('logo');
    if (!file) {
      res.status(400).json({ logo: [BRANDING_MESSAGES.logoMissing] });
      return;
    }
    let bytes: Buffer;
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of await ctx.storage.read(file.key)) chunks.push(chunk as Buffer);
      bytes = Buffer.concat(chunks);
    } finally {
      await ctx.storage.remove(file.key);
    }
    res.status(201).json(await uploadLogo(ctx, bytes, req.hr!.userId, ctx.now()));
  });

  router.delete('/api/hr/settings/site/logo/', async (req, res) => {
    await removeLogo(ctx, req.hr!.userId, ctx.now());
    res.status(204).end();
  });

  router.get('/brand/:file', async (req, res) => {
    const theme = THEME_NAME.exec(req.params.file);
    if (theme) {
      res.setHeader('Cache-Control', `public, max-age=${YEAR}, immutable`);
      res.type('text/css').send(themeCss(`#${theme[1]}`));
      return;
    }
    const logo = LOGO_NAME.exec(req.params.file);
    if (!logo) throw new NotFound();
    const [, hash, suffix] = logo;
    const found = await logoBytes(ctx.db, hash, suffix === '-raster.png');
    if (!found || (suffix !== '-raster.png' && !suffix.endsWith(found.type === 'image/svg+xml' ? 'svg' : found.type.slice(6)))) {
      throw new NotFound();
    }
    res.setHeader('Cache-Control', `public, max-age=${YEAR}, immutable`);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // Shown by other sites too: webmail opens an email's logo from its own origin, feed readers theirs.
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    if (found.type === 'image/svg+xml') res.setHeader('Content-Security-Policy', SVG_CSP);
    res.type(found.type).send(found.bytes);
  });

  return router;
}
