/** HR pages' formatters (issue 33: a number format per locale and a phone's formatting are kept, not made again per row and request). */
import { expect } from 'chai';
import type { Request } from 'express';
import { formatPhone, formatters } from '../../src/render/formatters.js';

const request = (acceptLanguage?: string) => ({ headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {} }) as Request;

describe('HR page formatters', () => {
  it('show a stored phone as people read it, the same the second time, and anything else as stored', () => {
    for (let round = 0; round < 2; round++) {
      expect(formatPhone('+919876543210')).to.equal('+91 98765 43210');
      expect(formatPhone('  +14155552671 ')).to.equal('+1 415 555 2671');
      expect(formatPhone('+12')).to.equal('+12');
      expect(formatPhone('call me')).to.equal('call me');
      expect(formatPhone('')).to.equal('');
      expect(formatPhone(null)).to.equal('');
    }
  });

  it("group numbers in the visitor's language, each request with its own", () => {
    expect(formatters(request('de-DE')).num(1234567)).to.equal('1.234.567');
    expect(formatters(request('en-US')).num(1234567)).to.equal('1,234,567');
    expect(formatters(request('de-DE,en;q=0.5')).num(1234567)).to.equal('1.234.567');
    expect(formatters(request()).num(1234567)).to.equal('1,234,567');
  });
});
