import { expect } from 'chai';
import { ALPHABET, randomPublicId } from '../../src/shared/ids.js';

describe('randomPublicId', () => {
  it('uses only the unambiguous alphabet, at the length asked for', () => {
    expect(ALPHABET).to.have.length(55);
    expect(ALPHABET).not.to.match(/[0O1lIio]/);
    expect(new Set(ALPHABET).size).to.equal(ALPHABET.length);
    expect(randomPublicId()).to.match(/^[a-hjkmnp-zA-HJ-NP-Z2-9]{10}$/);
    for (const n of [0, 1, 7, 32, 200]) expect(randomPublicId(n)).to.have.length(n);
    const many = new Set(Array.from({ length: 1000 }, () => randomPublicId()));
    expect(many.size).to.equal(1000);
  });

  it('picks every character equally often (no modulo bias)', () => {
    // 4000 expected per character (standard deviation about 63): a fair pick stays well within
    // 10%, while `byte % 55` without dropping bytes would give the first 36 characters 4297 and
    // the others 3438 on average.
    const counts = new Map<string, number>();
    for (let i = 0; i < (ALPHABET.length * 4000) / 10; i++) {
      for (const c of randomPublicId()) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    expect([...counts.keys()].sort().join('')).to.equal([...ALPHABET].sort().join(''));
    for (const [c, n] of counts) expect(n, c).to.be.within(3600, 4400);
  });
});
