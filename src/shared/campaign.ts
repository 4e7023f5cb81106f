/**
 * Campaign values (utm_source, utm_medium, utm_campaign, src) as they are kept: control and
 * format characters and runs of spaces as one space, cut to CAMPAIGN_MAX_LENGTH characters. They
 * come from links anyone can write, so nothing else is trusted about them.
 */
export const CAMPAIGN_MAX_LENGTH = 100;

export function cleanCampaignValue(value: unknown): string {
  if (typeof value !== 'string') return '';
  return [...value.replace(/[\p{C}\s]+/gu, ' ').trim()].slice(0, CAMPAIGN_MAX_LENGTH).join('').trim();
}

/** Where an application came from: the first touch kept in the applicant's cookie. */
export interface Attribution {
  source: string;
  medium: string;
  campaign: string;
  /** The tracking link it came through, if any. */
  linkId: number | null;
}
