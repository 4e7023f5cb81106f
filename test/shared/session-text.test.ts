/** The words of sliding sessions (src/shared/session-text.ts): why a session ended, and when the offer shows. */
import { expect } from 'chai';
import { offerLeadMs, signedOutMessage } from '../../src/shared/session-text.js';

describe('session texts', () => {
  it('says why a session ended, with the configured numbers, "1 minute" and "1 hour" in the singular', () => {
    expect(signedOutMessage('idle', { idleMinutes: 60, maxHours: 12 })).to.equal('You were signed out after 60 minutes without activity');
    expect(signedOutMessage('idle', { idleMinutes: 1, maxHours: 12 })).to.equal('You were signed out after 1 minute without activity');
    expect(signedOutMessage('limit', { idleMinutes: 60, maxHours: 12 })).to.equal(
      'You were signed out after 12 hours; please sign in again.',
    );
    expect(signedOutMessage('limit', { idleMinutes: 1, maxHours: 1 })).to.equal('You were signed out after 1 hour; please sign in again.');
  });

  it('offers to stay signed in two minutes before the end, or halfway through a timeout under four minutes', () => {
    expect(offerLeadMs({ idleMinutes: 60, maxHours: 12 })).to.equal(120_000);
    expect(offerLeadMs({ idleMinutes: 4, maxHours: 12 })).to.equal(120_000);
    expect(offerLeadMs({ idleMinutes: 3, maxHours: 12 })).to.equal(90_000);
    expect(offerLeadMs({ idleMinutes: 1, maxHours: 12 })).to.equal(30_000);
  });
});
