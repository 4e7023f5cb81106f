/** Shapes of the candidates feature shared with islands (Node-free): the status page's texts (issue 35). */

/** A stage's text as the Status texts page edits it: the built-in one until an admin writes one. */
export interface StageStatusText {
  /** The stage's name as jobs write it ("Screen"). */
  stage: string;
  text: string;
  /** The text candidates read when none is written. */
  default_text: string;
  /** Whether an admin wrote it (false: the default is shown). */
  custom: boolean;
}

/** An open erasure request as HR's list shows it. */
export interface ErasureRequest {
  id: number;
  person_id: number;
  name: string;
  email: string;
  applications: number;
  requested_at: string;
}
