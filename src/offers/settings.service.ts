/**
 * What admins keep for offers (issue 34): the offer templates (letters with the email templates'
 * variables and the offer's, under the rich-text rules) and the approval chains (the default one
 * and any job's own). Reading them is open to whoever makes offers; changes are admins' (api.ts).
 */
import type { Db } from '../db/knex.js';
import { listJobChoices } from '../jobs/index.js';
import { withDbRetry } from '../db/errors.js';
import { HttpError, NotFound, ValidationError } from '../http/errors.js';
import { sanitizeRichText } from '../shared/sanitize.js';
import { approverChoices, hrUsers, jobFacts } from './queries.js';
import {
  countTemplates,
  deleteTemplate,
  findChain,
  findTemplate,
  insertTemplate,
  listChains,
  listTemplates,
  removeChain,
  saveChain,
  updateTemplate,
} from './repo.js';
import { OFFER_LIMITS, OFFER_MESSAGES as M, type ChainInput, type TemplateInput } from './schema.js';
import type { ApprovalChain, OfferTemplate } from './types.js';

const conflict = (detail: string) => new HttpError(409, detail, { detail });

export function offerTemplates(db: Db): Promise<OfferTemplate[]> {
  return listTemplates(db);
}

export async function offerTemplate(db: Db, id: number): Promise<OfferTemplate> {
  const t = await findTemplate(db, id);
  if (!t) throw new NotFound(M.templateNotFound);
  return t;
}

function cleanBody(input: TemplateInput): TemplateInput {
  const body = sanitizeRichText(input.body);
  if (!body) throw new ValidationError({ body: [M.letterEmpty] });
  return { name: input.name, body };
}

export async function createOfferTemplate(db: Db, input: TemplateInput, now: Date): Promise<OfferTemplate> {
  const clean = cleanBody(input);
  if ((await countTemplates(db)) >= OFFER_LIMITS.templates) throw new ValidationError({}, M.tooManyTemplates);
  const id = await withDbRetry(() => db.transaction((trx) => insertTemplate(trx, clean, now)));
  return offerTemplate(db, id);
}

export async function replaceOfferTemplate(db: Db, id: number, input: TemplateInput, now: Date): Promise<OfferTemplate> {
  const clean = cleanBody(input);
  if (!(await withDbRetry(() => db.transaction((trx) => updateTemplate(trx, id, clean, now))))) throw new NotFound(M.templateNotFound);
  return offerTemplate(db, id);
}

/** Removes a template (offers made from it keep their letters); the last one stays. */
export async function removeOfferTemplate(db: Db, id: number): Promise<void> {
  await withDbRetry(() =>
    db.transaction(async (trx) => {
      if (!(await findTemplate(trx, id))) throw new NotFound(M.templateNotFound);
      if ((await countTemplates(trx)) <= 1) throw conflict(M.lastTemplate);
      await deleteTemplate(trx, id);
    }),
  );
}

const chainView = (
  c: { job_id: number | null; mode: ChainInput['mode']; required: number; approver_ids: number[] | null; only_out_of_range: boolean },
  inherited: boolean,
  jobId: number | null,
): ApprovalChain => ({
  job_id: jobId,
  mode: c.mode,
  required: c.required,
  approver_ids: c.approver_ids,
  only_out_of_range: c.only_out_of_range,
  inherited,
});

const FALLBACK = { job_id: null, mode: 'ANY' as const, required: 1, approver_ids: null, only_out_of_range: false };

/** The default chain and every job's own. */
export async function approvalChains(db: Db): Promise<{ results: ApprovalChain[] }> {
  const rows = await listChains(db);
  const hasDefault = rows.some((r) => r.job_id === null);
  return { results: [...(hasDefault ? [] : [chainView(FALLBACK, false, null)]), ...rows.map((r) => chainView(r, false, r.job_id))] };
}

/** The default chain (jobId null) or a job's: its own, else the default one (inherited). */
export async function approvalChain(db: Db, jobId: number | null): Promise<ApprovalChain> {
  if (jobId !== null && !(await jobFacts(db, jobId))) throw new NotFound(M.jobNotFound);
  const own = await findChain(db, jobId);
  if (own) return chainView(own, false, jobId);
  return chainView((await findChain(db, null)) ?? FALLBACK, jobId !== null, jobId);
}

/** Sets the default chain or a job's; every approver must be an active HR user who sees offers. */
export async function putApprovalChain(db: Db, jobId: number | null, input: ChainInput, now: Date): Promise<ApprovalChain> {
  if (jobId !== null && !(await jobFacts(db, jobId))) throw new NotFound(M.jobNotFound);
  if (input.approver_ids) {
    const users = await hrUsers(db, input.approver_ids);
    const errors: Record<string, string[]> = {};
    input.approver_ids.forEach((id, i) => {
      const u = users.get(id);
      if (!u?.is_active || u.role === 'interviewer') errors[`approver_ids.${i}`] = [M.approverUnknown];
    });
    if (Object.keys(errors).length) throw new ValidationError(errors);
  }
  await withDbRetry(() => db.transaction((trx) => saveChain(trx, jobId, input, now)));
  return approvalChain(db, jobId);
}

/** A job goes back to the default chain. */
export async function removeApprovalChain(db: Db, jobId: number): Promise<void> {
  if (!(await jobFacts(db, jobId))) throw new NotFound(M.jobNotFound);
  await withDbRetry(() => db.transaction((trx) => removeChain(trx, jobId)));
}

/** What the offers settings page starts with: the templates, the default chain, who may approve, and the jobs (for a job's own chain). */
export async function offerSettings(db: Db) {
  const [templates, chain, approvers, jobs] = await Promise.all([
    listTemplates(db),
    approvalChain(db, null),
    approverChoices(db),
    listJobChoices(db),
  ]);
  return {
    templates,
    chain,
    approvers,
    jobs: jobs.filter((j) => j.status !== 'REMOVED').map((j) => ({ id: j.id, title: j.title })),
  };
}
