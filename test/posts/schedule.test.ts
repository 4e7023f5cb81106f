/** The retry schedule's arithmetic, Retry-After, and signing (pure functions). */
import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { DEFAULT_RETRY_SCHEDULE, loadConfig } from '../../config/index.js';
import { parseRetryAfter, retryDelayMs } from '../../src/posts/lib/schedule.js';
import { signature, signingKey } from '../../src/posts/lib/signing.js';

describe('posts: retry schedule', () => {
  it('is 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after the first attempt, then nothing', () => {
    expect(DEFAULT_RETRY_SCHEDULE.map((_, i) => retryDelayMs(i + 1, DEFAULT_RETRY_SCHEDULE, () => 0.5))).to.deep.equal([
      5000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
    expect(retryDelayMs(8, DEFAULT_RETRY_SCHEDULE, () => 0.5)).to.equal(null);
  });

  it('spreads each delay by at most ±20 %', () => {
    expect(retryDelayMs(2, DEFAULT_RETRY_SCHEDULE, () => 0)).to.equal(240_000);
    expect(retryDelayMs(2, DEFAULT_RETRY_SCHEDULE, () => 0.999999)).to.be.closeTo(360_000, 1);
    for (let i = 0; i < 200; i++) expect(retryDelayMs(1, DEFAULT_RETRY_SCHEDULE)).to.be.within(4000, 6000);
  });

  it('reads Retry-After as seconds or an HTTP date, capped at a week', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).to.equal(120);
    expect(parseRetryAfter('Thu, 01 Jan 2026 01:00:00 GMT', now)).to.equal(3600);
    expect(parseRetryAfter('99999999', now)).to.equal(7 * 86_400);
    expect(parseRetryAfter('soon', now)).to.equal(null);
    expect(parseRetryAfter('0', now)).to.equal(0);
    for (const bad of ['-5', '5.5', '10, 20', '1e3', 'Wed, 31 Dec 2025 23:00:00 GMT', '2026-01-01T02:00:00Z'])
      expect(parseRetryAfter(bad, now), bad).to.equal(null);
    expect(parseRetryAfter(null, now)).to.equal(null);
  });

  it('POSTS_RETRY_SCHEDULE, POSTS_WORKER and POSTS_ATTEMPT_RETENTION_DAYS are read and checked at boot', () => {
    const c = loadConfig({ POSTS_RETRY_SCHEDULE: '1, 2,3', POSTS_WORKER: 'off', POSTS_ATTEMPT_RETENTION_DAYS: '7' });
    expect(c.postsRetrySchedule).to.deep.equal([1, 2, 3]);
    expect(c.postsWorker).to.equal(false);
    expect(c.postsAttemptRetentionDays).to.equal(7);
    expect(loadConfig({}).postsRetrySchedule).to.deep.equal(DEFAULT_RETRY_SCHEDULE);
    expect(() => loadConfig({ POSTS_RETRY_SCHEDULE: '5,x' })).to.throw(/POSTS_RETRY_SCHEDULE must be/);
    expect(() => loadConfig({ POSTS_WORKER: 'maybe' })).to.throw(/POSTS_WORKER must be true or false/);
    expect(() => loadConfig({ MAIL_FROM: 'not an address' })).to.throw(/MAIL_FROM must be/);
    expect(loadConfig({ MAIL_FROM: 'Acme Careers <jobs@acme.example>' }).mail.from).to.equal('Acme Careers <jobs@acme.example>');
  });
});

describe('posts: Standard Webhooks signature', () => {
  it('is v1,base64(HMAC-SHA256(key, id.timestamp.body)) with the secret as key, or its whsec_ bytes', () => {
    const expected = createHmac('sha256', 'k').update('msg_1.1700000000.{"a":1}').digest('base64');
    expect(signature('k', 'msg_1', 1700000000, '{"a":1}')).to.equal(`v1,${expected}`);
    expect(signingKey(`whsec_${Buffer.from([1, 2, 3]).toString('base64')}`)).to.deep.equal(Buffer.from([1, 2, 3]));
  });
});
