/** Shapes of interviewer availability (issue 32) shared with the islands: settings, calendar sources, found slots. Node-free. */

/** An interviewer's working hours and limits (no row: DEFAULT_SETTINGS). */
export interface InterviewerSettings {
  time_zone: string;
  /** ISO weekdays, Monday 1 … Sunday 7, ascending. */
  work_days: number[];
  work_start: string;
  work_end: string;
  buffer_before_minutes: number;
  buffer_after_minutes: number;
  min_notice_minutes: number;
}

/** What an interviewer without settings works: UTC, Monday to Friday, 09:00–17:00, no buffers, no notice. */
export const DEFAULT_SETTINGS: InterviewerSettings = {
  time_zone: 'UTC',
  work_days: [1, 2, 3, 4, 5],
  work_start: '09:00',
  work_end: '17:00',
  buffer_before_minutes: 0,
  buffer_after_minutes: 0,
  min_notice_minutes: 0,
};

/** GET/PUT …/settings/: the settings, and whether they are the defaults (no row saved yet). */
export interface SettingsAnswer extends InterviewerSettings {
  user_id: number;
  is_default: boolean;
}

export const CALENDAR_KINDS = ['ical', 'caldav'] as const;
export type CalendarKind = (typeof CALENDAR_KINDS)[number];

/** A calendar source as answered: never its address, only `url_hint`. */
export interface CalendarSource {
  id: number;
  kind: CalendarKind;
  label: string;
  url_hint: string;
  has_credentials: boolean;
  created_at: string;
  last_fetched_at: string | null;
  last_error: string | null;
}

export interface Slot {
  starts_at: string;
  ends_at: string;
}

/** A calendar that could not be read while finding slots: its owner counted as free there. */
export interface FindTimeWarning {
  kind: 'calendar';
  user_id: number;
  interviewer: string;
  detail: string;
}

export interface FindTimeAnswer {
  slots: Slot[];
  time_zone: string;
  warnings: FindTimeWarning[];
}

/** The Find a time page's choices: HR users who may interview. */
export interface InterviewerChoice {
  id: number;
  name: string;
  email: string;
}
