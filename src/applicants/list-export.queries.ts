/** The applicants list's workbook (`GET /api/hr/applications/export/`, `careers-admin export applicants`): the list's filters, in batches. */
import type { Knex } from 'knex';
import { fromDbDate } from '../db/codecs.js';
import type { ApplicantFilters } from './types.js';
import { resumeDownloadName } from './lib/file-type.js';
import type { CellValue, ExportColumn } from '../exports/xlsx.js';
import { APPLICANT_COLUMNS, pipelineCells, sourceCell } from './export.queries.js';
import {
  LIST_COLUMNS,
  afterKey,
  fileTypesOf,
  filteredApplications,
  jobsOf,
  keyOf,
  ordered,
  planSearch,
  stageNamesOf,
} from './list.queries.js';

type Row = Record<string, any>;

/** The applicants list's workbook (`GET /api/hr/applications/export/`, `careers-admin export applicants`). */
export const LIST_EXPORT_COLUMNS: ExportColumn[] = [
  ...APPLICANT_COLUMNS,
  { header: 'Job', width: 30 },
  { header: 'Job Public ID', width: 24 },
  { header: 'Resume', width: 28 },
  { header: 'Source', width: 24 },
];

/**
 * Batches of the filtered list in its order, keyset-paginated over its order's columns like the
 * job's export, so memory stays flat. A search is planned once, without the words-index walk
 * (which only pays off for one page).
 */
export async function* listExportRows(db: Knex, f: ApplicantFilters, batchSize = 500): AsyncGenerator<CellValue[][]> {
  const search = await planSearch(db, f.q);
  let cursor: unknown[] | null = null;
  for (;;) {
    const q = ordered(filteredApplications(db, f, search), f.ordering)
      .select([...LIST_COLUMNS, 'a.outcome_reason'])
      .limit(batchSize);
    if (cursor) afterKey(db, q, f.ordering, cursor);
    const rows: Row[] = await q;
    if (!rows.length) return;
    const [jobs, fileTypes, stageNames] = await Promise.all([jobsOf(db, rows), fileTypesOf(db, rows), stageNamesOf(db, rows)]);
    yield rows.map((r) => {
      const job = jobs.get(Number(r.job_id));
      const type = r.resume_file_id === null ? undefined : fileTypes.get(Number(r.resume_file_id));
      const resume =
        type === undefined
          ? ''
          : resumeDownloadName({ first_name: r.first_name, last_name: r.last_name, job_title: job?.title ?? '', content_type: type });
      const stage = r.stage_id === null ? null : stageNames.get(Number(r.stage_id));
      return [
        Number(r.id),
        r.first_name,
        r.last_name,
        r.email,
        r.phone,
        r.status,
        ...pipelineCells(stage, r.outcome, r.outcome_reason),
        fromDbDate(r.created_at),
        job?.title ?? '',
        job?.public_id ?? '',
        resume,
        sourceCell(r),
      ];
    });
    if (rows.length < batchSize) return;
    cursor = keyOf(rows[rows.length - 1], f.ordering);
  }
}
