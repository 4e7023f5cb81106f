/**
 * Which hosts and addresses an outbound post (job webhook, form API post) may reach unless
 * WEBHOOK_ALLOW_PRIVATE is set: only globally reachable unicast addresses. Everything else in the
 * IANA IPv4 and IPv6 Special-Purpose Address Registries is refused (loopback, private, link-local
 * with the cloud metadata service 169.254.169.254, CGNAT, "this network", benchmarking,
 * documentation, IETF protocol assignments, AS112, AMT, 6to4, Teredo, NAT64, ORCHID, discard,
 * unique-local, site-local, multicast, reserved and broadcast), in every spelling.
 *
 * ipaddr.js (maintained with the registries) names the block an address is in; only its
 * `unicast` (no special block) passes. An IPv4-mapped address (::ffff:a.b.c.d) is how a dual-stack
 * socket spells an IPv4 address, so it is judged as that IPv4 address.
 *
 * Two checks, one policy:
 * - `isAllowedHost(url.hostname)` when a URL is saved: refuses `localhost`, `*.localhost`, literal
 *   addresses that are not allowed, and anything that is neither an address nor a host name. Pass
 *   the hostname of a WHATWG `URL` (decimal, hex and octal IPv4 spellings such as
 *   `http://2130706433/` are dotted by then); raw spellings are parsed here too. A name is not
 *   resolved here: what it resolves to is the send-time check's job.
 * - `isAllowedAddress(ip)` when a post is sent, on every address a name resolves to (a public name
 *   can resolve to a private address), e.g. in the `lookup` hook of the delivery worker's HTTP agent.
 */
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * IPv6 global unicast space (RFC 4291 section 2.4; IANA "IPv6 Global Unicast Address Assignments").
 * ipaddr.js calls every address outside its named blocks `unicast`, yet outside 2000::/3 nothing is
 * globally reachable: the IPv4-compatible ::a.b.c.d (deprecated, RFC 4291 section 2.5.5.1), the
 * dummy prefix 100:0:0:1::/64 (RFC 9780) and unassigned space such as 4000::/2 or fbff::/16.
 */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

function allowedIp(addr: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (addr.kind() === 'ipv4') return addr.range() === 'unicast';
  const v6 = addr as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return allowedIp(v6.toIPv4Address());
  return v6.range() === 'unicast' && v6.match(GLOBAL_UNICAST_V6);
}

/**
 * A literal address, or null. IPv6 is checked with Node's strict parser first, and a dotted IPv4
 * tail is rewritten as two hex groups: ipaddr.js would read the IPv4-compatible `::a.b.c.d` as
 * IPv4-mapped. A zone id (`fe80::1%eth0`) scopes an address to one interface, which only
 * non-global addresses need: null.
 */
function parseIp(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (text.includes(':')) {
    if (!net.isIPv6(text) || text.includes('%')) return null;
    const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
    const hex = tail
      ? `${text.slice(0, tail.index)}${((+tail[1] << 8) | +tail[2]).toString(16)}:${((+tail[3] << 8) | +tail[4]).toString(16)}`
      : text;
    return ipaddr.IPv6.parse(hex);
  }
  return ipaddr.IPv4.isValid(text) ? ipaddr.IPv4.parse(text) : null;
}

/**
 * True when `ip`, a literal IPv4 or IPv6 address (brackets allowed; IPv4 also in the decimal, hex
 * and octal spellings inet_aton takes), is globally reachable unicast. Anything else, including
 * text that is not an address, is false.
 */
export function isAllowedAddress(ip: string): boolean {
  const addr = parseIp(ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip);
  return addr !== null && allowedIp(addr);
}

/** A DNS host name: dot-separated labels of letters, digits, hyphens and underscores (IDNs as xn--). */
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;
/** WHATWG URL: a host whose last label is a number is an IPv4 address (or no valid host at all). */
const ENDS_IN_NUMBER = /(?:^|\.)(?:\d+|0x[0-9a-f]*)$/;

/**
 * True when an outbound post may name this host: a host name other than `localhost` and
 * `*.localhost` (RFC 6761: always loopback), or a literal address that isAllowedAddress accepts.
 * Text that is neither (an unparsable address, characters no host name has) is false.
 */
export function isAllowedHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.+$/, '');
  if (host.startsWith('[') || host.includes(':') || ENDS_IN_NUMBER.test(host)) return isAllowedAddress(host);
  if (!HOST_NAME.test(host)) return false;
  return host !== 'localhost' && !host.endsWith('.localhost');
}
