/** The offers feature's shapes (issue 34), shared with its islands; Node-free. */
import type { SalaryPeriod } from '../shared/enums.js';

/** An offer's life: draft → pending_approval → approved → sent → accepted, declined, expired or withdrawn. */
const OFFER_STATUSES = ['draft', 'pending_approval', 'approved', 'sent', 'accepted', 'declined', 'expired', 'withdrawn'] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];

export const OFFER_STATUS_LABELS: Record<OfferStatus, string> = {
  draft: 'Draft',
  pending_approval: 'Pending approval',
  approved: 'Approved',
  sent: 'Sent',
  accepted: 'Accepted',
  declined: 'Declined',
  expired: 'Expired',
  withdrawn: 'Withdrawn',
};

/** The statuses in which the offer's terms may still change (a change after an approval restarts it). */
export const EDITABLE_STATUSES: readonly OfferStatus[] = ['draft', 'pending_approval', 'approved'];
/** The statuses from which an offer may be withdrawn. */
export const WITHDRAWABLE_STATUSES: readonly OfferStatus[] = ['draft', 'pending_approval', 'approved', 'sent'];

/** What an offer letter may use besides the email templates' variables: the offer's own terms. */
export const OFFER_VARIABLES = ['base_pay', 'pay_period', 'currency', 'start_date', 'expiry_date', 'bonus', 'equity', 'benefits'] as const;

export const APPROVAL_MODES = ['ORDER', 'ANY'] as const;
export type ApprovalMode = (typeof APPROVAL_MODES)[number];

export type ApprovalDecision = 'PENDING' | 'APPROVED' | 'REJECTED';

/** One approver's say on the offer's current version. */
export interface OfferApproval {
  id: number;
  position: number;
  approver_id: number;
  approver: string;
  decision: ApprovalDecision;
  comment: string;
  /** Whether this approver is asked now (in an ORDER chain, only the first one not decided yet). */
  asked: boolean;
  decided_at: string | null;
}

/** An offer as the API answers it. */
export interface Offer {
  id: number;
  application_id: number;
  job_id: number;
  status: OfferStatus;
  status_label: string;
  version: number;
  base_pay: number;
  salary_period: SalaryPeriod;
  currency: string;
  start_date: string;
  expires_on: string;
  bonus: string;
  equity: string;
  benefits: string;
  template_id: number | null;
  letter: string;
  /** Whether the offer needed approval when it was submitted (null: not submitted yet). */
  approval_needed: boolean | null;
  /** Whether the pay is inside the job's range (null: the job has no range in this currency). */
  in_range: boolean | null;
  rejection_comment: string;
  approvals: OfferApproval[];
  /** Whether the asker may approve or reject now. */
  can_decide: boolean;
  sent_at: string | null;
  decided_at: string | null;
  signed_name: string | null;
  pdf_sha256: string | null;
  decline_reason: string;
  withdraw_reason: string;
  created_at: string;
  updated_at: string;
}

/** An offer template (GET /api/hr/offer-templates/). */
export interface OfferTemplate {
  id: number;
  name: string;
  body: string;
  is_default: boolean;
  created_at: string;
  updated_at: string;
}

/** An approval chain (GET /api/hr/offer-approval-chains/): the default one (job_id null) or a job's. */
export interface ApprovalChain {
  job_id: number | null;
  mode: ApprovalMode;
  required: number;
  /** HR user ids in order; null: any admin. */
  approver_ids: number[] | null;
  only_out_of_range: boolean;
  /** A job's chain that is the default one (the job has none of its own). */
  inherited: boolean;
}
