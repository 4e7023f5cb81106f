/** The wizard's shared rules (spec 01 section 5) and the error-body helpers (section 8). */
import { expect } from 'chai';
import {
  MESSAGES,
  RESUME_MAX_BYTES,
  addSkill,
  emailError,
  firstNameError,
  NUMBER_ANSWER_MAX,
  isEmptyAnswer,
  isEndBeforeStart,
  isHalfChosen,
  isNumeric,
  joinPhone,
  lastNameError,
  normaliseSkills,
  numberAnswerError,
  parseYearMonth,
  phoneError,
  resumeError,
  shapeEmail,
  shapeName,
  shapePhone,
  suggestSkills,
  validateAnswers,
  validateBasic,
  validateEducation,
  validateExperiences,
  yearMonthError,
  yearOptions,
  type ExperienceEntry,
} from '../../src/shared/application-rules.js';
import { extractErrorMessage, fieldErrorMessages, flattenErrorBody } from '../../src/shared/api-errors.js';
import { DIAL_CODES, splitPhone } from '../../src/shared/dial-codes.js';
import { SUGGESTED_SKILLS } from '../../src/shared/skills.js';

const exp = (over: Partial<ExperienceEntry> = {}): ExperienceEntry => ({
  company: 'Initech',
  role: 'Engineer',
  start: '2019-04',
  end: '2022-08',
  notice_period: '',
  salary: '',
  description: '',
  ...over,
});

describe('application rules: input shaping', () => {
  it('strips angle brackets from names and cuts them to 60 characters', () => {
    expect(shapeName('<b>Asha</b>')).to.equal('bAsha/b');
    expect(shapeName('x'.repeat(80))).to.have.length(60);
    expect(shapeName('Ana <>María')).to.equal('Ana María');
  });

  it('trims email and keeps at most 10 phone digits', () => {
    expect(shapeEmail('  a@b.co  ')).to.equal('a@b.co');
    expect(shapePhone('98-765 (43) 210 99')).to.equal('9876543210');
    expect(shapePhone('abc')).to.equal('');
  });
});

describe('application rules: basic step', () => {
  it('first name: required, then letters, spaces, apostrophes and hyphens', () => {
    expect(firstNameError('')).to.equal("First name can't be empty");
    expect(firstNameError('   ')).to.equal(MESSAGES.firstNameRequired);
    expect(firstNameError("Anne-Marie O'Neil")).to.equal(null);
    expect(firstNameError('José')).to.equal(null);
    expect(firstNameError('R2D2')).to.equal('Please use only letters, spaces, apostrophes, and hyphens.');
    expect(firstNameError('a'.repeat(61))).to.equal(MESSAGES.namePattern);
  });

  it('names and email with control characters fail their rules (nothing is removed before the rules run)', () => {
    for (const bad of ['As\u0000ha', '\u0000', 'Asha\u0007', 'Asha\u001b', 'Asha\u007f', 'As\tha', 'Asha\n', '\u0000Asha']) {
      expect(firstNameError(shapeName(bad)), JSON.stringify(bad)).to.equal(MESSAGES.namePattern);
      expect(lastNameError(shapeName(bad)), JSON.stringify(bad)).to.equal(MESSAGES.namePattern);
    }
    for (const bad of [
      'asha\u0000@example.com',
      'asha@example.com\u0000',
      '\u0000asha@example.com',
      'asha@exa\u0001mple.com',
      'as\u007fha@example.com',
    ]) {
      expect(emailError(shapeEmail(bad)), JSON.stringify(bad)).to.equal(MESSAGES.emailInvalid);
    }
    // Trimming is the spec's shaping: surrounding white space (also a line break) is not a control character problem.
    expect(emailError(shapeEmail(' asha@example.com\n'))).to.equal(null);
  });

  it('last name is optional with the same pattern', () => {
    expect(lastNameError('')).to.equal(null);
    expect(lastNameError('Smith')).to.equal(null);
    expect(lastNameError('Sm1th')).to.equal(MESSAGES.namePattern);
  });

  it('email: required, then a valid address with a dot in the domain', () => {
    expect(emailError('')).to.equal("Email can't be empty");
    expect(emailError('asha@example.com')).to.equal(null);
    for (const bad of ['asha', 'asha@', 'asha@example', 'a b@example.com', '@example.com']) {
      expect(emailError(bad), bad).to.equal("Provided email isn't valid.");
    }
    expect(emailError(`${'a'.repeat(250)}@x.io`)).to.equal(MESSAGES.emailInvalid);
  });

  it('phone: required, then exactly 10 digits', () => {
    expect(phoneError('')).to.equal("Phone number can't be empty");
    expect(phoneError('98765')).to.equal('Provided phone number is not valid (10 digits).');
    expect(phoneError('9876543210')).to.equal(null);
    expect(joinPhone('+91', '9876543210')).to.equal('+919876543210');
    expect(splitPhone('+919876543210')).to.deep.equal({ code: '+91', digits: '9876543210' });
  });

  it('resume: required, PDF/DOC/DOCX by name, at most 10485760 bytes', () => {
    expect(resumeError(null)).to.equal('Please upload your resume (PDF/DOC/DOCX, under 10 MB).');
    expect(resumeError({ name: 'cv.exe', size: 10 })).to.equal('Only PDF, DOC, or DOCX files are allowed');
    expect(resumeError({ name: 'cv.txt', size: 10 })).to.equal(MESSAGES.resumeType);
    expect(resumeError({ name: 'cv', size: 10 })).to.equal(MESSAGES.resumeType);
    expect(resumeError({ name: 'CV.PDF', size: RESUME_MAX_BYTES })).to.equal(null);
    expect(resumeError({ name: 'cv.docx', size: RESUME_MAX_BYTES + 1 })).to.equal("File uploaded can't be more than 10 MB");
    expect(resumeError({ name: 'cv.doc', size: 1 })).to.equal(null);
  });

  it('validateBasic collects every field error under its field name', () => {
    const errors = validateBasic({ first_name: '', last_name: '9', email: 'x', phone: '1' }, null);
    expect(errors).to.deep.equal({
      first_name: MESSAGES.firstNameRequired,
      last_name: MESSAGES.namePattern,
      email: MESSAGES.emailInvalid,
      phone: MESSAGES.phoneInvalid,
      resume: MESSAGES.resumeRequired,
    });
    expect(
      validateBasic({ first_name: 'Asha', last_name: '', email: 'a@b.co', phone: '9876543210' }, { name: 'a.pdf', size: 5 }),
    ).to.deep.equal({});
  });
});

describe('application rules: experience and education', () => {
  const now = new Date(2025, 5, 1);

  it('offers years from 1970 to this year plus 5, newest first', () => {
    const years = yearOptions(now);
    expect(years[0]).to.equal(2030);
    expect(years.at(-1)).to.equal(1970);
    expect(years).to.have.length(61);
  });

  it('parses YYYY-MM within the year range only', () => {
    expect(parseYearMonth('2020-04', now)).to.deep.equal({ year: 2020, month: 4 });
    expect(parseYearMonth('1969-12', now)).to.equal(null);
    expect(parseYearMonth('2031-01', now)).to.equal(null);
    expect(parseYearMonth('2020-13', now)).to.equal(null);
    expect(parseYearMonth('2020-', now)).to.equal(null);
  });

  it('compares dates only when both are set', () => {
    expect(isEndBeforeStart('2020-05', '2020-04')).to.equal(true);
    expect(isEndBeforeStart('2020-05', '2020-05')).to.equal(false);
    expect(isEndBeforeStart('2020-05', '')).to.equal(false);
  });

  it('experience entries need company, role and start; end not before start', () => {
    expect(validateExperiences([exp()], now)).to.deep.equal([{}]);
    expect(validateExperiences([exp({ end: '' })], now)).to.deep.equal([{}]);
    expect(validateExperiences([exp({ company: ' ', role: '', start: '', end: '' })], now)).to.deep.equal([
      { company: 'Required', role: 'Required', start: 'Required' },
    ]);
    expect(validateExperiences([exp({ start: '2022-01', end: '2021-12' })], now)).to.deep.equal([
      { end: 'End date cannot be before start date' },
    ]);
  });

  it('a present but invalid date gets "Choose a valid month and year.", never the order message', () => {
    expect(MESSAGES.dateInvalid).to.equal('Choose a valid month and year.');
    // now: June 2025, so years 1970..2030.
    for (const bad of [
      '2099-01',
      '2031-01',
      '1969-12',
      '2020-1',
      '2020-13',
      '2020-00',
      '20-01',
      '2020/01',
      '01-2020',
      'abcd-ef',
      '2020-01-01',
      ' 2020-01',
      '202\u0000-01',
    ]) {
      expect(yearMonthError(bad, false, now), JSON.stringify(bad)).to.equal(MESSAGES.dateInvalid);
      expect(yearMonthError(bad, true, now), JSON.stringify(bad)).to.equal(MESSAGES.dateInvalid);
      expect(validateExperiences([exp({ start: '2020-01', end: bad })], now), `end ${bad}`).to.deep.equal([{ end: MESSAGES.dateInvalid }]);
      expect(validateExperiences([exp({ start: bad, end: '' })], now), `start ${bad}`).to.deep.equal([{ start: MESSAGES.dateInvalid }]);
    }
    for (const good of ['1970-01', '2030-12', '2025-06']) expect(yearMonthError(good, true, now), good).to.equal(null);
    // Missing: 'Required' for the start only; a half-chosen picker value asks for its other half.
    expect(yearMonthError('', true, now)).to.equal(MESSAGES.required);
    expect(yearMonthError('', false, now)).to.equal(null);
    for (const half of ['2020-', '-05']) {
      expect(isHalfChosen(half)).to.equal(true);
      expect(yearMonthError(half, false, now)).to.equal(MESSAGES.required);
      expect(yearMonthError(half, true, now)).to.equal(MESSAGES.required);
    }
    expect(isHalfChosen('2020-05')).to.equal(false);
    // Both invalid: one message each. An invalid start is not compared with the end.
    expect(validateExperiences([exp({ start: '2020-13', end: '2099-01' })], now)).to.deep.equal([
      { start: MESSAGES.dateInvalid, end: MESSAGES.dateInvalid },
    ]);
    expect(validateExperiences([exp({ start: '2099-01', end: '2020-01' })], now)).to.deep.equal([{ start: MESSAGES.dateInvalid }]);
    // A real order problem keeps its message.
    expect(validateExperiences([exp({ start: '2022-01', end: '2021-12' })], now)).to.deep.equal([{ end: MESSAGES.endBeforeStart }]);
    expect(validateEducation([{ school: 'S', degree: 'D', field: '', start: '2015-07', end: '2015-7' }], now)).to.deep.equal([
      { end: MESSAGES.dateInvalid },
    ]);
  });

  it('education entries need school, degree and start, same date rule', () => {
    const edu = { school: 'IIT', degree: 'B.Tech', field: '', start: '2015-07', end: '2019-05' };
    expect(validateEducation([edu], now)).to.deep.equal([{}]);
    expect(validateEducation([{ ...edu, school: '', degree: '', start: '' }], now)).to.deep.equal([
      { school: MESSAGES.required, degree: MESSAGES.required, start: MESSAGES.required },
    ]);
    expect(validateEducation([{ ...edu, end: '2015-06' }], now)[0].end).to.equal(MESSAGES.endBeforeStart);
  });
});

describe('application rules: skills and answers', () => {
  it('ignores blanks and case-insensitive duplicates', () => {
    let skills: string[] = [];
    skills = addSkill(skills, '  React ');
    skills = addSkill(skills, 'react');
    skills = addSkill(skills, '   ');
    skills = addSkill(skills, 'Go');
    expect(skills).to.deep.equal(['React', 'Go']);
    expect(normaliseSkills(['a', 'A', ' b ', ''])).to.deep.equal(['a', 'b']);
  });

  it('suggests after 2 typed characters, at most 8, never one already chosen', () => {
    expect(suggestSkills(SUGGESTED_SKILLS, 'j', [])).to.deep.equal([]);
    const a = suggestSkills(SUGGESTED_SKILLS, 'ja', []);
    expect(a).to.include('JavaScript').and.include('Java');
    expect(suggestSkills(SUGGESTED_SKILLS, 'ja', ['javascript'])).to.not.include('JavaScript');
    expect(suggestSkills(SUGGESTED_SKILLS, 'an', []).length).to.equal(8);
  });

  it('has about 90 distinct suggested skills', () => {
    expect(SUGGESTED_SKILLS.length).to.be.within(85, 100);
    expect(new Set(SUGGESTED_SKILLS.map((s) => s.toLowerCase())).size).to.equal(SUGGESTED_SKILLS.length);
  });

  it('every required question needs a non-empty answer; an empty list counts as empty', () => {
    const questions = [
      { id: 1, required: true, answer_type: 'short_text' as const, options: [] },
      { id: 2, required: true, answer_type: 'checkbox' as const, options: ['a', 'b'] },
      { id: 3, required: false, answer_type: 'number' as const, options: [] },
      { id: 4, required: true, answer_type: 'single_choice' as const, options: ['x'] },
    ];
    expect(validateAnswers(questions, { 1: '  ', 2: [], 3: '' })).to.deep.equal({ 1: 'Required', 2: 'Required', 4: 'Required' });
    expect(validateAnswers(questions, { 1: 'hi', 2: ['a'], 3: '4.5', 4: 'x' })).to.deep.equal({});
    expect(validateAnswers(questions, { 1: 'hi', 2: ['a'], 3: 'four', 4: 'x' })).to.deep.equal({ 3: 'Enter a number.' });
    expect(isEmptyAnswer([])).to.equal(true);
    expect(isEmptyAnswer(['a'])).to.equal(false);
  });

  it('numbers: the HTML "valid floating-point number" grammar, as <input type=number> accepts it', () => {
    for (const ok of ['0', '7', '-3', '4.5', '.5', '-.5', '1e3', '1E3', '2.5e-1', '2.5E+2', '007', '-0', '  12  ']) {
      expect(isNumeric(ok), JSON.stringify(ok)).to.equal(true);
      expect(numberAnswerError(ok), JSON.stringify(ok)).to.equal(null);
    }
    for (const bad of [
      '',
      '   ',
      'seven',
      '5.',
      '.',
      '-',
      '+5',
      '1e',
      'e3',
      '1e3.5',
      '1.2.3',
      '1,000',
      '1 000',
      '0x10',
      '0b1',
      'Infinity',
      '-Infinity',
      'NaN',
      '1_000',
      '١٢',
      '4\u00002',
      '5\u0000',
    ]) {
      expect(isNumeric(bad), JSON.stringify(bad)).to.equal(false);
      if (bad.trim()) expect(numberAnswerError(bad), JSON.stringify(bad)).to.equal(MESSAGES.numberInvalid);
    }
  });

  it('numbers: a magnitude that application_answers.answer_number (DECIMAL(20,4)) cannot hold is refused with a clear message', () => {
    expect(MESSAGES.numberRange).to.equal('Enter a number between -999999999999999 and 999999999999999.');
    expect(numberAnswerError(String(NUMBER_ANSWER_MAX))).to.equal(null);
    expect(numberAnswerError(`-${NUMBER_ANSWER_MAX}`)).to.equal(null);
    for (const big of ['1e30', '-1e30', '1e15', '1000000000000000', '1e400', '-1e400', '9.99e15']) {
      expect(numberAnswerError(big), big).to.equal(MESSAGES.numberRange);
    }
    // Tiny values are numbers (they round to 0 at the column's scale).
    expect(numberAnswerError('1e-400')).to.equal(null);
    const questions = [{ id: 1, required: false, answer_type: 'number' as const, options: [] }];
    expect(validateAnswers(questions, { 1: '1e30' })).to.deep.equal({ 1: MESSAGES.numberRange });
    expect(validateAnswers(questions, { 1: '.5' })).to.deep.equal({});
    expect(validateAnswers(questions, { 1: '0x1' })).to.deep.equal({ 1: MESSAGES.numberInvalid });
  });

  it('offers about 80 countries with India (+91) first', () => {
    expect(DIAL_CODES[0]).to.deep.include({ country: 'India', code: '+91' });
    expect(DIAL_CODES.length).to.be.within(75, 95);
  });
});

describe('API error bodies (spec 01 section 8)', () => {
  it('flattens text, lists, objects and nested objects into lines', () => {
    expect(flattenErrorBody('Service down')).to.deep.equal(['Service down']);
    expect(flattenErrorBody(['one', 'two'])).to.deep.equal(['one', 'two']);
    expect(flattenErrorBody({ email: ["Provided email isn't valid.", 'Second'], phone: ['Bad'] })).to.deep.equal([
      "email: Provided email isn't valid., Second",
      'phone: Bad',
    ]);
    expect(flattenErrorBody({ professional_experiences: [{ company: ['Required'] }, { role: 'Required' }] })).to.deep.equal([
      'professional_experiences.0.company: Required',
      'professional_experiences.1.role: Required',
    ]);
    expect(flattenErrorBody({ education: { 0: { school: ['Required'] } } })).to.deep.equal(['education.0.school: Required']);
    expect(flattenErrorBody({ 'answers.12': ['Required'], detail: 'Bad request.' })).to.deep.equal([
      'answers.12: Required',
      'Bad request.',
    ]);
  });

  it('returns null when the body cannot be flattened', () => {
    for (const body of [null, undefined, 42, true, '', '  ', '<html><body>502 Bad Gateway</body></html>', {}, { a: true }]) {
      expect(flattenErrorBody(body), JSON.stringify(body)).to.equal(null);
    }
  });

  it('extracts one message: detail, else the first email error, else the first text of any field', () => {
    expect(extractErrorMessage({ detail: 'Closed.', email: ['E'] })).to.equal('Closed.');
    expect(extractErrorMessage({ phone: ['P'], email: ['E1', 'E2'] })).to.equal('E1');
    expect(extractErrorMessage({ phone: ['P1', 'P2'], resume: ['R'] })).to.equal('P1');
    expect(extractErrorMessage({ first_name: 'Plain text' })).to.equal('Plain text');
    expect(extractErrorMessage({ professional_experiences: [{ company: ['Required'] }] })).to.equal('Required');
    expect(extractErrorMessage('Too many requests')).to.equal('Too many requests');
    expect(extractErrorMessage(['first'])).to.equal('first');
    expect(extractErrorMessage({})).to.equal(null);
    expect(extractErrorMessage(null)).to.equal(null);
    expect(extractErrorMessage('<!doctype html><p>oops</p>')).to.equal(null);
  });

  it('joins field-keyed arrays with a comma, for the chosen fields', () => {
    const body = { first_name: ['A', 'B'], email: ['E'], detail: 'D', 'answers.3': ['Required'], skills: [] };
    expect(fieldErrorMessages(body, ['first_name', 'last_name', 'email', 'phone', 'resume'])).to.deep.equal({
      first_name: 'A, B',
      email: 'E',
    });
    expect(fieldErrorMessages(body)).to.deep.equal({ first_name: 'A, B', email: 'E', 'answers.3': 'Required' });
    expect(fieldErrorMessages('text')).to.deep.equal({});
  });
});
