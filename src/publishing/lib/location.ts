/**
 * Where a job is, as the pay rules see it (issue 34). A location is free text ("Austin, TX, United
 * States", "San Francisco, CA", "Remote — Germany"); it is read as the job feeds read it (the jobs
 * feature's parseLocation/remoteCountry: the country is its last part) and split into the parts
 * that may name a region:
 * - the country named last, if any; a remote job's applicant countries instead, when it has some;
 * - the region candidates: the parts before the country, without the first (the town) when there
 *   are two or more ("New York, NY" -> NY, "Washington, DC" -> DC, "California, USA" -> California);
 * - a remote job whose location names a country and no region is open to the whole country, and
 *   so do its applicant countries: every region rule of that country applies to it.
 * A rule of a country applies where that country is named; a rule of a region where the region is
 * named (by its code or name, any case, dots ignored), in its country or where no country is
 * written ("San Francisco, CA" is California: write "Perth, WA, Australia" to be exact).
 */
import { remoteCountry } from '../../jobs/index.js';

export interface Place {
  /** ISO 3166-1 alpha-2, or null when the location names no country. */
  country: string | null;
  /** Parts that may name a region, normalised (regionKey). */
  regions: string[];
  /** Open to the whole country (a remote job): every region rule of the country applies. */
  wholeCountry: boolean;
}

export interface LocatedJob {
  location: string;
  work_mode: string;
  applicant_countries: string[];
}

/** A region as compared: accents and dots dropped, lower case, single spaces. */
function regionKey(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\./g, '').replace(/\s+/g, ' ').trim();
}

/** The location's parts: at commas, brackets, slashes and dashes between spaces, without the words of the work mode. */
function partsOf(location: string): string[] {
  return location
    .replace(/\b(?:remote|work from home|wfh|hybrid|on-?site)\b/gi, ' ')
    .replace(/\s[-\u2013\u2014]+\s|^\s*[-\u2013\u2014]+|[-\u2013\u2014]+\s*$|[\u2013\u2014()[\]:;|/]/g, ',')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
}

/** The places a job's pay rules are looked up for. */
export function jobPlaces(job: LocatedJob): Place[] {
  const parts = partsOf(job.location);
  const country = parts.length ? (remoteCountry(parts.join(', '))?.code ?? null) : null;
  const before = country ? parts.slice(0, -1) : parts;
  const regions = (before.length >= 2 ? before.slice(1) : before).map(regionKey).filter(Boolean);
  if (job.work_mode === 'REMOTE') {
    if (job.applicant_countries.length) return job.applicant_countries.map((c) => ({ country: c, regions: [], wholeCountry: true }));
    return [{ country, regions, wholeCountry: country !== null && regions.length === 0 }];
  }
  return [{ country, regions, wholeCountry: false }];
}

/** The countries a job is in (named or its applicants'), for the rules that follow a country (consent). */
export function jobCountries(places: Place[]): string[] {
  return [...new Set(places.map((p) => p.country).filter((c): c is string => c !== null))];
}

/** Whether a rule of this place applies to a job in these places. */
export function ruleApplies(rule: { country: string; region_code: string; region_name: string }, places: Place[]): boolean {
  return places.some((p) => {
    if (!rule.region_code) return p.country === rule.country;
    if (p.country !== null && p.country !== rule.country) return false;
    if (p.country === rule.country && p.wholeCountry) return true;
    const names = [regionKey(rule.region_code), regionKey(rule.region_name)].filter(Boolean);
    return p.regions.some((r) => names.includes(r));
  });
}
