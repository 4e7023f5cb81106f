/**
 * The input schemas (zod) beyond what the API tests assert: islands and server share one limit per
 * field, the server-only rules come in from outside, and an island importing a schema's limits
 * bundles no zod, sanitiser or address library.
 */
import { expect } from 'chai';
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod/mini';
import { applicationSchema } from '../../src/applicants/apply.schema.js';
import { AUTH_MESSAGES, MAX_CREDENTIAL_LENGTH, credentialsSchema } from '../../src/users/schema.js';
import {
  JOB_LIMITS,
  JOB_MESSAGES,
  hrJobsQuerySchema,
  jobFiltersSchema,
  jobInputSchema,
  type JobInputRules,
} from '../../src/jobs/schema.js';
import { LIMITS } from '../../src/shared/application-rules.js';
import { FIELD_MESSAGES, fieldErrorsOf } from '../../src/shared/field-errors.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const rules: JobInputRules = { sanitizeRichText: (html) => html, richTextTooDeep: () => false };
const job = { title: 'Engineer', location: 'Remote', job_type: 'FULL_TIME', work_mode: 'REMOTE' };

function jobErrors(body: unknown, r = rules) {
  const result = jobInputSchema(r).safeParse(body);
  return result.success ? {} : fieldErrorsOf(result.error.issues);
}

describe('input schemas', () => {
  it('turns issues into the API body: dotted keys, detail for the whole input, each message once per key, keys in a given order', () => {
    const schema = z.object({ b: z.string('B'), a: z.array(z.object({ x: z.string('X') })) });
    expect(fieldErrorsOf(schema.safeParse({ a: [{}, { x: 1 }] }).error!.issues)).to.deep.equal({
      b: ['B'],
      'a.0.x': ['X'],
      'a.1.x': ['X'],
    });
    expect(Object.keys(fieldErrorsOf(schema.safeParse({ a: [{}] }).error!.issues, ['a', 'b']))).to.deep.equal(['a.0.x', 'b']);
    expect(fieldErrorsOf(z.string('Whole').safeParse(1).error!.issues)).to.deep.equal({ detail: ['Whole'] });
    const twice = z.string().check(
      z.refine(() => false, 'Same'),
      z.refine(() => false, 'Same'),
    );
    expect(fieldErrorsOf(twice.safeParse('x').error!.issues)).to.deep.equal({ detail: ['Same'] });
  });

  it('job: every limit the job editor sets as maxlength is the one the server enforces, with its message', () => {
    const cases: [string, (v: string) => object, number][] = [
      ['title', (v) => ({ title: v }), JOB_LIMITS.text],
      ['experience_required', (v) => ({ experience_required: v }), JOB_LIMITS.text],
      ['webhook_secret', (v) => ({ webhook_secret: v }), JOB_LIMITS.webhookSecret],
      ['questions.0.placeholder', (v) => ({ questions: [{ text: 'Q', answer_type: 'short_text', placeholder: v }] }), JOB_LIMITS.text],
    ];
    for (const [key, body, max] of cases) {
      expect(jobErrors({ ...job, ...body('x'.repeat(max)) }), key).to.deep.equal({});
      expect(jobErrors({ ...job, ...body('x'.repeat(max + 1)) }), key).to.deep.equal({ [key]: [FIELD_MESSAGES.tooLong(max)] });
    }
    expect(jobErrors({ ...job, public_id: 'p'.repeat(JOB_LIMITS.publicId) })).to.deep.equal({});
    expect(jobErrors({ ...job, public_id: 'p'.repeat(JOB_LIMITS.publicId + 1) })).to.deep.equal({ public_id: [JOB_MESSAGES.publicId] });
    const option = (o: string) => ({ ...job, questions: [{ text: 'Q', answer_type: 'checkbox', options: [o] }] });
    expect(jobErrors(option('o'.repeat(JOB_LIMITS.option)))).to.deep.equal({});
    expect(jobErrors(option('o'.repeat(JOB_LIMITS.option + 1)))).to.deep.equal({ 'questions.0.options': [JOB_MESSAGES.optionTooLong] });
  });

  it("job: the webhook address policy and the sanitiser are the server's rules, given to the schema", () => {
    const local = { ...job, webhook_enabled: true, webhook_url: 'http://127.0.0.1/hook' };
    expect(jobErrors(local)).to.deep.equal({});
    expect(jobErrors(local, { ...rules, webhookHostAllowed: (host) => host !== '127.0.0.1' })).to.deep.equal({
      webhook_url: [JOB_MESSAGES.webhookPrivate],
    });
    const result = jobInputSchema({ ...rules, sanitizeRichText: () => '<p>clean</p>' }).safeParse({
      ...job,
      description: '<script>x</script>',
    });
    expect(result.data?.description).to.equal('<p>clean</p>');
  });

  it('job filters: an unknown choice is a field error for the API and no filter for pages', () => {
    const query = { title: ' Dev\u0000 ', location: '', job_type: 'NOPE', work_mode: 'REMOTE', department: '' };
    expect(jobFiltersSchema(false).parse(query)).to.deep.equal({
      title: 'Dev',
      location: '',
      job_type: '',
      work_mode: 'REMOTE',
      department: '',
    });
    const strict = jobFiltersSchema(true).safeParse(query);
    expect(fieldErrorsOf(strict.error!.issues)).to.deep.equal({ job_type: [JOB_MESSAGES.notAChoice('NOPE')] });
    expect(hrJobsQuerySchema().parse({ status: '' })).to.deep.equal({ status: '' });
    expect(fieldErrorsOf(hrJobsQuerySchema().safeParse({ status: 'x'.repeat(50) }).error!.issues)).to.deep.equal({
      status: [JOB_MESSAGES.notAChoice('x'.repeat(40))],
    });
  });

  it("credentials: the login form's maxlength is the server's limit", () => {
    expect(credentialsSchema().safeParse({ username: 'u'.repeat(MAX_CREDENTIAL_LENGTH), password: 'p' }).success).to.equal(true);
    const long = credentialsSchema().safeParse({ username: 'u', password: 'p'.repeat(MAX_CREDENTIAL_LENGTH + 1) });
    expect(fieldErrorsOf(long.error!.issues)).to.deep.equal({ password: [AUTH_MESSAGES.tooLong] });
  });

  it("application: the wizard's entry and answer limits are the server's", () => {
    const questions = [
      { id: 7, text: 'Why?', help_text: '', placeholder: '', required: false, answer_type: 'long_text' as const, options: [], order: 0 },
    ];
    const fields = (description: string, answer: string) => ({
      first_name: 'Asha',
      email: 'asha@example.com',
      phone: '+919876543210',
      professional_experiences: JSON.stringify([{ company: 'Acme', role: 'Dev', start: '2020-01', description }]),
      answers: JSON.stringify([{ question_id: 7, answer }]),
    });
    const schema = applicationSchema(questions, new Date('2026-01-15T00:00:00Z'));
    expect(schema.safeParse(fields('d'.repeat(LIMITS.description), 'a'.repeat(LIMITS.answerText))).success).to.equal(true);
    const errors = fieldErrorsOf(
      schema.safeParse(fields('d'.repeat(LIMITS.description + 1), 'a'.repeat(LIMITS.answerText + 1))).error!.issues,
    );
    expect(errors).to.deep.equal({
      'professional_experiences.0.description': [FIELD_MESSAGES.tooLong(LIMITS.description)],
      'answers.7': [`Ensure this answer has no more than ${LIMITS.answerText} characters.`],
    });
  });

  it('islands set no maxlength of their own: each comes from a schema or the shared rules', () => {
    const literal = /maxLength=\{\d/;
    const files = fs.readdirSync(path.join(ROOT, 'islands'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.tsx'));
    expect(files.filter((f) => literal.test(fs.readFileSync(path.join(ROOT, 'islands', f), 'utf8')))).to.deep.equal([]);
  });

  it("an island importing the schemas' limits and messages bundles no zod, sanitiser or address library", async () => {
    const result = await build({
      stdin: {
        contents:
          "import { JOB_LIMITS } from './src/jobs/schema.js'; import { AUTH_MESSAGES, MAX_CREDENTIAL_LENGTH } from './src/users/schema.js'; console.log(JOB_LIMITS, AUTH_MESSAGES, MAX_CREDENTIAL_LENGTH);",
        resolveDir: ROOT,
        loader: 'ts',
      },
      bundle: true,
      format: 'esm',
      minify: true,
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const [output] = Object.values(result.metafile.outputs);
    const packages = Object.entries(output.inputs).filter(([f, i]) => f.includes('node_modules') && i.bytesInOutput > 0);
    expect(packages).to.deep.equal([]);
    expect(result.outputFiles[0].contents.length).to.be.below(4096);
  });
});
