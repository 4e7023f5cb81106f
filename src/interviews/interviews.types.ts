/** The shapes of interviews (issue 32) shared by the API and the islands. Node-free. */

export const INTERVIEW_TYPES = ['phone', 'video', 'onsite', 'other'] as const;
export type InterviewType = (typeof INTERVIEW_TYPES)[number];

export const INTERVIEW_TYPE_LABELS: Record<InterviewType, string> = {
  phone: 'Phone',
  video: 'Video',
  onsite: 'On-site',
  other: 'Other',
};

export type InterviewStatus = 'scheduled' | 'cancelled';

/** What a participant's calendar answered (needs-action until it does). */
export type InterviewResponse = 'needs-action' | 'accepted' | 'declined' | 'tentative';

export interface Interviewer {
  /** An HR user's id; null for an outside person. */
  user_id: number | null;
  email: string;
  name: string;
  response: InterviewResponse;
}

/** An interview as the API answers it; times in UTC (ISO 8601 with `Z`). */
export interface Interview {
  id: number;
  application_id: number;
  stage_id: number | null;
  stage_name: string;
  kit_id: number | null;
  type: InterviewType;
  starts_at: string;
  ends_at: string;
  time_zone: string;
  location: string | null;
  video_url: string | null;
  candidate_notes: string | null;
  status: InterviewStatus;
  sequence: number;
  booked_by_candidate: boolean;
  interviewers: Interviewer[];
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

/** What scheduling at this time collides with: another interview (overlap), working hours or a calendar's busy time. */
export interface InterviewWarning {
  kind: 'overlap' | 'outside_hours' | 'busy';
  interviewer: string;
  detail: string;
}

/** POST and PATCH answers. */
export interface InterviewAnswer {
  interview: Interview;
  warnings: InterviewWarning[];
}
