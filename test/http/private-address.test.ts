/**
 * The outbound address policy (src/http/private-address.ts): every block of the IANA IPv4 and IPv6
 * Special-Purpose Address Registries (plus multicast, site-local and the space outside IPv6 global
 * unicast) is refused at its first, a middle and its last address, as a resolved address (send
 * time) and as a URL host (save time); public addresses, including the neighbours of refused
 * blocks, pass; and the spellings a URL parser or a resolver may produce are judged the same way.
 */
import { expect } from 'chai';
import { isAllowedAddress, isAllowedHost } from '../../src/http/private-address.js';

type Block = [block: string, what: string, first: string, middle: string, last: string];

/** IANA IPv4 Special-Purpose Address Registry (and multicast), first / middle / last address. */
const V4_BLOCKS: Block[] = [
  ['0.0.0.0/8', '"this network" (RFC 791); 0.0.0.0/32 "this host"', '0.0.0.0', '0.128.0.0', '0.255.255.255'],
  ['10.0.0.0/8', 'private-use (RFC 1918)', '10.0.0.0', '10.128.0.0', '10.255.255.255'],
  ['100.64.0.0/10', 'shared address space, CGNAT (RFC 6598)', '100.64.0.0', '100.96.0.0', '100.127.255.255'],
  ['127.0.0.0/8', 'loopback (RFC 1122)', '127.0.0.0', '127.128.0.0', '127.255.255.255'],
  ['169.254.0.0/16', 'link-local, cloud metadata (RFC 3927)', '169.254.0.0', '169.254.169.254', '169.254.255.255'],
  ['172.16.0.0/12', 'private-use (RFC 1918)', '172.16.0.0', '172.24.0.0', '172.31.255.255'],
  ['192.0.0.0/24', 'IETF protocol assignments (RFC 6890)', '192.0.0.0', '192.0.0.128', '192.0.0.255'],
  ['192.0.0.0/29', 'IPv4 service continuity prefix (RFC 7335)', '192.0.0.0', '192.0.0.4', '192.0.0.7'],
  ['192.0.0.8/32', 'IPv4 dummy address (RFC 7600)', '192.0.0.8', '192.0.0.8', '192.0.0.8'],
  ['192.0.0.9/32', 'port control protocol anycast (RFC 7723)', '192.0.0.9', '192.0.0.9', '192.0.0.9'],
  ['192.0.0.10/32', 'TURN anycast (RFC 8155)', '192.0.0.10', '192.0.0.10', '192.0.0.10'],
  ['192.0.0.170/31', 'NAT64/DNS64 discovery (RFC 8880)', '192.0.0.170', '192.0.0.170', '192.0.0.171'],
  ['192.0.2.0/24', 'documentation, TEST-NET-1 (RFC 5737)', '192.0.2.0', '192.0.2.128', '192.0.2.255'],
  ['192.31.196.0/24', 'AS112-v4 (RFC 7535)', '192.31.196.0', '192.31.196.128', '192.31.196.255'],
  ['192.52.193.0/24', 'AMT (RFC 7450)', '192.52.193.0', '192.52.193.128', '192.52.193.255'],
  ['192.88.99.0/24', 'deprecated 6to4 relay anycast (RFC 7526), 6a44 relay 192.88.99.2', '192.88.99.0', '192.88.99.2', '192.88.99.255'],
  ['192.168.0.0/16', 'private-use (RFC 1918)', '192.168.0.0', '192.168.128.0', '192.168.255.255'],
  ['192.175.48.0/24', 'direct delegation AS112 service (RFC 7534)', '192.175.48.0', '192.175.48.128', '192.175.48.255'],
  ['198.18.0.0/15', 'benchmarking (RFC 2544)', '198.18.0.0', '198.19.0.0', '198.19.255.255'],
  ['198.51.100.0/24', 'documentation, TEST-NET-2 (RFC 5737)', '198.51.100.0', '198.51.100.128', '198.51.100.255'],
  ['203.0.113.0/24', 'documentation, TEST-NET-3 (RFC 5737)', '203.0.113.0', '203.0.113.128', '203.0.113.255'],
  ['224.0.0.0/4', 'multicast (RFC 5771)', '224.0.0.0', '232.0.0.0', '239.255.255.255'],
  ['240.0.0.0/4', 'reserved (RFC 1112)', '240.0.0.0', '248.0.0.0', '255.255.255.254'],
  ['255.255.255.255/32', 'limited broadcast (RFC 919)', '255.255.255.255', '255.255.255.255', '255.255.255.255'],
];

const F = 'ffff:ffff:ffff:ffff';
/** IANA IPv6 Special-Purpose Address Registry (and multicast, site-local, non-global space). */
const V6_BLOCKS: Block[] = [
  ['::1/128', 'loopback (RFC 4291)', '::1', '0:0:0:0:0:0:0:1', '::1'],
  ['::/128', 'unspecified (RFC 4291)', '::', '0:0:0:0:0:0:0:0', '::'],
  ['::ffff:0:0:0/96', 'IPv4-translated (RFC 6145)', '::ffff:0:0:0', '::ffff:0:808:808', '::ffff:0:ffff:ffff'],
  ['::/96', 'IPv4-compatible, deprecated (RFC 4291 2.5.5.1)', '::2', '::8.8.8.8', '::ffff:fffe'],
  ['64:ff9b::/96', 'IPv4/IPv6 translation (RFC 6052)', '64:ff9b::', '64:ff9b::8.8.8.8', '64:ff9b::ffff:ffff'],
  ['64:ff9b:1::/48', 'local-use IPv4/IPv6 translation (RFC 8215)', '64:ff9b:1::', '64:ff9b:1:8000::', `64:ff9b:1:ffff:${F}`],
  ['100::/64', 'discard-only (RFC 6666)', '100::', '100::8000:0:0:0', `100::${F}`],
  ['100:0:0:1::/64', 'dummy IPv6 prefix (RFC 9780)', '100:0:0:1::', '100:0:0:1:8000::', `100:0:0:1:${F}`],
  ['2001::/23', 'IETF protocol assignments (RFC 2928)', '2001::', '2001:100::', `2001:1ff:ffff:ffff:${F}`],
  ['2001::/32', 'Teredo (RFC 4380)', '2001::', '2001:0:4136:e378:8000:63bf:3fff:fdd2', `2001:0:ffff:ffff:${F}`],
  ['2001:1::1/128', 'port control protocol anycast (RFC 7723)', '2001:1::1', '2001:1::1', '2001:1::1'],
  ['2001:1::2/128', 'TURN anycast (RFC 8155)', '2001:1::2', '2001:1::2', '2001:1::2'],
  ['2001:1::3/128', 'DNS-SD service registration anycast (RFC 9665)', '2001:1::3', '2001:1::3', '2001:1::3'],
  ['2001:2::/48', 'benchmarking (RFC 5180)', '2001:2::', '2001:2:0:8000::', `2001:2:0:ffff:${F}`],
  ['2001:3::/32', 'AMT (RFC 7450)', '2001:3::', '2001:3:8000::', `2001:3:ffff:ffff:${F}`],
  ['2001:4:112::/48', 'AS112-v6 (RFC 7535)', '2001:4:112::', '2001:4:112:8000::', `2001:4:112:ffff:${F}`],
  ['2001:10::/28', 'deprecated ORCHID (RFC 4843)', '2001:10::', '2001:18::', `2001:1f:ffff:ffff:${F}`],
  ['2001:20::/28', 'ORCHIDv2 (RFC 7343)', '2001:20::', '2001:28::', `2001:2f:ffff:ffff:${F}`],
  ['2001:30::/28', 'drone remote ID entity tags (RFC 9374)', '2001:30::', '2001:38::', `2001:3f:ffff:ffff:${F}`],
  ['2001:db8::/32', 'documentation (RFC 3849)', '2001:db8::', '2001:db8:8000::', `2001:db8:ffff:ffff:${F}`],
  ['2002::/16', '6to4 (RFC 3056)', '2002::', '2002:7f00:1::', `2002:ffff:ffff:ffff:${F}`],
  ['2620:4f:8000::/48', 'direct delegation AS112 service (RFC 7534)', '2620:4f:8000::', '2620:4f:8000:8000::', `2620:4f:8000:ffff:${F}`],
  ['3fff::/20', 'documentation (RFC 9637)', '3fff::', '3fff:800::', `3fff:fff:ffff:ffff:${F}`],
  ['5f00::/16', 'segment routing SIDs (RFC 9602)', '5f00::', '5f00:8000::', `5f00:ffff:ffff:ffff:${F}`],
  ['fc00::/7', 'unique-local (RFC 4193)', 'fc00::', 'fd12:3456:789a::1', `fdff:ffff:ffff:ffff:${F}`],
  ['fe80::/10', 'link-local (RFC 4291)', 'fe80::', 'fea0::', `febf:ffff:ffff:ffff:${F}`],
  ['fec0::/10', 'site-local, deprecated (RFC 3879)', 'fec0::', 'fee0::', `feff:ffff:ffff:ffff:${F}`],
  ['ff00::/8', 'multicast (RFC 4291)', 'ff00::', 'ff02::1', `ffff:ffff:ffff:ffff:${F}`],
  ['4000::/2', 'outside global unicast 2000::/3 (unassigned)', '4000::', '6000::', `7fff:ffff:ffff:ffff:${F}`],
  ['e000::/4', 'outside global unicast 2000::/3 (unassigned)', 'e000::', 'e800::', `efff:ffff:ffff:ffff:${F}`],
];

const PUBLIC_V4 = [
  '8.8.8.8',
  '1.1.1.1',
  '9.255.255.255',
  '11.0.0.0',
  '100.63.255.255',
  '100.128.0.0',
  '126.255.255.255',
  '128.0.0.0',
  '169.253.255.255',
  '169.255.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '191.255.255.255',
  '192.0.1.255',
  '192.0.3.0',
  '192.31.195.255',
  '192.31.197.0',
  '192.52.192.255',
  '192.52.194.0',
  '192.88.98.255',
  '192.88.100.0',
  '192.167.255.255',
  '192.169.0.0',
  '192.175.47.255',
  '192.175.49.0',
  '198.17.255.255',
  '198.20.0.0',
  '198.51.99.255',
  '198.51.101.0',
  '203.0.112.255',
  '203.0.114.0',
  '223.255.255.255',
];
const PUBLIC_V6 = [
  '2001:4860:4860::8888',
  '2606:4700:4700::1111',
  '2a00:1450:4001:80b::200e',
  '2000::1',
  '2001:200::',
  '2001:db7:ffff:ffff:ffff:ffff:ffff:ffff',
  '2001:db9::1',
  '2003::1',
  '2620:4f:7fff:ffff:ffff:ffff:ffff:ffff',
  '2620:4f:8001::',
  '3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
  '3fff:1000::',
  '2C0F:FB50:4003::1',
  '2001:0db9:0000:0000:0000:0000:0000:0001',
];

/** The host of a URL naming this literal address, as the WHATWG parser gives it. */
const urlHost = (ip: string) => new URL(`http://${ip.includes(':') ? `[${ip}]` : ip}/`).hostname;
const mapped = (v4: string) => `::ffff:${v4}`;

describe('outbound address policy (IANA special-purpose registries)', () => {
  for (const [block, what, ...addresses] of [...V4_BLOCKS, ...V6_BLOCKS]) {
    it(`refuses ${block}, ${what}: first, middle and last address, as address and as URL host`, () => {
      for (const ip of addresses) {
        expect(isAllowedAddress(ip), `${block} ${ip}`).to.equal(false);
        expect(isAllowedHost(urlHost(ip)), `${block} ${urlHost(ip)}`).to.equal(false);
      }
    });
  }

  it('judges an IPv4-mapped address (::ffff:0:0/96) as the IPv4 address it carries, in both notations', () => {
    for (const [block, , ...addresses] of V4_BLOCKS) {
      for (const ip of addresses) {
        const hex = urlHost(mapped(ip)); // the URL parser writes the tail in hex: [::ffff:7f00:1]
        for (const spelling of [mapped(ip), `0:0:0:0:0:FFFF:${ip}`, hex, hex.slice(1, -1)]) {
          expect(isAllowedAddress(spelling), `${block} ${spelling}`).to.equal(false);
        }
        expect(isAllowedHost(hex), `${block} ${hex}`).to.equal(false);
      }
    }
    for (const ip of PUBLIC_V4) {
      expect(isAllowedAddress(mapped(ip)), mapped(ip)).to.equal(true);
      expect(isAllowedHost(urlHost(mapped(ip))), mapped(ip)).to.equal(true);
    }
  });

  it('lets public IPv4 and IPv6 addresses through, the neighbours of refused blocks included', () => {
    for (const ip of [...PUBLIC_V4, ...PUBLIC_V6]) {
      expect(isAllowedAddress(ip), ip).to.equal(true);
      expect(isAllowedHost(urlHost(ip)), urlHost(ip)).to.equal(true);
    }
  });

  it('refuses zone ids, brackets left open and anything that is not an address', () => {
    for (const v of [
      'fe80::1%eth0',
      '2001:4860:4860::8888%eth0',
      '::ffff:0177.0.0.1',
      '::0x7f.0.0.1',
      '::ffff:8.8.8',
      '::ffff:8.8.8.8.8',
      '2001:4860:4860::8888%1',
      '[::1',
      '::1]',
      '',
      'example.com',
      'localhost',
      '127.0.0.1.example.com',
      '1.2.3.256',
      '1.2.3.4.5',
      '::g',
      '1:2:3:4:5:6:7:8:9',
      '08.0.0.1',
    ]) {
      expect(isAllowedAddress(v), v).to.equal(false);
    }
    expect(isAllowedAddress('[2001:4860:4860::8888]')).to.equal(true);
  });

  it('refuses localhost names and non-public literals in every spelling a URL parser accepts', () => {
    const refused = [
      'http://localhost/',
      'http://LocalHost./',
      'http://localhost../',
      'http://x.localhost/',
      'http://a.b.LOCALHOST/',
      'http://ｌｏｃａｌｈｏｓｔ/',
      'http://localhost%2e/',
      'http://2130706433/',
      'http://0x7f000001/',
      'http://0x7F.1/',
      'http://017700000001/',
      'http://0177.0.0.01/',
      'http://127.1/',
      'http://127.0.1/',
      'http://127.0.0.1./',
      'http://%31%32%37.0.0.1/',
      'http://127。0。0。1/',
      'http://0/',
      'http://0x.1/',
      'http://3221225985/',
      'http://0xc0.0.2.1/',
      'http://0300.0.2.1/',
      'http://192.0.513/', // 192.0.2.1, TEST-NET-1
      'http://3227017985/',
      'http://0xc0.0x58.0x63.1/', // 192.88.99.1, 6to4 relay anycast
      'http://3405803777/',
      'http://0313.0.0161.1/', // 203.0.113.1 TEST-NET-3, 198.51.100... is below
      'http://3325256705/', // 198.51.100.1
      'http://3221225473/',
      'http://192.0.0.1/', // 192.0.0.1, IETF protocol assignments
      'http://169.254.169.254/',
      'http://2852039166/',
      'http://0xa9.0xfe.0xa9.0xfe/',
      'http://100.64.1.1/',
      'http://3232235777/',
      'http://10.1/',
      'http://4294967295/',
      'http://0xffffffff/', // 255.255.255.255
      'http://[::]/',
      'http://[::1]/',
      'http://[0:0:0:0:0:0:0:1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[0::FFFF:7F00:1]/',
      'http://[::ffff:0:7f00:1]/',
      'http://[::127.0.0.1]/',
      'http://[64:ff9b::169.254.169.254]/',
      'http://[64:ff9b:1::a00:1]/',
      'http://[2002:7f00:1::]/',
      'http://[2002:a9fe:a9fe::1]/',
      'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
      'http://[2001:db8::1]/',
      'http://[3fff::1]/',
      'http://[100::1]/',
      'http://[100:0:0:1::1]/',
      'http://[fd00::1]/',
      'http://[FE80::ABCD]/',
      'http://[fec0::1]/',
      'http://[ff02::1]/',
      'http://[5f00::1]/',
    ];
    for (const url of refused) expect(isAllowedHost(new URL(url).hostname), `${url} -> ${new URL(url).hostname}`).to.equal(false);
    const allowed = [
      'https://example.com/',
      'https://localhost.example.com/',
      'https://mylocalhost/',
      'https://localhost-api.example/',
      'https://a_b.example.com/',
      'https://HOOKS.Example.COM./',
      'http://8.8.8.8/',
      'http://134744072/',
      'http://0x8.0x8.0x8.0x8/',
      'http://[2001:4860:4860::8888]/',
      'http://[::ffff:8.8.8.8]/',
      'https://xn--bcher-kva.example/',
      'https://bücher.example/',
    ];
    for (const url of allowed) expect(isAllowedHost(new URL(url).hostname), url).to.equal(true);
  });

  it('judges raw host spellings the same way, and refuses what is neither an address nor a host name', () => {
    for (const host of [
      '127.1',
      '0x7f.1',
      '2130706433',
      '[::1]',
      '::1',
      'fe80::1%eth0',
      '[fe80::1%eth0]',
      '1.2.3.256',
      'foo.1',
      'foo.0x10',
      '0x',
      'a*b',
      'a b.example',
      'a..b',
      '-',
      '.',
      '',
      `${'a'.repeat(64)}.example`,
      `${'a.'.repeat(127)}a`,
    ]) {
      expect(isAllowedHost(host), host).to.equal(false);
    }
    for (const host of [
      'example.com',
      'EXAMPLE.com.',
      'hooks-1.example.co.uk',
      '8.8.8.8',
      '[2606:4700:4700::1111]',
      `${'a'.repeat(63)}.example`,
    ]) {
      expect(isAllowedHost(host), host).to.equal(true);
    }
  });
});
