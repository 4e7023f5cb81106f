/** Input rules of the sources feature (tracking links, the report's period); Node-free, the island uses them. */
import * as z from 'zod/mini';
import { cleanCampaignValue } from '../shared/campaign.js';
import { issue } from '../shared/field-errors.js';
import { isBlank, isRowId, oneLine } from '../shared/input-rules.js';

export const SOURCE_MESSAGES = {
  slug: 'Use 1 to 64 lowercase letters, digits and hyphens, starting with a letter or digit.',
  slugTaken: 'This link name is already in use. Choose another.',
  source: 'Enter a source (for example linkedin or referral).',
  job: 'Select a valid job.',
  days: 'Days must be a whole number from 1 to 3650.',
  notFound: 'Tracking link not found.',
} as const;

const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;
export const LINK_NAME_MAX_LENGTH = 191;

const campaignText = () =>
  z.pipe(
    z.transform((v: unknown) => cleanCampaignValue(v ?? '')),
    z.string(),
  );

/** A new tracking link: a name, the source it gives (medium and campaign optional), a job or none, a slug or one made from the name. */
export const trackingLinkSchema = z.object({
  name: oneLine(LINK_NAME_MAX_LENGTH, true),
  source: z.pipe(campaignText(), z.string().check(z.minLength(1, SOURCE_MESSAGES.source))),
  medium: campaignText(),
  campaign: campaignText(),
  // Blank: no job; else a row id (0, negatives, fractions, text: the job message, never zod's own).
  job_id: z.transform((v: unknown, ctx): number | null => {
    if (isBlank(v)) return null;
    if (!isRowId(v)) ctx.issues.push(issue(v, SOURCE_MESSAGES.job));
    return Number(v);
  }),
  slug: z.pipe(
    z.transform((v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase() : (v ?? ''))),
    z.string({ error: SOURCE_MESSAGES.slug }).check(z.refine((s) => s === '' || SLUG_PATTERN.test(s), SOURCE_MESSAGES.slug)),
  ),
});

/** `?days=`: the report's period, 1 to 3650 days back; absent or empty: all time. */
export const sourcesQuerySchema = z.object({
  days: z.pipe(
    z.transform((v: unknown) => (typeof v === 'string' ? v.trim() : '')),
    z.string().check(z.refine((s) => s === '' || (/^\d{1,4}$/.test(s) && Number(s) >= 1 && Number(s) <= 3650), SOURCE_MESSAGES.days)),
  ),
});
