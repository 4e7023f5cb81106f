/**
 * Issue 35, "Talent pool": the two emails of talent pools become templates HR edits (purposes
 * `pool_invite`, "Invite to apply" with the job's link, and `pool_consent`, the request to be kept
 * sent to whoever is added to a pool without consent), written with the texts the pools feature
 * sent before, so nothing changes until HR edits them; written into existing databases too (a
 * name HR already uses gets a number after it). Rolling back deletes the two templates (with HR's
 * edits to them); the pools feature then sends its built-in texts again.
 */
import type { Knex } from 'knex';
import { toDbDate } from '../src/db/codecs.js';

const POOL_TEMPLATES = [
  {
    purpose: 'pool_invite',
    name: 'Talent pool invitation',
    subject: 'A job for you at {company_name}: {job_title}',
    body: [
      'Dear {first_name},',
      'We have a new opening at {company_name} we think fits you: {job_title}.',
      'Read about it and apply here:\n{job_url}',
      'You hear from us because you agreed to be told about other jobs; you can withdraw that on your status page at any time.',
      '{company_name} Careers',
    ].join('\n\n'),
  },
  {
    purpose: 'pool_consent',
    name: 'Talent pool consent request',
    subject: 'May we keep your details? {company_name}',
    body: [
      'Dear {first_name},',
      'We would like to keep your details to tell you about other jobs at {company_name} that fit you. If you agree, say so on your status page (the link works until {link_expires_on}):',
      '{status_link}',
      'If you do not, there is nothing to do: we will not contact you about other jobs.',
      '{company_name} Careers',
    ].join('\n\n'),
  },
] as const;

const PURPOSES = POOL_TEMPLATES.map((t) => t.purpose);

export async function up(knex: Knex): Promise<void> {
  const taken = new Set((await knex('email_templates').select('name')).map((r: { name: string }) => r.name.toLocaleLowerCase('en')));
  const now = toDbDate(new Date());
  for (const d of POOL_TEMPLATES) {
    let name: string = d.name;
    for (let n = 2; taken.has(name.toLocaleLowerCase('en')); n++) name = `${d.name} ${n}`;
    taken.add(name.toLocaleLowerCase('en'));
    await knex('email_templates').insert({ ...d, name, created_at: now, updated_at: now });
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex('email_templates').whereIn('purpose', PURPOSES).delete();
}
