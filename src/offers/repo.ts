/**
 * The only code touching the offers feature's tables (issue 34): offers, offer_approvals,
 * offer_approval_chains and offer_templates (migration 040). Dates, booleans, numbers and JSON
 * are converted here (MySQL and SQLite hand them back differently).
 */
import type { Knex } from 'knex';
import { fromDbBool, fromDbDate, fromDbJson, fromDbNumber, insertedId, toDbDate, toDbJson } from '../db/codecs.js';
import type { SalaryPeriod } from '../shared/enums.js';
import type { ChainInput, OfferInput, TemplateInput } from './schema.js';
import type { ApprovalDecision, ApprovalMode, OfferStatus, OfferTemplate } from './types.js';

type Row = Record<string, any>;

export interface OfferRow {
  id: number;
  application_id: number;
  job_id: number;
  status: OfferStatus;
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
  approval_needed: boolean | null;
  approval_mode: ApprovalMode | null;
  approvals_required: number | null;
  rejection_comment: string;
  token_hash: string | null;
  pdf_key: string | null;
  pdf_sha256: string | null;
  signed_pdf_key: string | null;
  signed_name: string | null;
  signer_address_hash: string | null;
  decline_reason: string;
  withdraw_reason: string;
  created_by: number | null;
  sent_by: number | null;
  sent_at: Date | null;
  decided_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

function offerOf(r: Row): OfferRow {
  return {
    id: Number(r.id),
    application_id: Number(r.application_id),
    job_id: Number(r.job_id),
    status: r.status,
    version: Number(r.version),
    base_pay: fromDbNumber(r.base_pay) ?? 0,
    salary_period: r.salary_period,
    currency: r.currency,
    start_date: r.start_date,
    expires_on: r.expires_on,
    bonus: r.bonus ?? '',
    equity: r.equity ?? '',
    benefits: r.benefits ?? '',
    template_id: r.template_id === null ? null : Number(r.template_id),
    letter: r.letter ?? '',
    approval_needed: r.approval_needed === null || r.approval_needed === undefined ? null : fromDbBool(r.approval_needed),
    approval_mode: r.approval_mode ?? null,
    approvals_required: r.approvals_required === null || r.approvals_required === undefined ? null : Number(r.approvals_required),
    rejection_comment: r.rejection_comment ?? '',
    token_hash: r.token_hash ?? null,
    pdf_key: r.pdf_key ?? null,
    pdf_sha256: r.pdf_sha256 ?? null,
    signed_pdf_key: r.signed_pdf_key ?? null,
    signed_name: r.signed_name ?? null,
    signer_address_hash: r.signer_address_hash ?? null,
    decline_reason: r.decline_reason ?? '',
    withdraw_reason: r.withdraw_reason ?? '',
    created_by: r.created_by === null ? null : Number(r.created_by),
    sent_by: r.sent_by === null ? null : Number(r.sent_by),
    sent_at: fromDbDate(r.sent_at),
    decided_at: fromDbDate(r.decided_at),
    created_at: fromDbDate(r.created_at)!,
    updated_at: fromDbDate(r.updated_at)!,
  };
}

export async function findOffer(db: Knex, id: number, lock = false): Promise<OfferRow | null> {
  const q = db('offers').where({ id }).first();
  if (lock && db.client.config.client === 'mysql2') q.forUpdate();
  const r = await q;
  return r ? offerOf(r) : null;
}

export async function findOfferByToken(db: Knex, tokenHash: string): Promise<OfferRow | null> {
  const r = await db('offers').where({ token_hash: tokenHash }).first();
  return r ? offerOf(r) : null;
}

export async function offersOfApplication(db: Knex, applicationId: number): Promise<OfferRow[]> {
  return (await db('offers').where({ application_id: applicationId }).orderBy('id', 'desc')).map(offerOf);
}

/** Locks the application's row until the transaction ends (MySQL; SQLite's writes are one at a time): one offer made at a time. */
export async function lockApplication(trx: Knex, applicationId: number): Promise<void> {
  if (trx.client.config.client === 'mysql2') await trx('applications').where({ id: applicationId }).forUpdate().first('id');
}

/** Whether the application has an offer that is neither answered, expired nor withdrawn. */
export async function hasOpenOffer(db: Knex, applicationId: number): Promise<boolean> {
  const r = await db('offers')
    .where({ application_id: applicationId })
    .whereIn('status', ['draft', 'pending_approval', 'approved', 'sent'])
    .first('id');
  return !!r;
}

export async function insertOffer(
  trx: Knex,
  v: Omit<OfferInput, 'template_id' | 'letter'> & {
    application_id: number;
    job_id: number;
    template_id: number | null;
    letter: string;
    created_by: number;
  },
  now: Date,
): Promise<number> {
  const at = toDbDate(now);
  const result = await trx('offers').insert({ ...v, status: 'draft', version: 1, created_at: at, updated_at: at });
  return insertedId(result);
}

/** Writes `changes` when the offer is still at `version` with one of `statuses`; false when it moved on meanwhile. */
export async function updateOffer(
  trx: Knex,
  id: number,
  guard: { version?: number; statuses?: readonly OfferStatus[] },
  changes: Partial<Omit<OfferRow, 'id' | 'sent_at' | 'decided_at' | 'created_at' | 'updated_at'>> & { sent_at?: Date; decided_at?: Date },
  now: Date,
): Promise<boolean> {
  const q = trx('offers').where({ id });
  if (guard.version !== undefined) q.where({ version: guard.version });
  if (guard.statuses) q.whereIn('status', guard.statuses as string[]);
  const row: Row = { ...changes, updated_at: toDbDate(now) };
  if (changes.sent_at) row.sent_at = toDbDate(changes.sent_at);
  if (changes.decided_at) row.decided_at = toDbDate(changes.decided_at);
  return (await q.update(row)) === 1;
}

/** Sent offers whose expiry date is before `today` (YYYY-MM-DD), at most `limit`. */
export async function expiredSentOffers(db: Knex, today: string, limit: number): Promise<OfferRow[]> {
  return (await db('offers').where({ status: 'sent' }).where('expires_on', '<', today).orderBy('id').limit(limit)).map(offerOf);
}

// Approvals

export interface ApprovalRow {
  id: number;
  offer_id: number;
  version: number;
  position: number;
  approver_id: number;
  decision: ApprovalDecision;
  comment: string;
  token_hash: string | null;
  asked_at: Date | null;
  decided_at: Date | null;
}

const approvalOf = (r: Row): ApprovalRow => ({
  id: Number(r.id),
  offer_id: Number(r.offer_id),
  version: Number(r.version),
  position: Number(r.position),
  approver_id: Number(r.approver_id),
  decision: r.decision,
  comment: r.comment ?? '',
  token_hash: r.token_hash ?? null,
  asked_at: fromDbDate(r.asked_at),
  decided_at: fromDbDate(r.decided_at),
});

export async function approvalsOf(db: Knex, offerId: number, version: number): Promise<ApprovalRow[]> {
  return (await db('offer_approvals').where({ offer_id: offerId, version }).orderBy('position').orderBy('id')).map(approvalOf);
}

export async function findApprovalByToken(db: Knex, tokenHash: string): Promise<ApprovalRow | null> {
  const r = await db('offer_approvals').where({ token_hash: tokenHash }).first();
  return r ? approvalOf(r) : null;
}

export async function insertApprovals(trx: Knex, offerId: number, version: number, approverIds: number[], now: Date): Promise<void> {
  if (!approverIds.length) return;
  const at = toDbDate(now);
  await trx('offer_approvals').insert(
    approverIds.map((approver_id, position) => ({
      offer_id: offerId,
      version,
      position,
      approver_id,
      decision: 'PENDING',
      created_at: at,
    })),
  );
}

/** Marks an approval as asked, with its link's hash. */
export async function askApproval(trx: Knex, id: number, tokenHash: string, now: Date): Promise<void> {
  await trx('offer_approvals')
    .where({ id })
    .update({ token_hash: tokenHash, asked_at: toDbDate(now) });
}

/** Records a decision on a pending approval; false when it was decided meanwhile. Its link dies. */
export async function decideApprovalRow(
  trx: Knex,
  id: number,
  decision: 'APPROVED' | 'REJECTED',
  comment: string,
  now: Date,
): Promise<boolean> {
  const n = await trx('offer_approvals')
    .where({ id, decision: 'PENDING' })
    .update({ decision, comment, decided_at: toDbDate(now), token_hash: null });
  return n === 1;
}

/** Kills the links of an offer's approvals still pending (a change restarts them, a withdrawal ends them). */
export async function closePendingApprovals(trx: Knex, offerId: number): Promise<void> {
  await trx('offer_approvals').where({ offer_id: offerId, decision: 'PENDING' }).update({ token_hash: null });
}

// Chains

export interface ChainRow {
  job_id: number | null;
  mode: ApprovalMode;
  required: number;
  approver_ids: number[] | null;
  only_out_of_range: boolean;
}

const chainOf = (r: Row): ChainRow => ({
  job_id: r.job_id === null ? null : Number(r.job_id),
  mode: r.mode,
  required: Number(r.required),
  approver_ids: fromDbJson<number[] | null>(r.approver_ids, null),
  only_out_of_range: fromDbBool(r.only_out_of_range),
});

const scopeOf = (jobId: number | null) => (jobId === null ? 'default' : `job:${jobId}`);

/** A job's own chain (or the default one, null), or null when it has none. */
export async function findChain(db: Knex, jobId: number | null): Promise<ChainRow | null> {
  const r = await db('offer_approval_chains')
    .where({ scope: scopeOf(jobId) })
    .first();
  return r ? chainOf(r) : null;
}

export async function listChains(db: Knex): Promise<ChainRow[]> {
  return (await db('offer_approval_chains').orderByRaw('job_id IS NULL DESC').orderBy('job_id')).map(chainOf);
}

export async function saveChain(trx: Knex, jobId: number | null, input: ChainInput, now: Date): Promise<void> {
  const row = {
    scope: scopeOf(jobId),
    job_id: jobId,
    mode: input.mode,
    required: input.required,
    approver_ids: input.approver_ids === null ? null : toDbJson(input.approver_ids),
    only_out_of_range: input.only_out_of_range,
    updated_at: toDbDate(now),
  };
  await trx('offer_approval_chains').insert(row).onConflict('scope').merge();
}

export async function removeChain(trx: Knex, jobId: number): Promise<boolean> {
  return (
    (await trx('offer_approval_chains')
      .where({ scope: scopeOf(jobId) })
      .delete()) > 0
  );
}

// Templates

const templateOf = (r: Row): OfferTemplate => ({
  id: Number(r.id),
  name: r.name,
  body: r.body,
  is_default: fromDbBool(r.is_default),
  created_at: fromDbDate(r.created_at)!.toISOString(),
  updated_at: fromDbDate(r.updated_at)!.toISOString(),
});

export async function listTemplates(db: Knex): Promise<OfferTemplate[]> {
  return (await db('offer_templates').orderBy('is_default', 'desc').orderBy('name').orderBy('id')).map(templateOf);
}

export async function findTemplate(db: Knex, id: number): Promise<OfferTemplate | null> {
  const r = await db('offer_templates').where({ id }).first();
  return r ? templateOf(r) : null;
}

export async function defaultTemplate(db: Knex): Promise<OfferTemplate | null> {
  const r = await db('offer_templates').orderBy('is_default', 'desc').orderBy('id').first();
  return r ? templateOf(r) : null;
}

export async function countTemplates(db: Knex): Promise<number> {
  const [r] = await db('offer_templates').count({ n: '*' });
  return Number(r.n);
}

export async function insertTemplate(trx: Knex, input: TemplateInput, now: Date): Promise<number> {
  const at = toDbDate(now);
  return insertedId(await trx('offer_templates').insert({ ...input, is_default: false, created_at: at, updated_at: at }));
}

export async function updateTemplate(trx: Knex, id: number, input: TemplateInput, now: Date): Promise<boolean> {
  return (
    (await trx('offer_templates')
      .where({ id })
      .update({ ...input, updated_at: toDbDate(now) })) === 1
  );
}

/** Removes a template; when it was the default, the oldest left becomes the default. */
export async function deleteTemplate(trx: Knex, id: number): Promise<boolean> {
  const row = await trx('offer_templates').where({ id }).first('is_default');
  if (!row) return false;
  await trx('offer_templates').where({ id }).delete();
  if (fromDbBool(row.is_default)) {
    const next = await trx('offer_templates').orderBy('id').first('id');
    if (next) await trx('offer_templates').where({ id: next.id }).update({ is_default: true });
  }
  return true;
}

/**
 * The file record of a stored offer PDF (`stored_files`, as every stored file has one): the orphan
 * sweep keeps only the files a row points at. Erasing or purging the application deletes these
 * rows (src/applicants/retention.repo.ts), and the sweep then removes the files.
 */
export async function insertPdfRecord(
  trx: Knex,
  file: { key: string; name: string; size: number; sha256: string },
  now: Date,
): Promise<void> {
  await trx('stored_files').insert({
    storage_key: file.key,
    original_name: file.name,
    content_type: 'application/pdf',
    size: file.size,
    sha256: file.sha256,
    created_at: toDbDate(now),
  });
}
