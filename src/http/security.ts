/** Security headers and CSP (helmet). Scripts only from our own origin; no inline script runs. */
import helmet from 'helmet';
import type { RequestHandler, Response } from 'express';
import type { Config } from '../../config/index.js';

export function securityHeaders(config: Config): RequestHandler {
  const https = config.publicBaseUrl.startsWith('https:');
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Rich-text editors and React style props set style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: https ? { maxAge: 15552000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  });
}

/**
 * Lets one page frame `blob:` URLs, on top of the policy above: the page shows a PDF it fetched
 * itself (with the HR token) in the browser's own viewer, from a blob: URL of those bytes. Only
 * pages that call this get it; a blob: URL is made by the page's own script, never by a link.
 */
export function allowBlobFrames(res: Response): void {
  const policy = res.getHeader('Content-Security-Policy');
  if (typeof policy === 'string') res.setHeader('Content-Security-Policy', `${policy};frame-src blob:`);
}
