/** Shared steps of the apply wizard browser tests: jobs with questions, resume files, filling steps. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import type { Page } from 'playwright-core';
import { expect } from 'chai';
import type { Job } from '../../src/jobs/types.js';
import { makeJob } from '../helpers/factories.js';
import { pdfBytes } from '../fixtures/resumes.js';
import { ARTIFACTS, screenshot } from '../helpers/browser.js';

/** One question of each answer type, rich text included. */
const FIVE_QUESTIONS = [
  {
    text: '<p>Why do you want <strong>this</strong> role?</p>',
    help_text: '<p>A few sentences are enough. See <a href="https://example.com/values">our values</a>.</p>',
    placeholder: 'Your motivation',
    required: true,
    answer_type: 'long_text',
  },
  { text: 'Your GitHub handle', help_text: '', placeholder: '@you', required: false, answer_type: 'short_text' },
  { text: 'Years of professional experience', help_text: '', placeholder: 'e.g. 3', required: true, answer_type: 'number' },
  {
    text: 'Preferred work mode',
    help_text: '<p>Pick one.</p>',
    placeholder: '',
    required: true,
    answer_type: 'single_choice',
    options: ['Remote', 'Hybrid', 'Onsite'],
  },
  {
    text: 'Which stacks have you shipped?',
    help_text: '',
    placeholder: 'Tick all that apply',
    required: true,
    answer_type: 'checkbox',
    options: ['React', 'Vue', 'Svelte'],
  },
];

export function makeQuestionJob(db: Knex, overrides: Record<string, unknown> = {}): Promise<Job> {
  return makeJob(db, { title: 'Frontend Engineer', questions: FIVE_QUESTIONS, ...overrides });
}

/** The apply-wizard-*.browser tests' jobs; returns 'fe-questions' (five questions). */
export async function seedWizardJobs(db: Knex): Promise<Job> {
  const qJob = await makeQuestionJob(db, { public_id: 'fe-questions' });
  await makeJob(db, { public_id: 'plain-job', title: 'Office Manager' });
  await makeJob(db, { public_id: 'closed-job', title: 'Closed Role', status: 'INACTIVE' });
  await makeJob(db, { public_id: 'removed-job', title: 'Removed Role', status: 'REMOVED' });
  return qJob;
}

/** The console line of a submit the server refuses. */
export const STATUS_400 = 'Failed to load resource: the server responded with a status of 400 (Bad Request)';

/** A temp folder of resume-like files for the file input. */
export function resumeFiles() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'careers-apply-files-'));
  const write = (name: string, data: Buffer) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, data);
    return p;
  };
  return {
    dir,
    pdf: write('asha-resume.pdf', pdfBytes(20_000)),
    // 11 MB: over the 10485760-byte limit.
    tooLarge: write('huge-resume.pdf', pdfBytes(11 * 1024 * 1024)),
    exe: write('setup.exe', Buffer.from('MZ\x90\x00 not a resume', 'latin1')),
    txt: write('notes.txt', Buffer.from('plain text resume', 'utf8')),
    // A renamed executable: passes the name check, the server refuses it by its bytes.
    disguised: write('totally-a-resume.pdf', Buffer.concat([Buffer.from('MZ\x90\x00', 'latin1'), Buffer.alloc(4096, 1)])),
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

export const fid = (key: string) => `#f-${key.replace(/\./g, '-')}`;

export async function heading(page: Page): Promise<string> {
  return (await page.locator('.wizard-step:not([hidden]) h2').innerText()).trim();
}

export const live = (page: Page) => page.locator('.apply-wizard > [role=status]').innerText();
export const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');

/** Clicks Next and checks the wizard moved to `expected`, with focus on its heading. */
export async function next(page: Page, expected: string): Promise<void> {
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  await page.locator('.wizard-step:not([hidden]) h2', { hasText: expected }).waitFor();
  expect(await heading(page)).to.equal(expected);
  expect(await page.evaluate(() => document.activeElement?.tagName)).to.equal('H2');
}

export interface Applicant {
  first: string;
  last: string;
  email: string;
  phone: string;
  resume: string;
}

export async function fillBasic(page: Page, a: Applicant): Promise<void> {
  await page.fill(fid('first_name'), a.first);
  await page.fill(fid('last_name'), a.last);
  await page.fill(fid('email'), a.email);
  await page.fill(fid('phone'), a.phone);
  await page.setInputFiles(fid('resume'), a.resume);
}

/** Opening and walking the wizard on a suite's server; `suite` is read at each call, after before() has run. */
export function wizardSteps(suite: () => { baseUrl: string; resume: string }) {
  async function open(page: Page, publicId = 'fe-questions'): Promise<void> {
    await page.goto(`${suite().baseUrl}/careers/${publicId}/apply`);
    await page.locator('.wizard-card').waitFor();
  }

  /** Fills Basic Info validly and walks to `step` (by heading). */
  async function walkTo(page: Page, headingText: string): Promise<void> {
    await fillBasic(page, { first: 'Asha', last: 'Rao', email: 'asha@example.com', phone: '9876543210', resume: suite().resume });
    for (const h of ['Experience', 'Education & Skills', 'Questions', 'Review']) {
      if ((await heading(page)) === headingText) return;
      await next(page, h);
    }
  }

  return { open, walkTo };
}

export async function chooseDate(page: Page, key: string, year: string, month: string): Promise<void> {
  await page.selectOption(`${fid(key)}-month`, month);
  await page.selectOption(`${fid(key)}-year`, year);
}

export async function addExperience(
  page: Page,
  i: number,
  e: {
    company: string;
    role: string;
    start: [string, string];
    end?: [string, string];
    notice?: string;
    salary?: string;
    description?: string;
  },
) {
  await page.getByRole('button', { name: /Add (another )?experience/ }).click();
  const k = (f: string) => `professional_experiences.${i}.${f}`;
  await page.fill(fid(k('company')), e.company);
  await page.fill(fid(k('role')), e.role);
  await chooseDate(page, k('start'), ...e.start);
  if (e.end) await chooseDate(page, k('end'), ...e.end);
  if (e.notice) await page.fill(fid(k('notice_period')), e.notice);
  if (e.salary) await page.fill(fid(k('salary')), e.salary);
  if (e.description) await page.fill(fid(k('description')), e.description);
}

export async function addEducation(
  page: Page,
  i: number,
  e: { school: string; degree: string; field?: string; start: [string, string]; end?: [string, string] },
) {
  await page.getByRole('button', { name: /Add (another )?education/ }).click();
  const k = (f: string) => `education.${i}.${f}`;
  await page.fill(fid(k('school')), e.school);
  await page.fill(fid(k('degree')), e.degree);
  if (e.field) await page.fill(fid(k('field')), e.field);
  await chooseDate(page, k('start'), ...e.start);
  if (e.end) await chooseDate(page, k('end'), ...e.end);
}

export async function typeSkill(page: Page, text: string): Promise<void> {
  await page.fill('#f-skills', text);
  await page.press('#f-skills', 'Enter');
}

export async function chipTexts(page: Page): Promise<string[]> {
  return page.locator('.wizard-step:not([hidden]) .skill-chip > span').allInnerTexts();
}

/** Field error text next to a field (by its API key). */
export async function fieldError(page: Page, key: string): Promise<string> {
  const loc = page.locator(`${fid(key)}-error`);
  return (await loc.count()) ? (await loc.innerText()).trim() : '';
}

export async function banner(page: Page): Promise<string> {
  const loc = page.locator('.step-banner');
  return (await loc.count()) ? (await loc.innerText()).trim() : '';
}

/** Full-page screenshot from the top (a sticky header would otherwise sit mid-page). */
export async function shot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

/** The viewport only: a dialog's fixed backdrop covers the viewport, not a full-page capture. */
export async function viewportShot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
}

/** True when the page is wider than the viewport (horizontal scrolling). */
export async function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
}
