/**
 * The upload of a candidate import (issue 35), admins only: `POST /api/hr/imports/candidates/`,
 * multipart/form-data with the CSV file in `file` (at most 20 MB) and the fields `job_id`
 * (optional), `dry_run` and `partial` ("true"/"false"). Answers the report (200; 201 when rows were
 * written), or 400 `{detail}` for a file this import cannot read.
 */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { CsvProblem } from '../documents/csv.js';
import { ValidationError } from '../http/errors.js';
import { receiveMultipart, type MultipartOptions } from '../http/multipart.js';
import { validate } from '../http/validate.js';
import { requireAdmin } from '../users/index.js';
import { IMPORT_LIMITS, IMPORT_MESSAGES, importOptionsSchema } from './schema.js';
import { ImportFileProblem, importCandidates } from './service.js';

/** A CSV file is text: no NUL byte in its first bytes (a binary file is refused before it is stored). */
const csvHead = (head: Buffer) => (head.includes(0) ? IMPORT_MESSAGES.file : null);

const IMPORT_UPLOAD: MultipartOptions = {
  fileRules: new Map([
    [
      'file',
      { maxBytes: IMPORT_LIMITS.fileBytes, tooLargeMessage: IMPORT_MESSAGES.file, headBytes: 512, checkHead: csvHead, tailBytes: () => 0 },
    ],
  ]),
  maxTotalFileBytes: IMPORT_LIMITS.fileBytes,
  maxFields: 5,
  maxFieldBytes: 100,
  maxTextBytes: 500,
  maxParts: 6,
  notMultipartMessage: 'Send the import as multipart/form-data with the CSV file in the field "file".',
};

export function importsApi(ctx: AppContext): Router {
  const router = Router();

  router.post('/api/hr/imports/candidates/', requireAdmin, async (req, res) => {
    const form = await receiveMultipart(req, ctx.storage, IMPORT_UPLOAD);
    const file = form.files.get('file');
    try {
      if (!file) throw new ValidationError({ file: [IMPORT_MESSAGES.file] });
      const options = validate(importOptionsSchema, {
        job_id: form.fields.get('job_id') ?? '',
        dry_run: form.fields.get('dry_run') ?? '',
        partial: form.fields.get('partial') ?? '',
      });
      const chunks: Buffer[] = [];
      for await (const chunk of await ctx.storage.read(file.key)) chunks.push(chunk as Buffer);
      const report = await importCandidates(ctx, {
        csv: Buffer.concat(chunks),
        resumes: null,
        jobId: options.job_id,
        dryRun: options.dry_run,
        partial: options.partial,
        userId: req.hr!.userId,
      });
      res.status(report.written ? 201 : 200).json(report);
    } catch (err) {
      if (err instanceof ImportFileProblem || err instanceof CsvProblem) throw new ValidationError({}, err.message);
      throw err;
    } finally {
      if (file) await ctx.storage.remove(file.key);
    }
  });

  return router;
}
