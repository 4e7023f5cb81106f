import { viewerTimeZone } from '../../src/shared/time-format.js';

/**
 * Saving a file that an HR call returns (exports, resumes, uploaded files): the response is read
 * into a Blob and saved under the name from its Content-Disposition header.
 */

/** The file name of a Content-Disposition header (RFC 6266: filename* wins over filename). */
function filenameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      /* fall through to the plain name */
    }
  }
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;\s]+))/.exec(header);
  return plain ? (plain[1] ?? plain[2]) || null : null;
}

/** Reads a successful response into a Blob and has the browser save it. */
export async function saveResponse(res: Response, fallbackName: string): Promise<string> {
  const blob = await res.blob();
  const name = filenameFromDisposition(res.headers.get('Content-Disposition')) ?? fallbackName;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // The download has started from the click; the object URL is only needed until then.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}

/** An export's URL with the viewer's time zone (`tz`), so its dates are written in it and the zone named. */
export function exportUrl(url: string): string {
  const zone = viewerTimeZone();
  if (!zone || zone === 'UTC') return url;
  const u = new URL(url, location.href);
  u.searchParams.set('tz', zone);
  return u.origin === location.origin ? `${u.pathname}${u.search}` : u.href;
}
