/**
 * Which addresses an outbound post (job webhook, form API post) must not reach unless
 * WEBHOOK_ALLOW_PRIVATE is set: loopback, private, link-local (the cloud metadata service
 * 169.254.169.254), carrier-grade NAT, "this network"/unspecified, multicast and reserved ranges,
 * for IPv4 and IPv6, including IPv4 addresses embedded in IPv6 (IPv4-mapped ::ffff:a.b.c.d,
 * the deprecated IPv4-compatible ::a.b.c.d and NAT64 64:ff9b::a.b.c.d).
 *
 * Two checks:
 * - `isPrivateHost(url.hostname)` when a URL is saved: `localhost`, `*.localhost` and literal IP
 *   addresses. Pass the hostname of a WHATWG `URL`: it has already turned the decimal, hex and
 *   octal IPv4 spellings (`http://2130706433/`, `http://0x7f.1/`) into dotted form.
 * - `isPrivateAddress(ip)` at connect time, on every address a name resolves to (a public name can
 *   resolve to a private address), e.g. in a `lookup` hook of the delivery worker's HTTP agent.
 */
import net from 'node:net';

const blocked = new net.BlockList();
const V4: [string, number][] = [
  ['0.0.0.0', 8], // "this network", includes the unspecified 0.0.0.0
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT (shared address space)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12], // private
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking, used inside networks
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, includes the broadcast 255.255.255.255
];
const V6: [string, number][] = [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local (ULA)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated, still routed inside some networks)
  ['ff00::', 8], // multicast
];
for (const [address, prefix] of V4) blocked.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of V6) blocked.addSubnet(address, prefix, 'ipv6');

/** The 16 bytes of an IPv6 address (any valid spelling, with or without an IPv4 tail). */
function ipv6Bytes(ip: string): number[] | null {
  if (net.isIPv6(ip) === false) return null;
  let s = ip;
  // An IPv4 tail (::ffff:1.2.3.4) becomes two hex groups.
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (tail) {
    const [a, b, c, d] = tail[1].split('.').map(Number);
    s = s.slice(0, -tail[1].length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = s.includes('::') ? s.split('::') : [s, null];
  const headGroups = head ? head.split(':') : [];
  const restGroups = rest ? rest.split(':') : [];
  const missing = 8 - headGroups.length - restGroups.length;
  const groups = rest === null ? headGroups : [...headGroups, ...Array(missing).fill('0'), ...restGroups];
  if (groups.length !== 8) return null;
  return groups.flatMap((g) => {
    const n = parseInt(g, 16);
    return [n >> 8, n & 0xff];
  });
}

/** The IPv4 address carried in an IPv6 one (mapped, compatible or NAT64), else null. */
function embeddedIpv4(ip: string): string | null {
  const b = ipv6Bytes(ip);
  if (!b) return null;
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  const v4 = b.slice(12).join('.');
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return v4; // ::ffff:a.b.c.d
  if (zeros(0, 12)) return v4; // ::a.b.c.d (:: and ::1 are blocked as IPv6 already)
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) return v4; // 64:ff9b::/96
  return null;
}

/**
 * True when `ip` is a literal IPv4 or IPv6 address in a loopback, private, link-local, CGNAT,
 * unspecified, multicast or reserved range. Not an IP address at all: false (see isPrivateHost).
 */
export function isPrivateAddress(ip: string): boolean {
  const bracketless = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const bare = bracketless.replace(/%.*$/, ''); // an IPv6 zone id (fe80::1%eth0)
  const family = net.isIP(bare);
  if (family === 4) return blocked.check(bare, 'ipv4');
  if (family === 6) {
    if (blocked.check(bare, 'ipv6')) return true;
    const v4 = embeddedIpv4(bare);
    return v4 !== null && blocked.check(v4, 'ipv4');
  }
  return false;
}

/**
 * True for a hostname no outbound post may name: `localhost`, any `*.localhost` name (RFC 6761:
 * always loopback) and literal addresses in the ranges of isPrivateAddress. Names are not resolved
 * here; the connect-time check covers what they resolve to.
 */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.+$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return isPrivateAddress(host);
}
