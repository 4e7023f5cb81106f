/**
 * What the framed job list takes from its URL besides the list's filters: the host page's
 * campaign parameters, which /embed.js forwards and the job links carry on, so an application
 * through an embed is attributed to the host page's campaign (or to `embed` when it has none).
 */
import * as z from 'zod/mini';
import { cleanCampaignValue } from '../shared/campaign.js';

export const CAMPAIGN_NAMES = ['utm_source', 'utm_medium', 'utm_campaign'] as const;

const campaignValue = () => z.catch(z.string().check(z.overwrite(cleanCampaignValue)), '');

export const campaignSchema = z.object({ utm_source: campaignValue(), utm_medium: campaignValue(), utm_campaign: campaignValue() });
