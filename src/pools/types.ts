/** Shapes of the talent pools feature shared with islands (Node-free): issue 35. */

export interface TalentPool {
  id: number;
  name: string;
  members: number;
  /** Members whose consent to be kept holds now. */
  consented: number;
}

/** `POST /api/hr/pools/{id}/members/`'s answer: people new to the pool, people in it already, and the application ids not found. */
export interface AddedToPool {
  added: number;
  already: number;
  not_found: number[];
}

/** Where a member's consent stands: given and holding, asked and not given yet, or run out. */
export type ConsentState = 'given' | 'waiting' | 'expired';

export interface PoolMember {
  person_id: number;
  name: string;
  email: string;
  reason: string;
  added_at: string;
  consent: ConsentState;
  consent_until: string | null;
  /** The application to open (the latest). */
  application_id: number;
}

/** A member offered for a job, with why. */
export interface PoolMatch {
  person_id: number;
  name: string;
  pool: string;
  reason: string;
  added_at: string;
  /** "Same department (Finance)" or "Title words: payroll, lead". */
  why: string;
  /** The furthest stage any of their applications reached, and in which job. */
  furthest_stage: string | null;
  /** The average rating (1 to 4) of their submitted scorecards, or null. */
  scorecard_average: number | null;
  application_id: number;
  invited_at: string | null;
}
