/**
 * The text of a DOC or DOCX resume, for HR to read beside the answers without downloading it
 * (issue 20, fast review). The parse itself runs in the context's document parsers
 * (src/documents/: child processes with a deadline and a memory cap), never in the server's process.
 * PDFs are not here: the page shows them in the browser's own viewer from the bytes of the download.
 */
import type { DocumentText } from '../../documents/pool.js';
import { RESUME_CONTENT_TYPES, type ResumeKind } from './file-type.js';

export type ResumePreview = DocumentText;

/** The kinds with a text preview. */
export function previewKind(contentType: string): Extract<ResumeKind, 'doc' | 'docx'> | null {
  if (contentType === RESUME_CONTENT_TYPES.docx) return 'docx';
  if (contentType === RESUME_CONTENT_TYPES.doc) return 'doc';
  return null;
}
