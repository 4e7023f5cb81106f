/** The job alerts feature's shapes (issue 35); Node-free. */
import type { WorkMode } from '../shared/enums.js';

export const ALERT_FREQUENCIES = ['daily', 'weekly'] as const;
export type AlertFrequency = (typeof ALERT_FREQUENCIES)[number];

/** An alert's filters; '' is any. */
export interface AlertFilters {
  department: string;
  location: string;
  work_mode: WorkMode | '';
  keywords: string;
}

type AlertStatus = 'PENDING' | 'ACTIVE';

export interface JobAlert extends AlertFilters {
  id: number;
  email: string;
  frequency: AlertFrequency;
  status: AlertStatus;
  consent_text: string;
  consent_at: Date | null;
  confirm_sent_at: Date | null;
  confirmed_at: Date | null;
  expires_at: Date | null;
  created_at: Date;
}

/** What admins see (issue 35: "a count of active alerts"). */
export interface AlertCounts {
  active: number;
  pending: number;
}
