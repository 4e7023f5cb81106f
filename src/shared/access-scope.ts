/**
 * What a signed-in HR user may see (issue 31), as the teams feature's access module works it out
 * (src/teams/access.service.ts) and the lists, dashboards and exports of other features filter by:
 * `null` is no limit; a list limits to those ids (empty: nothing). Node-free.
 */
export interface AccessScope {
  /** The jobs whose data may be listed; null: every job. */
  jobIds: readonly number[] | null;
  /** The applications that may be listed; null: every application of those jobs. */
  applicationIds: readonly number[] | null;
}

/** No limit: admins and recruiters. */
export const FULL_ACCESS: AccessScope = { jobIds: null, applicationIds: null };
