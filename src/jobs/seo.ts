/**
 * JobPosting structured data (schema.org) as Google's job-posting guidelines accept it:
 * title, HTML description, datePosted, hiringOrganization, jobLocation or TELECOMMUTE,
 * employmentType, baseSalary when a range is set, directApply and identifier.
 */
import type { Config } from '../../config/index.js';
import { sanitizeRichText } from '../shared/sanitize.js';
import type { Job } from './types.js';

const SECTION_TITLES: [keyof Job, string][] = [
  ['description', 'Job Description'],
  ['responsibilities', 'Responsibilities'],
  ['requirements', 'Requirements'],
  ['perks_benefits', 'Perks & Benefits'],
];

export function jobPostingJsonLd(job: Job, config: Pick<Config, 'company' | 'publicBaseUrl'>): Record<string, unknown> {
  const description = SECTION_TITLES.map(([key, title]) => {
    const html = sanitizeRichText(job[key] as string);
    return html ? `<p><strong>${title}</strong></p>${html}` : '';
  }).join('') || `<p>${job.title}</p>`;

  const data: Record<string, unknown> = {
    '@context': 'https://schema.org/',
    '@type': 'JobPosting',
    title: job.title,
    description,
    datePosted: job.created_at.toISOString().slice(0, 10),
    hiringOrganization: { '@type': 'Organization', name: config.company.name, sameAs: config.company.aboutUrl },
    employmentType: job.job_type,
    directApply: job.status === 'ACTIVE',
    identifier: { '@type': 'PropertyValue', name: config.company.name, value: job.public_id },
    url: `${config.publicBaseUrl}/careers/${encodeURIComponent(job.public_id)}`,
  };
  if (job.work_mode === 'REMOTE') {
    data.jobLocationType = 'TELECOMMUTE';
    if (job.location) data.applicantLocationRequirements = { '@type': 'Country', name: job.location };
  } else {
    data.jobLocation = { '@type': 'Place', address: { '@type': 'PostalAddress', addressLocality: job.location } };
  }
  if (job.min_salary !== null || job.max_salary !== null) {
    const value: Record<string, unknown> = { '@type': 'QuantitativeValue', unitText: 'YEAR' };
    if (job.min_salary !== null && job.max_salary !== null && job.min_salary !== job.max_salary) {
      value.minValue = job.min_salary;
      value.maxValue = job.max_salary;
    } else {
      value.value = job.min_salary ?? job.max_salary;
    }
    data.baseSalary = { '@type': 'MonetaryAmount', currency: job.currency, value };
  }
  return data;
}
