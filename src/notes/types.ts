/** Shapes of notes shared with islands (the applicant-notes island); Node-free. */
import type { HrActor } from '../applicants/types.js';

/** One note on an application (GET/POST /api/hr/applications/{id}/notes/). `text` is plain text, never HTML. */
export interface ApplicationNote {
  id: number;
  application_id: number;
  text: string;
  author: HrActor | null;
  created_at: string;
  updated_at: string;
  /** True once the text was changed after it was written. */
  edited: boolean;
  /** The caller wrote it: only then may they edit or delete it. */
  mine: boolean;
}
