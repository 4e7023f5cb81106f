/** Auth building blocks: passwords, the session store, credential checks, header parsing. */
import { expect } from 'chai';
import type { Request } from 'express';
import { authorizationBearer, tokenCookie } from '../../src/http/credentials.js';
import { checkCredentials } from '../../src/users/lib/passport.js';
import { hashPassword, verifyPassword } from '../../src/users/lib/passwords.js';
import { passwordProblem } from '../../src/users/schema.js';
import { parseCredentials } from '../../src/users/api.js';
import {
  createSession,
  deleteExpiredSessions,
  findSession,
  hashToken,
  revokeSession,
  revokeUserSessions,
  findUserByUsername,
  insertUser,
  setActive,
  setPassword,
  touchLastLogin,
} from '../../src/users/repo.js';
import { ValidationError } from '../../src/http/errors.js';
import { createTestDb, databaseKinds, type TestDb } from '../helpers/db.js';

const req = (headers: Record<string, string>) => ({ headers }) as unknown as Request;

describe('auth: passwords', () => {
  it('hashes with scrypt and a per-user salt, and verifies', async () => {
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    expect(a).to.match(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(a).to.not.equal(b);
    expect(await verifyPassword('correct horse battery', a)).to.equal(true);
    expect(await verifyPassword('correct horse batterY', a)).to.equal(false);
    expect(await verifyPassword('', a)).to.equal(false);
    // NFKC: the same password typed with a composed or decomposed accent.
    const c = await hashPassword('caf\u00e9 au lait');
    expect(await verifyPassword('cafe\u0301 au lait', c)).to.equal(true);
  });

  it('refuses stored values of another shape instead of throwing', async () => {
    const good = (await hashPassword('x')).split('$');
    const damaged = [
      ['scrypt', '1000', '8', '1', good[4], good[5]],
      ['scrypt', 'N', '8', '1', good[4], good[5]],
      ['scrypt', '16384', '8', '1', good[4], ''],
    ].map((p) => p.join('$'));
    for (const stored of ['', 'plain', 'bcrypt$x$y', 'scrypt$16384$8$1$c2FsdA==', ...damaged])
      expect(await verifyPassword('x', stored)).to.equal(false);
  });

  it('checks new passwords: 8 to 256 characters', () => {
    expect(passwordProblem('1234567')).to.equal('Password must be at least 8 characters.');
    expect(passwordProblem('12345678')).to.equal(null);
    expect(passwordProblem('x'.repeat(257))).to.equal('Password must be at most 256 characters.');
  });
});

describe('auth: request parsing', () => {
  it('reads the Bearer header strictly', () => {
    expect(authorizationBearer(req({}))).to.equal(undefined);
    expect(authorizationBearer(req({ authorization: 'Bearer abc' }))).to.equal('abc');
    expect(authorizationBearer(req({ authorization: 'bearer   abc  ' }))).to.equal('abc');
    for (const bad of ['', 'Bearer', 'Bearer ', 'Bearer a b', 'Basic abc', 'abc', 'Bearerabc']) {
      expect(authorizationBearer(req({ authorization: bad })), bad).to.equal(null);
    }
  });

  it('reads the jwt cookie among others, and tells a broken one apart', () => {
    expect(tokenCookie(req({ cookie: 'a=1; jwt=tok%2Den; b=2' }))).to.deep.equal({ raw: 'tok%2Den', token: 'tok-en' });
    expect(tokenCookie(req({ cookie: 'notjwt=x' }))).to.equal(undefined);
    expect(tokenCookie(req({ cookie: 'jwt=%E0%A4%A' }))).to.deep.equal({ raw: '%E0%A4%A', token: null });
    expect(tokenCookie(req({ cookie: 'jwt=' }))).to.deep.equal({ raw: '', token: null });
    expect(tokenCookie(req({}))).to.equal(undefined);
  });

  it('parses credentials with field errors', () => {
    expect(parseCredentials({ username: ' HR.Admin ', password: ' spaced pw ' })).to.deep.equal({
      username: 'hr.admin',
      password: ' spaced pw ',
    });
    const fail = (body: unknown) => {
      try {
        parseCredentials(body);
      } catch (err) {
        expect(err).to.be.instanceOf(ValidationError);
        return (err as ValidationError).fields;
      }
      throw new Error('expected a ValidationError');
    };
    expect(fail(undefined)).to.deep.equal({ username: ['This field is required.'], password: ['This field is required.'] });
    expect(fail('username=x')).to.deep.equal({ username: ['This field is required.'], password: ['This field is required.'] });
    expect(fail(Object.create({ username: 'inherited', password: 'inherited' }))).to.have.keys('username', 'password');
    expect(fail({ username: 'a', password: 'b'.repeat(257) })).to.deep.equal({
      password: ['Ensure this field has no more than 256 characters.'],
    });
  });
});

for (const kind of databaseKinds()) {
  describe(`auth: users and session store [${kind}]`, function () {
    this.timeout(30_000);
    let t: TestDb;
    let userId: number;
    before(async () => {
      t = await createTestDb(kind);
      userId = await insertUser(t.db, 'Store.User', await hashPassword('correct horse battery'));
    });
    after(() => t.destroy());

    it('stores usernames lower-case and finds them in any case', async () => {
      const u = (await findUserByUsername(t.db, ' STORE.user '))!;
      expect(u.username).to.equal('store.user');
      expect(u.is_active).to.equal(true);
      expect(u.last_login_at).to.equal(null);
      await touchLastLogin(t.db, userId, new Date('2026-02-03T04:05:06.789Z'));
      expect((await findUserByUsername(t.db, 'store.user'))!.last_login_at!.toISOString()).to.equal('2026-02-03T04:05:06.789Z');
    });

    it('creates, finds, expires and revokes sessions', async () => {
      const now = new Date('2030-01-01T00:00:00Z');
      const { token, expiresAt } = await createSession(t.db, userId, 60, now, { ip: '10.0.0.1', userAgent: 'x'.repeat(500) });
      expect(token).to.match(/^[A-Za-z0-9_-]{43}$/);
      expect(expiresAt.toISOString()).to.equal('2030-01-01T00:01:00.000Z');
      const row = await t
        .db('hr_sessions')
        .where({ token_hash: hashToken(token) })
        .first();
      expect(row.user_agent).to.have.length(191);
      const s = (await findSession(t.db, token, now))!;
      expect(s).to.include({ userId, username: 'store.user' });
      expect(await findSession(t.db, token, new Date('2030-01-01T00:00:59.999Z'))).to.not.equal(null);
      expect(await findSession(t.db, token, new Date('2030-01-01T00:01:00Z')), 'expired at expires_at').to.equal(null);
      expect(await findSession(t.db, token.slice(1), now)).to.equal(null);
      expect(await findSession(t.db, token + 'x', now)).to.equal(null);
      expect(await revokeSession(t.db, token)).to.equal(true);
      expect(await revokeSession(t.db, token)).to.equal(false);
      expect(await findSession(t.db, token, now)).to.equal(null);
    });

    it('sweeps expired sessions and revokes all of a user', async () => {
      const now = new Date();
      const old = await createSession(t.db, userId, 60, new Date(now.getTime() - 120_000));
      const live = await createSession(t.db, userId, 3600, now);
      const live2 = await createSession(t.db, userId, 3600, now);
      expect(await deleteExpiredSessions(t.db, now)).to.be.at.least(1);
      expect(
        await t
          .db('hr_sessions')
          .where({ token_hash: hashToken(old.token) })
          .first(),
      ).to.equal(undefined);
      expect(await findSession(t.db, live.token, now)).to.not.equal(null);
      expect(await revokeUserSessions(t.db, userId)).to.equal(2);
      expect(await findSession(t.db, live2.token, now)).to.equal(null);
    });

    it('checks credentials: right password and active only, names of the allowed shape only', async () => {
      expect(await checkCredentials(t.db, 'STORE.USER', 'correct horse battery')).to.deep.equal({ id: userId, username: 'store.user' });
      expect(await checkCredentials(t.db, 'store.user', 'wrong')).to.equal(null);
      expect(await checkCredentials(t.db, 'nobody', 'correct horse battery')).to.equal(null);
      expect(await checkCredentials(t.db, 'store.user\u0000', 'correct horse battery')).to.equal(null);
      expect(await checkCredentials(t.db, 'störe.user', 'correct horse battery')).to.equal(null);
      await setPassword(t.db, userId, await hashPassword('another long one'));
      expect(await checkCredentials(t.db, 'store.user', 'correct horse battery')).to.equal(null);
      expect(await checkCredentials(t.db, 'store.user', 'another long one')).to.not.equal(null);
      await setActive(t.db, userId, false);
      expect(await checkCredentials(t.db, 'store.user', 'another long one')).to.equal(null);
      const { token } = await createSession(t.db, userId, 60, new Date());
      expect(await findSession(t.db, token, new Date()), 'a disabled user has no live session').to.equal(null);
      await setActive(t.db, userId, true);
      expect(await findSession(t.db, token, new Date())).to.not.equal(null);
    });
  });
}
