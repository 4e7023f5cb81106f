/** Shapes of the pipeline shared with islands (the job-board island); Node-free. */
import type { BoardColumn, Stage } from '../applicants/types.js';

/** GET /api/hr/jobs/{id}/board/. */
export interface Board {
  job: { id: number; title: string; public_id: string; status: string };
  columns: BoardColumn[];
  reasons: string[];
}

/** What the board island starts with. */
export interface BoardProps {
  board: Board;
  stages: Stage[];
  filters: { q: string; status: string; date_from: string; date_to: string; source: string; stage: string };
  /** The sources applications came from (the applicants list's), for the source filter's list. */
  sources?: string[];
  /** Whether the viewer may use talent pools (admins and recruiters: each card offers "Add to pool"); set by the page. */
  pools?: boolean;
}
