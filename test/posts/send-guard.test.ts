/**
 * The server-side request forgery guard at send time: a name is resolved once in the socket's
 * lookup, every address is checked, and the connection goes to the address that was checked.
 */
import { expect } from 'chai';
import type { LookupAddress } from 'node:dns';
import { createHttpSender, guardedLookup, type LookupAll } from '../../src/posts/lib/http-sender.js';
import { startReceiver, type Receiver } from './helpers.js';

/** A resolver that knows a few names and counts how often it was asked. */
function fakeDns(table: Record<string, string[]>) {
  const calls: string[] = [];
  const lookup: LookupAll = (hostname, _opts, cb) => {
    calls.push(hostname);
    const addrs = table[hostname];
    if (!addrs) return cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
    cb(
      null,
      addrs.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 })),
    );
  };
  return { lookup, calls };
}

describe('posts: address check at send time', () => {
  let receiver: Receiver;
  beforeEach(async () => {
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await receiver.close();
  });

  it('refuses a public-looking name that resolves to a private address, and sends nothing', async () => {
    const dns = fakeDns({ 'hooks.example.com': ['127.0.0.1'] });
    const sender = createHttpSender({ allowPrivate: false, lookup: dns.lookup });
    try {
      const r = await sender.post(`http://hooks.example.com:${receiver.port}/hook`, '{}', {});
      expect(r.ok).to.equal(false);
      expect(r.error).to.equal('Refused: hooks.example.com resolves to an address that is not public');
      expect(receiver.received).to.have.length(0);
    } finally {
      await sender.close();
    }
  });

  it('refuses when any one of the addresses is private (rebinding by a second record)', async () => {
    const dns = fakeDns({ 'mixed.example.com': ['93.184.216.34', '10.0.0.5'] });
    const sender = createHttpSender({ allowPrivate: false, lookup: dns.lookup });
    try {
      const r = await sender.post(`http://mixed.example.com:${receiver.port}/hook`, '{}', {});
      expect(r.error).to.match(/^Refused: mixed\.example\.com/);
    } finally {
      await sender.close();
    }
  });

  it('refuses literal private addresses, localhost and other schemes without resolving anything', async () => {
    const dns = fakeDns({});
    const sender = createHttpSender({ allowPrivate: false, lookup: dns.lookup });
    try {
      for (const url of [
        `http://127.0.0.1:${receiver.port}/hook`,
        'http://[::1]/',
        'http://169.254.169.254/latest',
        'http://localhost/',
        'http://2130706433/',
        'ftp://example.com/',
      ]) {
        const r = await sender.post(url, '{}', {});
        expect(r.ok, url).to.equal(false);
        expect(r.error, url).to.match(/^Refused/);
      }
      expect(dns.calls).to.deep.equal([]);
      expect(receiver.received).to.have.length(0);
    } finally {
      await sender.close();
    }
  });

  it('connects to the address the check saw: one lookup, no second resolution by the socket', async () => {
    // The name exists only in the fake resolver: reaching the receiver proves the socket used our answer.
    const dns = fakeDns({ 'receiver.internal.test': ['127.0.0.1'] });
    const sender = createHttpSender({ allowPrivate: true, lookup: dns.lookup });
    try {
      const r = await sender.post(`http://receiver.internal.test:${receiver.port}/hook`, '{"a":1}', {});
      expect(r).to.include({ ok: true, statusCode: 200 });
      expect(receiver.received[0].body).to.equal('{"a":1}');
      expect(dns.calls).to.deep.equal(['receiver.internal.test']);
    } finally {
      await sender.close();
    }
  });

  it('the lookup hook answers in both of the socket’s forms', async () => {
    const dns = fakeDns({ 'a.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'] });
    const hook = guardedLookup(dns.lookup, false);
    const one = await new Promise<unknown[]>((resolve) => hook('a.example.com', {}, (...args) => resolve(args)));
    expect(one).to.deep.equal([null, '93.184.216.34', 4]);
    const all = await new Promise<unknown[]>((resolve) => hook('a.example.com', { all: true }, (...args) => resolve(args)));
    expect((all[1] as LookupAddress[]).map((a) => a.address)).to.have.length(2);
  });
});
