import { BlockList, isIP } from 'node:net';

/**
 * Addresses an outbound request must not reach unless CALENDAR_ALLOW_PRIVATE_URLS=on: this host,
 * private networks, link-local (cloud metadata at 169.254.169.254 and fd00:ec2::254 included),
 * shared, documentation, benchmarking, multicast and reserved ranges (IANA special-purpose
 * registries). An author must not be able to make the service probe what only it can reach.
 */
const FORBIDDEN_V4 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  FORBIDDEN_V4.addSubnet(network, prefix, 'ipv4');
}

/**
 * IPv6 is judged over its whole space, not by a list of bad ranges: only global unicast
 * (2000::/3) is public, less its special-purpose blocks below; the forms that carry an IPv4
 * address (mapped, compatible, translated, NAT64, 6to4, Teredo) are judged by that address.
 * Everything else (unspecified, loopback, ULA, link- and site-local, multicast, discard,
 * unassigned space) is not public.
 */
const FORBIDDEN_GLOBAL_V6 = new BlockList();
for (const [network, prefix] of [
  ['2001:2::', 48], // benchmarking
  ['2001:10::', 28], // ORCHID
  ['2001:20::', 28], // ORCHIDv2
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
  ['5f00::', 16], // SRv6 SIDs
] as const) {
  FORBIDDEN_GLOBAL_V6.addSubnet(network, prefix, 'ipv6');
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part included); null when it is not one. */
export function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase();
  const dotted = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const bytes = dotted.slice(2).map(Number);
    if (bytes.some((b) => b > 255)) return null;
    text = `${dotted[1]}${((bytes[0] << 8) | bytes[1]).toString(16)}:${((bytes[2] << 8) | bytes[3]).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const part = (s: string) => (s === '' ? [] : s.split(':'));
  const head = part(halves[0]);
  const tail = halves.length === 2 ? part(halves[1]) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => parseInt(g, 16));
}

const v4 = (hi: number, lo: number) => [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');

/**
 * The IPv4 addresses an IPv6 address carries, by its form; null when it carries none. Teredo
 * carries two (its server's, and its client's inverted): both must be public.
 */
function embeddedIpv4(g: number[]): string[] | null {
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zero(0, 5) && g[5] === 0xffff) return [v4(g[6], g[7])]; // ::ffff:0:0/96, mapped
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return [v4(g[6], g[7])]; // ::ffff:0:0:0/96, translated (SIIT)
  if (zero(0, 6)) return [v4(g[6], g[7])]; // ::/96, compatible (:: and ::1 land in 0.0.0.0/8)
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return [v4(g[6], g[7])]; // 64:ff9b::/96, NAT64
  if (g[0] === 0x2002) return [v4(g[1], g[2])]; // 2002::/16, 6to4
  if (g[0] === 0x2001 && g[1] === 0) return [v4(g[2], g[3]), v4(g[6] ^ 0xffff, g[7] ^ 0xffff)]; // 2001::/32, Teredo
  return null;
}

/** May an outbound request connect to this IP address (v4 or v6, as text)? */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const version = isIP(bare);
  if (version === 4) return !FORBIDDEN_V4.check(bare, 'ipv4');
  if (version !== 6) return false;
  const groups = ipv6Groups(bare);
  if (groups === null) return false;
  const carried = embeddedIpv4(groups);
  if (carried !== null) return carried.every((a) => isPublicAddress(a));
  if (groups[0] >> 13 !== 1) return false; // outside 2000::/3
  return !FORBIDDEN_GLOBAL_V6.check(groups.map((x) => x.toString(16)).join(':'), 'ipv6');
}
