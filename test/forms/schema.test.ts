/**
 * The form rules the builder and the public form share with the server (src/forms/schema.ts):
 * name shaping, duplicate names per section with the spec's save message, and each field type's
 * value check with the spec's messages.
 */
import { expect } from 'chai';
import { duplicateFieldNames, duplicatesMessage, fieldNameFromLabel, fieldValueError, shapeFieldName } from '../../src/forms/schema.js';
import type { FormField } from '../../src/forms/types.js';

const field = (f: Partial<FormField>): FormField => ({
  name: 'f',
  label: 'F',
  field_type: 'short_text',
  required: false,
  placeholder: '',
  help_text: '',
  options: [],
  order: 0,
  max_file_size: null,
  allowed_extensions: [],
  ...f,
});

describe('form rules shared by the islands and the server', () => {
  it('lowers capitals, drops accents and turns spaces into underscores in a typed field name, naming what it leaves out, at most 64', () => {
    expect(shapeFieldName('First Name-2!é_x?!')).to.deep.equal({ name: 'first_name_2e_x', dropped: '!?' });
    expect(shapeFieldName('Referrer Name')).to.deep.equal({ name: 'referrer_name', dropped: '' });
    expect(shapeFieldName('<script>')).to.deep.equal({ name: 'script', dropped: '<>' });
    expect(shapeFieldName('a'.repeat(70)).name).to.have.length(64);
  });

  it('makes a field name from a label', () => {
    expect(fieldNameFromLabel('Referrer Name')).to.equal('referrer_name');
    expect(fieldNameFromLabel('  Your e-mail (work)? ')).to.equal('your_e_mail_work');
    expect(fieldNameFromLabel('Année  de naissance')).to.equal('annee_de_naissance');
    expect(fieldNameFromLabel('!!!')).to.equal('');
    expect(fieldNameFromLabel('Word '.repeat(30))).to.have.length.at.most(64);
  });

  it('lists repeated names per section, a name of an earlier section included, and says so as the spec words it', () => {
    const list = duplicateFieldNames([
      { fields: [{ name: 'a' }, { name: 'b' }, { name: 'a' }] },
      { fields: [{ name: 'b' }, { name: 'c' }] },
      { fields: [{ name: '' }, { name: '' }] },
    ]);
    expect(list).to.deep.equal([
      { section_index: 0, duplicates: ['a'] },
      { section_index: 1, duplicates: ['b'] },
    ]);
    expect(duplicatesMessage(list)).to.equal('Duplicate field names detected — Section 1: a; Section 2: b');
  });

  it("checks each field type's value with the spec's messages", () => {
    expect(fieldValueError(field({ required: true }), '  ')).to.deep.equal({ error: 'This field is required.' });
    expect(fieldValueError(field({ required: true, field_type: 'checkbox', options: ['a'] }), [])).to.deep.equal({
      error: 'This field is required.',
    });
    expect(fieldValueError(field({ field_type: 'number' }), '1e3')).to.deep.equal({ value: 1000 });
    expect(fieldValueError(field({ field_type: 'number' }), '12abc')).to.deep.equal({ error: 'Enter a number.' });
    expect(fieldValueError(field({ field_type: 'email' }), 'a@b')).to.deep.equal({ error: 'Enter a valid email.' });
    expect(fieldValueError(field({ field_type: 'dropdown', options: ['x'] }), 'y')).to.deep.equal({ error: 'Select a valid option.' });
    expect(fieldValueError(field({ field_type: 'checkbox', options: ['x'] }), ['x', 'x'])).to.deep.equal({ value: ['x'] });
    const file = field({ field_type: 'file', required: true, max_file_size: 100, allowed_extensions: ['PDF', '.docx'] });
    expect(fieldValueError(file, undefined, null)).to.deep.equal({ error: 'File is required.' });
    expect(fieldValueError(file, undefined, { size: 101, name: 'a.pdf' })).to.deep.equal({ error: 'File too large.' });
    expect(fieldValueError(file, undefined, { size: 10, name: 'a.PNG' })).to.deep.equal({ error: 'File type not allowed.' });
    expect(fieldValueError(file, undefined, { size: 10, name: 'a.DOCX' })).to.deep.equal({ value: null });
    // Without a size of its own, a file field takes 10 MB.
    expect(fieldValueError(field({ field_type: 'file' }), undefined, { size: 10 * 1024 * 1024 + 1, name: 'a.pdf' })).to.deep.equal({
      error: 'File too large.',
    });
  });
});
