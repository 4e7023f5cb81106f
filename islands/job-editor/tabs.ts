/** The editor's tabs, and which tab and element hold each field of the API's error body. */
import type { QuestionDraft } from './draft.js';

export const TABS = [
  { key: 'basics', label: 'Basics' },
  { key: 'comp', label: 'Compensation' },
  { key: 'desc', label: 'Description' },
  { key: 'qs', label: 'Questions' },
  { key: 'notify', label: 'Notifications' },
  { key: 'team', label: 'Team' },
] as const;
export type TabKey = (typeof TABS)[number]['key'];

const FIELD_TAB: Record<string, TabKey> = {
  public_id: 'basics',
  title: 'basics',
  location: 'basics',
  job_type: 'basics',
  work_mode: 'basics',
  status: 'basics',
  department: 'basics',
  closes_at: 'basics',
  applicant_countries: 'basics',
  currency: 'comp',
  min_salary: 'comp',
  max_salary: 'comp',
  salary_period: 'comp',
  experience_required: 'comp',
  duration: 'comp',
  description: 'desc',
  responsibilities: 'desc',
  requirements: 'desc',
  perks_benefits: 'desc',
  webhook_enabled: 'notify',
  webhook_url: 'notify',
  webhook_secret: 'notify',
  webhook_include_source: 'notify',
};

export function tabOf(field: string): TabKey | null {
  if (field === 'questions' || field.startsWith('questions.')) return 'qs';
  return FIELD_TAB[field] ?? null;
}

/** The element holding a field, to focus after a failed save. */
export function elementIdOf(field: string, questions: QuestionDraft[]): string {
  const m = /^questions\.(\d+)\.(\w+)/.exec(field);
  if (m) {
    const q = questions[Number(m[1])];
    return q ? `q-${q.key}-${m[2] === 'options' ? 'option-0' : m[2]}` : 'questions-list';
  }
  return field === 'questions' ? 'questions-list' : `job-${field}`;
}
