/**
 * What the funnel learns from a request's headers, and all it keeps: the device class, and whether
 * the browser asked not to be tracked.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Device } from '../types.js';

/**
 * MDN's advice for telling mobile browsers apart ("Mobi" anywhere in the User-Agent), plus the
 * tablets and older phones that do not say "Mobi" (iPad, Android tablets, Kindle/Silk, Opera
 * Mini, BlackBerry, Windows Phone). Tablets count as phones: small touch screens, the same layout.
 * An iPad in desktop mode says Macintosh and counts as desktop.
 */
const PHONE_OR_TABLET = /Mobi|Android|iPhone|iPad|iPod|Tablet|Kindle|Silk|Opera Mini|BlackBerry|BB10|IEMobile|Windows Phone/i;

function deviceClass(userAgent: string | undefined): Device {
  return userAgent && PHONE_OR_TABLET.test(userAgent) ? 'phone' : 'desktop';
}

/** `DNT: 1` (Do Not Track) or `Sec-GPC: 1` (Global Privacy Control): nothing is counted for this request. */
function trackingRefused(headers: IncomingHttpHeaders): boolean {
  return headers.dnt === '1' || headers['sec-gpc'] === '1';
}

/** The device to count a request under, or null when its browser refused tracking. */
export function funnelDevice(headers: IncomingHttpHeaders): Device | null {
  return trackingRefused(headers) ? null : deviceClass(headers['user-agent']);
}
