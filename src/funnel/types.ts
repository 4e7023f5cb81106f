/** The apply funnel's names and the HR read's shape; Node-free, shared with the wizard and the insights island. */

/** The wizard's steps, in order, each with a stable key (the Questions step only when the job has questions). */
export const WIZARD_STEPS = ['basic', 'experience', 'education_skills', 'questions', 'review'] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];

export const WIZARD_STEP_LABELS: Record<WizardStep, string> = {
  basic: 'Basic Info',
  experience: 'Experience',
  education_skills: 'Education & Skills',
  questions: 'Questions',
  review: 'Review',
};

/** What a wizard beacon reports about a step: shown for the first time, or left with a valid Next (Submit on Review). */
export const FUNNEL_EVENTS = ['reached', 'completed'] as const;
export type FunnelEvent = (typeof FUNNEL_EVENTS)[number];

/** Device classes: phone (any mobile or tablet browser) and desktop (the rest). */
export const DEVICES = ['phone', 'desktop'] as const;
export type Device = (typeof DEVICES)[number];

/**
 * Every counted stage: the job page, its Apply page, the wizard's steps, an application accepted
 * from the wizard ('submitted') and one that came another way ('submitted_direct': the API, another
 * site's form), counted apart so the funnel's drops stay those of the wizard.
 */
export type FunnelStage = 'view' | 'apply' | WizardStep | 'submitted' | 'submitted_direct';

/** The request header the wizard's POST carries, telling its applications from the API's. */
export const WIZARD_SUBMIT_HEADER = 'X-Apply-Wizard';

/** One line of the funnel: a count and what was lost since the line before it. */
export interface FunnelLine {
  key: string;
  label: string;
  count: number;
  /** The line before it minus this one, never below 0 (null on the first line). */
  drop: number | null;
  /** That drop as a percent of the line before it, 0 to 100 (null on the first line or when it was 0). */
  drop_percent: number | null;
}

export interface FunnelFigures {
  views: number;
  apply_clicks: number;
  steps: { step: WizardStep; label: string; reached: number; completed: number }[];
  submitted: number;
  /** Applications accepted without the wizard (the API, other sites' forms): not part of the lines. */
  submitted_direct: number;
  /** Views, Apply clicks, each step reached and completed, submitted, in order. */
  lines: FunnelLine[];
}

/** GET /api/hr/jobs/{id}/funnel/: the last `days` UTC days, today included. */
export interface JobFunnel {
  job_id: number;
  days: number;
  /** First and last UTC day counted, 'YYYY-MM-DD'. */
  from: string;
  to: string;
  overall: FunnelFigures;
  devices: Record<Device, FunnelFigures>;
}
