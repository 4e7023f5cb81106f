/** The address policy of outbound posts: which hosts and resolved addresses are private or local. */
import { expect } from 'chai';
import { isPrivateAddress, isPrivateHost } from '../../src/posts/private-address.js';

describe('private address policy', () => {
  it('blocks IPv4 loopback, private, link-local, CGNAT, unspecified, multicast and reserved ranges (edges included)', () => {
    for (const ip of [
      '127.0.0.1', '127.255.255.255', '10.0.0.0', '10.255.255.255', '172.16.0.0', '172.31.255.255', '192.168.0.0', '192.168.255.255',
      '169.254.0.0', '169.254.169.254', '169.254.255.255', '100.64.0.0', '100.127.255.255', '0.0.0.0', '0.255.255.255',
      '198.18.0.1', '198.19.255.255', '224.0.0.1', '239.255.255.255', '240.0.0.1', '255.255.255.255',
    ]) {
      expect(isPrivateAddress(ip), ip).to.equal(true);
    }
  });

  it('lets public IPv4 addresses through, including the neighbours of blocked ranges', () => {
    for (const ip of ['8.8.8.8', '1.1.1.1', '9.255.255.255', '11.0.0.0', '172.15.255.255', '172.32.0.0', '192.167.255.255', '192.169.0.0', '169.253.255.255', '169.255.0.0', '100.63.255.255', '100.128.0.0', '126.255.255.255', '128.0.0.0', '198.17.255.255', '198.20.0.0', '223.255.255.255']) {
      expect(isPrivateAddress(ip), ip).to.equal(false);
    }
  });

  it('blocks IPv6 unspecified, loopback, ULA, link-local, site-local and multicast', () => {
    for (const ip of ['::', '::1', '0:0:0:0:0:0:0:1', 'fc00::', 'fd12:3456:789a::1', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'fe80::1', 'febf::1', 'fec0::1', 'ff02::1', '[::1]', 'fe80::1%eth0']) {
      expect(isPrivateAddress(ip), ip).to.equal(true);
    }
  });

  it('looks inside IPv4-mapped, IPv4-compatible and NAT64 IPv6 addresses', () => {
    for (const ip of ['::ffff:127.0.0.1', '::ffff:7f00:1', '::FFFF:10.0.0.1', '::ffff:a9fe:a9fe', '::ffff:169.254.169.254', '0:0:0:0:0:ffff:c0a8:101', '::127.0.0.1', '::7f00:1', '::a00:1', '64:ff9b::10.0.0.1', '64:ff9b::a9fe:a9fe']) {
      expect(isPrivateAddress(ip), ip).to.equal(true);
    }
    for (const ip of ['::ffff:8.8.8.8', '::ffff:808:808', '64:ff9b::8.8.8.8', '::808:808']) {
      expect(isPrivateAddress(ip), ip).to.equal(false);
    }
  });

  it('lets public IPv6 addresses through', () => {
    for (const ip of ['2001:4860:4860::8888', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e', 'fbff::1', 'fe7f::1', '64:ff9c::a00:1']) {
      expect(isPrivateAddress(ip), ip).to.equal(false);
    }
  });

  it('is false for things that are not IP addresses', () => {
    for (const v of ['', 'example.com', 'localhost', '127.0.0.1.example.com', '1.2.3', '::g', '[::1']) expect(isPrivateAddress(v), v).to.equal(false);
  });

  it('blocks localhost names and private literals as URL hostnames, in every spelling WHATWG parsing accepts', () => {
    const blocked = [
      'http://localhost/', 'http://LocalHost./', 'http://localhost../', 'http://x.localhost/', 'http://a.b.LOCALHOST/',
      'http://2130706433/', 'http://0x7f000001/', 'http://0x7F.1/', 'http://017700000001/', 'http://0177.0.0.01/', 'http://127.1/', 'http://127.0.1/',
      'http://0/', 'http://0.0.0.0/', 'http://[::]/', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/', 'http://[fd00::1]/', 'http://[fe80::abcd]/',
      'http://169.254.169.254/', 'http://2852039166/', 'http://0xa9.0xfe.0xa9.0xfe/', 'http://100.64.1.1/', 'http://3232235777/', 'http://10.1/',
    ];
    for (const url of blocked) expect(isPrivateHost(new URL(url).hostname), url).to.equal(true);
    const allowed = ['https://example.com/', 'https://localhost.example.com/', 'https://mylocalhost/', 'https://localhost-api.example/', 'http://8.8.8.8/', 'http://134744072/', 'http://[2001:db8::1]/', 'https://xn--bcher-kva.example/'];
    for (const url of allowed) expect(isPrivateHost(new URL(url).hostname), url).to.equal(false);
  });
});
