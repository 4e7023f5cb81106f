/**
 * JobPosting structured data (schema.org) as Google's job-posting guidelines accept it:
 * title, HTML description, datePosted, hiringOrganization (with its logo when COMPANY_LOGO_URL is
 * set), jobLocation (a PostalAddress split from the free-text location) or TELECOMMUTE with the
 * applicant's countries (as HR gave them, else from the location), employmentType from Google's
 * list, baseSalary (per the job's pay period) when a salary is set, validThrough when the job has
 * a closing date, directApply and identifier.
 */
import countries from 'i18n-iso-countries';
import type { Config } from '../../../config/index.js';
import type { JobType } from '../../shared/enums.js';
import { hasRichContent } from '../../shared/format.js';
import type { Job } from '../types.js';

const SECTION_TITLES: [keyof Job, string][] = [
  ['description', 'Job Description'],
  ['responsibilities', 'Responsibilities'],
  ['requirements', 'Requirements'],
  ['perks_benefits', 'Perks & Benefits'],
];

/** Our job types in Google's employmentType vocabulary. */
const GOOGLE_EMPLOYMENT_TYPE: Record<JobType, string> = {
  FULL_TIME: 'FULL_TIME',
  PART_TIME: 'PART_TIME',
  CONTRACT: 'CONTRACTOR',
  INTERNSHIP: 'INTERN',
};

// ---------------------------------------------------------------------------------------------
// Countries: English names (from Intl.DisplayNames) and codes -> ISO 3166-1 alpha-2.

interface Country {
  code: string;
  name: string;
}

/** Two-letter region codes that CLDR names but that are not ISO 3166-1 countries. */
const NOT_COUNTRIES = new Set(['AC', 'CP', 'CQ', 'DG', 'EA', 'EU', 'EZ', 'IC', 'QO', 'TA', 'UN', 'XA', 'XB', 'XK', 'ZZ']);

/** Common ways of writing a country that Intl.DisplayNames does not give. */
const ALIASES: Record<string, string> = {
  us: 'US',
  usa: 'US',
  'united states of america': 'US',
  uk: 'GB',
  'great britain': 'GB',
  britain: 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
  'northern ireland': 'GB',
  uae: 'AE',
  ksa: 'SA',
  turkey: 'TR',
  'czech republic': 'CZ',
  holland: 'NL',
  'ivory coast': 'CI',
  burma: 'MM',
  macau: 'MO',
  'republic of korea': 'KR',
  'viet nam': 'VN',
  russia: 'RU',
  'russian federation': 'RU',
  swaziland: 'SZ',
  'east timor': 'TL',
  'cabo verde': 'CV',
  macedonia: 'MK',
  vatican: 'VA',
  palestine: 'PS',
  'dr congo': 'CD',
  'democratic republic of the congo': 'CD',
  'republic of the congo': 'CG',
  'mainland china': 'CN',
  prc: 'CN',
};

/**
 * Short forms that name no state or province, so they may stand alone or right after a city
 * ("London, UK"). Other two-letter codes are also state or province codes ("San Francisco, CA",
 * "Pune, MH", "Adelaide, SA"), so a bare ISO code is trusted only where a region comes before it
 * ("Toronto, ON, CA").
 */
const SAFE_SHORT_FORMS = new Set(['us', 'usa', 'uk', 'uae', 'ksa', 'prc']);

/** Country names that are also US state names: "Atlanta, Georgia" names no country for sure. */
const AMBIGUOUS_NAMES = new Set(['georgia']);

function normalise(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[’‘`]/g, "'")
    .replace(/&/g, ' and ')
    .replace(/\bsaint\b/g, 'st')
    .replace(/[.]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^the /, '');
}

interface CountryTables {
  byName: Map<string, Country>;
  byCode: Map<string, Country>;
}

let tables: CountryTables | null = null;

function countryTables(): CountryTables {
  if (tables) return tables;
  const long = new Intl.DisplayNames(['en'], { type: 'region' });
  const short = new Intl.DisplayNames(['en'], { type: 'region', style: 'short' });
  const byName = new Map<string, Country>();
  const byCode = new Map<string, Country>();
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  for (const a of letters) {
    for (const b of letters) {
      const code = a + b;
      if (NOT_COUNTRIES.has(code)) continue;
      let name: string | undefined;
      try {
        name = long.of(code);
        // Deprecated codes (DD, SU, UK ...) are names of current ones; keep the current code only.
        if (Intl.getCanonicalLocales(`und-${code}`)[0] !== `und-${code}`) continue;
      } catch {
        continue;
      }
      if (!name || name === code) continue;
      // 'Myanmar (Burma)' -> 'Myanmar', 'Hong Kong SAR China' -> 'Hong Kong'.
      const country = { code, name: name.replace(/\s*\(.*\)\s*/, '').replace(/ SAR China$/, '') };
      byCode.set(code, country);
      for (const n of [name, country.name, short.of(code) ?? name]) {
        const key = normalise(n);
        if (key.length > 2 && !byName.has(key)) byName.set(key, country);
      }
    }
  }
  for (const [alias, code] of Object.entries(ALIASES)) byName.set(normalise(alias), byCode.get(code)!);
  tables = { byName, byCode };
  return tables;
}

/**
 * The country a location segment names, by English name, common alias or ISO 3166-1 alpha-2
 * code; null when it names none or might name a state or province. `afterRegion`: the segment
 * ends a 'locality, region, country' list, so a bare code or 'Georgia' can only be a country.
 */
function countryFromSegment(segment: string, afterRegion: boolean): Country | null {
  const { byName, byCode } = countryTables();
  const key = normalise(segment);
  if (!key) return null;
  if (/^[a-z]{2}$/.test(key) && !SAFE_SHORT_FORMS.has(key)) return afterRegion ? (byCode.get(key.toUpperCase()) ?? null) : null;
  if (!afterRegion && AMBIGUOUS_NAMES.has(key)) return null;
  return byName.get(key) ?? null;
}

interface ParsedLocation {
  locality?: string;
  region?: string;
  country?: Country;
}

/**
 * Splits a free-text location at its commas: 'Austin, TX, United States' -> locality Austin,
 * region TX, country US; 'London, United Kingdom' -> London, GB; 'Singapore' -> SG. When the last
 * segment names no country, the whole text stays the locality.
 */
export function parseLocation(location: string): ParsedLocation {
  const text = location.replace(/\s+/g, ' ').trim();
  if (!text) return {};
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (!parts.length) return {};
  const country = countryFromSegment(parts[parts.length - 1], parts.length >= 3);
  if (!country) return { locality: text };
  const out: ParsedLocation = { country };
  if (parts.length >= 2) out.locality = parts[0];
  if (parts.length >= 3) out.region = parts[parts.length - 2];
  return out;
}

/**
 * The country a remote job's location names, if any: 'Remote — United States', 'Remote (UK)',
 * 'Austin, TX, United States', 'India (Remote)'. 'Remote — Europe' and 'Anywhere' name none.
 */
export function remoteCountry(location: string): Country | null {
  const parts = location
    .replace(/\b(?:remote|work from home|wfh)\b/gi, ' ')
    // Separators around the word 'Remote': dashes between spaces, brackets, colons, slashes.
    .replace(/\s[-\u2013\u2014]+\s|^\s*[-\u2013\u2014]+|[-\u2013\u2014]+\s*$|[\u2013\u2014()[\]:;|/]/g, ',')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (!parts.length) return null;
  return countryFromSegment(parts[parts.length - 1], parts.length >= 3);
}

/**
 * Whether a code is an ISO 3166-1 alpha-2 country (a remote job's applicant countries), by the
 * list i18n-iso-countries keeps. XK (Kosovo) is on that list but is a user-assigned code, not an
 * ISO 3166-1 one.
 */
export function isCountryCode(code: string): boolean {
  return code !== 'XK' && /^[A-Z]{2}$/.test(code) && countries.isValid(code);
}

/** A country's English name for JSON-LD, from the same names the location parser reads. */
function countryByCode(code: string): Country {
  return countryTables().byCode.get(code) ?? { code, name: code };
}

// ---------------------------------------------------------------------------------------------

function salary(job: Job): Record<string, unknown> | undefined {
  const { min_salary: min, max_salary: max } = job;
  if (min === null && max === null) return undefined;
  const value: Record<string, unknown> = { '@type': 'QuantitativeValue', unitText: job.salary_period };
  if (min !== null && max !== null && min !== max) {
    value.minValue = min;
    value.maxValue = max;
  } else if (min !== null && max !== null) {
    value.value = min;
  } else if (min !== null) {
    value.minValue = min;
  } else {
    value.maxValue = max;
  }
  return { '@type': 'MonetaryAmount', currency: job.currency, value };
}

/** Plain text placed inside the description's HTML (a title such as "R&D <Lead>" is text, not markup). */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A job's texts as one HTML document, each section under its title (structured data and the job feeds). */
export function postingHtml(job: Job): string {
  return (
    SECTION_TITLES.map(([key, title]) => {
      const html = job[key] as string;
      return hasRichContent(html) ? `<p><strong>${escapeHtml(title)}</strong></p>${html}` : '';
    }).join('') || `<p>${escapeHtml(job.title)}</p>`
  );
}

export function jobPostingJsonLd(job: Job, config: Pick<Config, 'company' | 'publicBaseUrl'>): Record<string, unknown> {
  const description = postingHtml(job);
  const data: Record<string, unknown> = {
    '@context': 'https://schema.org/',
    '@type': 'JobPosting',
    title: job.title,
    description,
    datePosted: job.created_at.toISOString().slice(0, 10),
    hiringOrganization: {
      '@type': 'Organization',
      name: config.company.name,
      sameAs: config.company.aboutUrl,
      ...(config.company.logoUrl ? { logo: config.company.logoUrl } : {}),
    },
    employmentType: GOOGLE_EMPLOYMENT_TYPE[job.job_type] ?? 'OTHER',
    directApply: job.status === 'ACTIVE',
    identifier: { '@type': 'PropertyValue', name: config.company.name, value: job.public_id },
    url: `${config.publicBaseUrl}/careers/${encodeURIComponent(job.public_id)}`,
  };
  if (job.work_mode === 'REMOTE') {
    data.jobLocationType = 'TELECOMMUTE';
    // The countries HR gave win over the one the location names.
    const given = job.applicant_countries.map(countryByCode);
    const named = given.length ? given : [remoteCountry(job.location)].filter((c): c is Country => !!c);
    const requirements = named.map((c) => ({ '@type': 'Country', name: c.name }));
    if (requirements.length) data.applicantLocationRequirements = requirements.length === 1 ? requirements[0] : requirements;
  } else {
    const loc = parseLocation(job.location);
    const address: Record<string, unknown> = { '@type': 'PostalAddress' };
    if (loc.locality) address.addressLocality = loc.locality;
    if (loc.region) address.addressRegion = loc.region;
    if (loc.country) address.addressCountry = loc.country.code;
    data.jobLocation = { '@type': 'Place', address };
  }
  const baseSalary = salary(job);
  if (baseSalary) data.baseSalary = baseSalary;
  if (job.closes_at) data.validThrough = job.closes_at.toISOString();
  return data;
}
