/**
 * The page of a signed link (an outside interviewer's feedback link, a candidate's booking link)
 * that names nothing (404) or has died (410: used, expired, withdrawn), saying why; any other error
 * goes on to the error handler.
 */
import type { Request, Response } from 'express';
import { HttpError } from '../http/errors.js';
import { renderPage } from './page.js';

export function renderLinkGone(req: Request, res: Response, err: unknown): void {
  if (!(err instanceof HttpError && (err.status === 410 || err.status === 404))) throw err;
  res.setHeader('Cache-Control', 'no-store');
  const heading = err.status === 410 ? 'Link no longer valid' : 'Not found';
  renderPage(req, res, 'pages/public/link-gone', { title: heading, noindex: true, status: err.status }, { heading, message: err.message });
}
