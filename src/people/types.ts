/** Shapes of the people feature shared with islands (Node-free): one person across jobs (issue 35). */

/** Suggestions per page of the review list (here, not in schema.ts, so the island bundles no zod). */
export const DUPLICATES_PAGE = 20;

/** Why two people are suggested as one: the same phone number, or the same name with the same resume file. */
export type SuggestionReason = 'PHONE' | 'NAME_RESUME';

export const SUGGESTION_REASON_TEXTS: Record<SuggestionReason, string> = {
  PHONE: 'Same phone number',
  NAME_RESUME: 'Same name and the same resume file',
};

/** One application of a person, as the applicant page and the review list show it. */
export interface PersonApplication {
  id: number;
  job_id: number;
  job_title: string;
  email: string;
  status: string;
  /** The stage it is at (null: the job has no pipeline stage for it). */
  stage: string | null;
  /** REJECTED, or null while it is open. */
  outcome: string | null;
  outcome_reason: string | null;
  created_at: string;
}

/** A person as the review list shows one side of a pair: the name and contact of the latest application. */
export interface PersonSummary {
  id: number;
  name: string;
  email: string;
  phone: string;
  applications: PersonApplication[];
}

/** A suggested pair: the newer person and the older one, and why. */
export interface DuplicateSuggestion {
  person: PersonSummary;
  other: PersonSummary;
  reason: SuggestionReason;
  created_at: string;
}

/** GET /api/hr/people/duplicates/: a page of open suggestions, newest first. */
export interface DuplicateList {
  count: number;
  results: DuplicateSuggestion[];
}

/** A merge as POST /api/hr/people/merges/ answers it and the review list's "Recent merges" show it. */
export interface PersonMerge {
  id: number;
  from_person_id: number;
  into_person_id: number;
  /** The names and addresses as they were merged: "Ann Lee <ann@example.com>". */
  from_label: string;
  into_label: string;
  applications_moved: number;
  merged_by: string | null;
  created_at: string;
  /** Until when it may be undone (null once undone). */
  undo_until: string | null;
  undone_at: string | null;
}
