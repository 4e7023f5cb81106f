/** Shapes of interview kits, scorecards and the debrief shared by the API and the islands (issue 31). Node-free. */

/** The overall recommendations, worst first, and how screens say them. */
export const RECOMMENDATIONS = ['strong_no', 'no', 'yes', 'strong_yes'] as const;
export type Recommendation = (typeof RECOMMENDATIONS)[number];
export const RECOMMENDATION_LABELS: Record<Recommendation, string> = {
  strong_no: 'Strong no',
  no: 'No',
  yes: 'Yes',
  strong_yes: 'Strong yes',
};

/** The debrief's decisions. */
export const DECISIONS = ['advance', 'reject', 'offer'] as const;
export type Decision = (typeof DECISIONS)[number];

/** An attribute to rate, with what each rating from 1 to 4 means (levels[0] is what a 1 means). */
export interface KitAttribute {
  name: string;
  levels: [string, string, string, string];
}

/** What a kit holds, in a template or a job's stage. */
export interface KitContent {
  instructions: string;
  questions: string[];
  attributes: KitAttribute[];
}

export interface KitTemplate extends KitContent {
  id: number;
  name: string;
  created_at: string;
  updated_at: string;
}

/** A job's kit for a stage. */
interface InterviewKit extends KitContent {
  template_id: number | null;
  updated_at: string;
}

/** A job's stages, each with its kit (null: none yet). */
export interface JobKits {
  job: { id: number; title: string };
  stages: { stage_id: number; stage_name: string; kit: InterviewKit | null }[];
}

/** One attribute's rating (1-4, null: no evidence) and note. */
export interface AttributeRating {
  attribute: string;
  rating: number | null;
  note: string;
}

interface ScorecardAmendment {
  id: number;
  note: string;
  author: string | null;
  created_at: string;
}

/**
 * A scorecard as one viewer may see it. `content_hidden`: its ratings, notes and recommendation
 * are left out (`ratings` empty, `recommendation` null) because the viewer has not submitted their
 * own scorecard on this application yet, or because it is someone else's draft.
 */
export interface Scorecard {
  id: number;
  application_id: number;
  stage_id: number;
  stage_name: string;
  interviewer: { user_id: number | null; name: string; email: string | null };
  interview_at: string | null;
  requested_at: string;
  requested_by: string | null;
  status: 'draft' | 'submitted';
  submitted_at: string | null;
  /** Until when the author may still edit it after submitting (null: a draft). */
  editable_until: string | null;
  overdue: boolean;
  mine: boolean;
  content_hidden: boolean;
  hidden_reason: string | null;
  ratings: AttributeRating[];
  recommendation: Recommendation | null;
  amendments: ScorecardAmendment[];
  /** The stage's kit when the viewer may fill this scorecard in (their own), else null. */
  kit: KitContent | null;
  /** Answering a request to an outside interviewer: whether their link was emailed (not when email is off). */
  feedback_link?: 'emailed' | 'not_emailed';
}

export interface ScorecardList {
  results: Scorecard[];
  /** True when the viewer's own unsubmitted scorecard hides the others'. */
  blind: boolean;
}

/** The debrief: every submitted scorecard of a stage side by side. */
export interface Debrief {
  stages: DebriefStage[];
  decisions: DebriefDecision[];
  /** Null when the viewer still has a scorecard to submit (blind until then). */
  hidden_reason: string | null;
}

interface DebriefStage {
  stage_id: number;
  stage_name: string;
  interviewers: { scorecard_id: number; name: string; recommendation: Recommendation; submitted_at: string }[];
  attributes: { name: string; min: number | null; max: number | null; ratings: (number | null)[] }[];
}

interface DebriefDecision {
  id: number;
  stage_name: string;
  decision: Decision;
  reason: string | null;
  by: string | null;
  created_at: string;
}

/** What the applicant page's Scorecards section offers: the job's stages (with whether each has a kit), HR users to ask, the rejection reasons. */
export interface ScorecardChoices {
  stages: { id: number; name: string; has_kit: boolean; current: boolean }[];
  interviewers: { id: number; username: string }[];
  reasons: string[];
}

/** An overdue scorecard on the dashboard. */
export interface OverdueScorecard {
  id: number;
  application_id: number;
  applicant: string;
  job_title: string;
  stage_name: string;
  interviewer: string;
  due_at: string;
  /** Its one reminder email was queued. */
  reminded: boolean;
}
