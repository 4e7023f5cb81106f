/** The search's normalisation (src/shared/search-words.ts): the same words for both databases. */
import { expect } from 'chai';
import { applicationSearchWords, foldText, prefixEnd, searchTerms, textWords } from '../../src/shared/search-words.js';

describe('applicant search words', () => {
  it('folds case and accents, and spells out letters that do not decompose', () => {
    expect(foldText('JOSÉ Müller Ångström Çelik')).to.equal('jose muller angstrom celik');
    expect(foldText('Straße Ølsen Łukasz Æsir Œuvre Đorđe')).to.equal('strasse olsen lukasz aesir oeuvre dorde');
    expect(foldText('ＡＢＣ１２３')).to.equal('abc123'); // full-width forms (NFKD)
  });

  it('splits at every character that is not a letter or a digit, keeping other scripts', () => {
    expect(textWords("D'Souza-Rao  priya.patel+jobs@mail.example.co.in")).to.deep.equal([
      'd',
      'souza',
      'rao',
      'priya',
      'patel',
      'jobs',
      'mail',
      'example',
      'co',
      'in',
    ]);
    expect(textWords('Дмитрий 李小龍 محمد')).to.deep.equal(['дмитрии', '李小龍', 'محمد']);
    expect(textWords('a'.repeat(80))[0]).to.have.length(64);
    expect(textWords(' -- ')).to.deep.equal([]);
  });

  it("stores an application's name and email words and the tails of its phone digits", () => {
    const words = applicationSearchWords({ first_name: 'Asha', last_name: 'Rao', email: 'asha@rao.in', phone: '+91 98765' });
    expect(words).to.deep.equal(['asha', 'rao', 'in', '#9198765', '#198765', '#98765', '#8765', '#765']);
  });

  it('reads a query as words (prefixes of others dropped) and its digits when there are three or more', () => {
    expect(searchTerms('Jo José')).to.deep.equal({ words: ['jose'], phoneDigits: null });
    expect(searchTerms('+91 987')).to.deep.equal({ words: ['91', '987'], phoneDigits: '91987' });
    expect(searchTerms('12')).to.deep.equal({ words: ['12'], phoneDigits: null });
  });

  it('ends a prefix range after every word starting with it, in code point order', () => {
    expect(prefixEnd('jos')).to.equal('jot');
    expect(prefixEnd('az')).to.equal('a{');
    expect(prefixEnd('#98')).to.equal('#99');
    expect(prefixEnd('李')).to.equal(String.fromCodePoint('李'.codePointAt(0)! + 1));
    for (const w of ['jos', 'jose', 'josephine', 'jos\u{10ffff}']) expect(w >= 'jos' && w < prefixEnd('jos'), w).to.equal(true);
    expect('jot' < prefixEnd('jos')).to.equal(false);
  });
});
