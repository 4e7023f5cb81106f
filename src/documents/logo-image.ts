/**
 * A logo upload made safe and sized (issue 35), run in a parser child (worker.ts), never in the
 * server: the type is judged from the bytes (`file-type`: PNG or WebP; else UTF-8 text whose
 * root element is `svg`), a raster logo is decoded and re-encoded by sharp (metadata and anything
 * hidden after the image data are gone) at most LOGO_BOX in size, an SVG is cleaned by the
 * allow-list (svg-clean.ts) and drawn once by sharp to check it is an image at all. Every logo also
 * gets a PNG (emails, feeds and search engines do not all show SVG or WebP).
 */
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { cleanSvg, looksLikeSvg } from './svg-clean.js';

/** The largest logo kept, in pixels (twice the size it is shown at, for sharp screens). */
const LOGO_BOX = { width: 800, height: 240 };
/** A picture larger than this is refused before it is decoded (a "decompression bomb"). */
const MAX_INPUT_PIXELS = 25_000_000;

type LogoKind = 'image/png' | 'image/webp' | 'image/svg+xml';

export type LogoResult =
  | { ok: true; type: LogoKind; bytes: Uint8Array; png: Uint8Array; width: number; height: number }
  | { ok: false; reason: 'type' | 'unreadable' | 'too_large' };

sharp.cache(false);
sharp.concurrency(1);

async function rasterPng(input: Buffer, svg: boolean): Promise<{ png: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', ...(svg ? { density: 72 } : {}) })
    .resize({ width: LOGO_BOX.width, height: LOGO_BOX.height, fit: 'inside', withoutEnlargement: !svg })
    .png({ compressionLevel: 9 })
    .toBuffer({ resolveWithObject: true });
  return { png: data, width: info.width, height: info.height };
}

function failure(err: unknown): LogoResult {
  const message = err instanceof Error ? err.message : String(err);
  return { ok: false, reason: /pixel limit|exceeds/i.test(message) ? 'too_large' : 'unreadable' };
}

/** What the logo upload becomes, or why it is refused. */
export async function logoImage(bytes: Buffer): Promise<LogoResult> {
  const detected = await fileTypeFromBuffer(bytes);
  if (detected && detected.ext !== 'png' && detected.ext !== 'webp' && detected.ext !== 'xml') return { ok: false, reason: 'type' };
  if (detected && detected.ext !== 'xml') {
    try {
      const meta = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
      if ((meta.pages ?? 1) > 1) return { ok: false, reason: 'type' };
      const image = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).resize({
        width: LOGO_BOX.width,
        height: LOGO_BOX.height,
        fit: 'inside',
        withoutEnlargement: true,
      });
      const { data, info } = await (detected.ext === 'png' ? image.png({ compressionLevel: 9 }) : image.webp({ quality: 90 })).toBuffer({
        resolveWithObject: true,
      });
      const png = detected.ext === 'png' ? data : (await rasterPng(data, false)).png;
      return { ok: true, type: detected.mime as LogoKind, bytes: data, png, width: info.width, height: info.height };
    } catch (err) {
      return failure(err);
    }
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, reason: 'type' };
  }
  if (text.includes('\0') || !looksLikeSvg(text)) return { ok: false, reason: 'type' };
  const clean = cleanSvg(text);
  if (!clean) return { ok: false, reason: 'unreadable' };
  const svg = Buffer.from(clean);
  try {
    const { png, width, height } = await rasterPng(svg, true);
    return { ok: true, type: 'image/svg+xml', bytes: svg, png, width, height };
  } catch (err) {
    return failure(err);
  }
}
