/** The spec's limit on a source URL (`POST /v1/streams/assets`). */
export const MAX_SOURCE_URL_LENGTH = 2048;

const PRIVATE_V4: Array<[number, number]> = [
  // [network as a 32-bit number, prefix length]
  [0x00000000, 8], // 0.0.0.0/8 "this network"
  [0x0a000000, 8], // 10/8
  [0x64400000, 10], // 100.64/10 carrier-grade NAT
  [0x7f000000, 8], // loopback
  [0xa9fe0000, 16], // link-local
  [0xac100000, 12], // 172.16/12
  [0xc0000000, 24], // 192.0.0/24 protocol assignments
  [0xc0000200, 24], // TEST-NET-1
  [0xc0a80000, 16], // 192.168/16
  [0xc6120000, 15], // benchmarking
  [0xc6336400, 24], // TEST-NET-2
  [0xcb007100, 24], // TEST-NET-3
  [0xe0000000, 3], // multicast and reserved, 224/3
];

function isPrivateV4(address: string): boolean {
  const n = address.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
  return PRIVATE_V4.some(([net, bits]) => Math.floor(n / 2 ** (32 - bits)) === Math.floor(net / 2 ** (32 - bits)));
}

function isPrivateV6(address: string): boolean {
  const a = address.toLowerCase();
  if (a === '::' || a === '::1') return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (mapped) return isPrivateV4(mapped[1]!);
  // The URL parser writes an IPv4-mapped address in hex: `::ffff:7f00:1`.
  const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(a);
  if (hexMapped) {
    const hi = parseInt(hexMapped[1]!, 16);
    const lo = parseInt(hexMapped[2]!, 16);
    return isPrivateV4(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
  }
  // fc00::/7 unique local, fe80::/10 link-local, ff00::/8 multicast, 2001:db8::/32 documentation
  return /^(f[cd]|fe[89ab]|ff)/.test(a) || a.startsWith('2001:db8:');
}

const LOCAL_SUFFIXES = ['.localhost', '.local', '.internal', '.intranet', '.lan', '.home', '.corp', '.test', '.invalid', '.example'];

/**
 * Why a URL is not a public HTTPS address, or `null` when it is. Checked on the text of the URL: an IP
 * literal must be public and a host name must be a dotted public-looking name; the video network itself
 * refuses addresses whose DNS answers point inward.
 */
export function publicHttpsUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'Must be an absolute URL.';
  }
  if (url.protocol !== 'https:') return 'Must be an `https` URL.';
  if (url.username || url.password) return 'Must not carry a user name or password.';
  // The URL parser has already normalised IPv4 forms such as `0x7f.1` to dotted quads, and IPv6 to brackets.
  const v6 = url.hostname.startsWith('[');
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  const family = v6 ? 6 : /^\d+\.\d+\.\d+\.\d+$/.test(host) ? 4 : 0;
  if (family === 4) return isPrivateV4(host) ? 'Must point to a public address, not a private, loopback or reserved one.' : null;
  if (family === 6) return isPrivateV6(host) ? 'Must point to a public address, not a private, loopback or reserved one.' : null;
  if (!host.includes('.') || host === 'localhost' || LOCAL_SUFFIXES.some((s) => host.endsWith(s))) {
    return 'Must use a public host name.';
  }
  return null;
}
