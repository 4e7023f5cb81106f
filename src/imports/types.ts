/** Shapes of the imports feature shared with the island (Node-free): a candidate import's report (issue 35). */

/** One row of the file, by its line number in the file (the header is line 1). */
export interface ImportRow {
  line: number;
  email: string;
  name: string;
  job: string;
}

export interface ImportReport {
  /** Data rows in the file. */
  rows: number;
  /** Rows written as new applications (or that would be, in a dry run or when refused rows stopped the run). */
  imported: (ImportRow & { application_id: number | null; note: string | null })[];
  /** Rows whose person already applied to that job: their notes go to that application. */
  merged: (ImportRow & { application_id: number })[];
  refused: (ImportRow & { reason: string })[];
  dry_run: boolean;
  partial: boolean;
  /** Whether anything was written: false in a dry run, and when a row was refused without --partial. */
  written: boolean;
}
