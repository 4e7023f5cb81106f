/**
 * Files sent to HR (resumes, form uploads): only ever as downloads of the type read from their
 * bytes at upload, under a name made by the feature (src/shared/download-name.ts), with
 * `nosniff`, and opened before anything is sent (src/storage/storage.ts openReadable), so a file
 * gone from storage is a 404, never a 500 with half a download.
 */
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';
import { create as contentDisposition } from 'content-disposition';
import { StorageUnavailable } from '../storage/storage.js';

export interface Download {
  name: string;
  contentType: string;
  size: number;
  stream: Readable;
}

/**
 * What a failed open of a stored file throws: a storage that cannot be reached now (S3 down,
 * wrong credentials) as it is, which the error handler answers 503; anything else (the file is
 * gone) as the caller's 404.
 */
export function unavailableOr(err: unknown, missing: Error): Error {
  return err instanceof StorageUnavailable ? err : missing;
}

/** Content-Disposition (RFC 6266): an ASCII `filename` fallback and the UTF-8 `filename*`. */
function disposition(name: string, type: 'attachment' | 'inline'): string {
  return contentDisposition(name, { type, fallback: name.replace(/[^\x20-\x7e]|["\\]/g, '_') });
}

/** Streams an opened file; a client that goes away mid-download (or a read error) just ends it. */
export async function sendDownload(res: Response, file: Download, type: 'attachment' | 'inline' = 'attachment'): Promise<void> {
  res.setHeader('Content-Type', file.contentType);
  res.setHeader('Content-Length', String(file.size));
  res.setHeader('Content-Disposition', disposition(file.name, type));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  await pipeline(file.stream, res).catch(() => res.destroy());
}
