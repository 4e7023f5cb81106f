/**
 * The one error-body walker, in its two flavours: the apply wizard's (spec 01 section 8,
 * flattenErrorBody) and the HR islands' (spec 02 section 8 'Job save failure', errorLines and
 * fieldErrors). The same bodies go through both so the differences the specs ask for stay visible.
 */
import { expect } from 'chai';
import { UNKNOWN_ERROR, errorLines, fieldErrors, flattenErrorBody } from '../../src/shared/api-errors.js';

describe('API error bodies, both flavours', () => {
  it('empty bodies: the wizard gets null (its own fallback), HR gets the unknown-error text', () => {
    expect(UNKNOWN_ERROR).to.equal('Unknown error.');
    for (const body of [null, undefined, '', [], {}]) {
      expect(flattenErrorBody(body), JSON.stringify(body)).to.equal(null);
      expect(errorLines(body), JSON.stringify(body)).to.deep.equal(['Unknown error.']);
    }
  });

  it('string bodies: the wizard trims them and refuses HTML pages, HR shows them as they are', () => {
    expect(flattenErrorBody('  Service down \n')).to.deep.equal(['Service down']);
    expect(errorLines('  Service down \n')).to.deep.equal(['  Service down \n']);
    const html = '<html><body><h1>502 Bad Gateway</h1></body></html>';
    expect(flattenErrorBody(html)).to.equal(null);
    expect(flattenErrorBody('\n  <!DOCTYPE html><p>x</p>')).to.equal(null);
    expect(errorLines(html)).to.deep.equal([html]);
    expect(flattenErrorBody('   ')).to.equal(null);
  });

  it('list bodies: one line per item (HR shows a non-text item as JSON, the wizard walks it)', () => {
    expect(flattenErrorBody(['one', 'two'])).to.deep.equal(['one', 'two']);
    expect(errorLines(['one', 'two'])).to.deep.equal(['one', 'two']);
    expect(flattenErrorBody(['one', { title: ['Required'] }])).to.deep.equal(['one', 'title: Required']);
    expect(errorLines(['one', { title: ['Required'] }])).to.deep.equal(['one', '{"title":["Required"]}']);
  });

  it("field messages: the wizard joins them with ', ', HR with a space", () => {
    const body = { title: ['This field is required.', 'Too short.'], location: 'Bad.' };
    expect(flattenErrorBody(body)).to.deep.equal(['title: This field is required., Too short.', 'location: Bad.']);
    expect(errorLines(body)).to.deep.equal(['title: This field is required. Too short.', 'location: Bad.']);
    expect(fieldErrors(body)).to.deep.equal({ title: 'This field is required. Too short.', location: 'Bad.' });
  });

  it("nested keys become 'field.sub' paths in both, through objects and lists of objects", () => {
    const body = { questions: [{}, { text: ['Required'], choices: { 0: ['Empty choice.'] } }], salary: { min: ['Too low.'] } };
    const paths = ['questions.1.text', 'questions.1.choices.0', 'salary.min'];
    expect(flattenErrorBody(body)).to.deep.equal([
      'questions.1.text: Required',
      'questions.1.choices.0: Empty choice.',
      'salary.min: Too low.',
    ]);
    expect(errorLines(body)).to.deep.equal(['questions.1.text: Required', 'questions.1.choices.0: Empty choice.', 'salary.min: Too low.']);
    expect(Object.keys(fieldErrors(body))).to.deep.equal(paths);
    // Keys that arrive already dotted are kept as they are.
    expect(errorLines({ 'questions.0.text': ['Required'] })).to.deep.equal(['questions.0.text: Required']);
    expect(flattenErrorBody({ 'questions.0.text': ['Required'] })).to.deep.equal(['questions.0.text: Required']);
  });

  it("general messages: detail is unprefixed in both; non_field_errors only in the wizard's", () => {
    const body = { detail: 'Job not found.', non_field_errors: ['Closing date is before opening date.'] };
    expect(flattenErrorBody(body)).to.deep.equal(['Job not found.', 'Closing date is before opening date.']);
    expect(errorLines(body)).to.deep.equal(['Job not found.', 'non_field_errors: Closing date is before opening date.']);
    // Only a top-level detail is general; a nested one is a field like any other.
    expect(errorLines({ salary: { detail: 'x' } })).to.deep.equal(['salary.detail: x']);
    expect(flattenErrorBody({ salary: { detail: 'x' } })).to.deep.equal(['salary.detail: x']);
  });

  it('odd leaves: HR shows them as JSON, the wizard gives up on the body', () => {
    expect(errorLines({ published: true, count: 3, gone: null })).to.deep.equal(['published: true', 'count: 3', 'gone: null']);
    expect(flattenErrorBody({ published: true })).to.equal(null);
    expect(flattenErrorBody({ count: 3 })).to.deep.equal(['count: 3']);
    expect(errorLines(42)).to.deep.equal(['42']);
    expect(flattenErrorBody(42)).to.equal(null);
    // fieldErrors reads only objects.
    expect(fieldErrors(['a'])).to.deep.equal({});
    expect(fieldErrors('text')).to.deep.equal({});
  });
});
