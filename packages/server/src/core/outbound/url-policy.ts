import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}
/** Resolves a host name to every address it has; replaced in tests to play DNS rebinding. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family as 4 | 6 }));

export type UrlRefusal =
  | 'https_required'
  | 'credentials_in_url'
  | 'unresolvable_host'
  | 'private_address'
  | 'loopback_address';

export class UrlRefused extends Error {
  constructor(
    readonly reason: UrlRefusal,
    message: string,
  ) {
    super(message);
  }
}

// Everything that is not a public unicast address: RFC 6890 special-purpose ranges, CGNAT, multicast, ...
const nonPublic = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
  ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) nonPublic.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128], ['100::', 64], ['2001::', 23], ['2001:db8::', 32], ['2002::', 16], ['fc00::', 7],
  ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) nonPublic.addSubnet(net, bits, 'ipv6');

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** The IPv4 address inside an IPv4-mapped (`::ffff:a.b.c.d`), IPv4-compatible or NAT64 (`64:ff9b::/96`) IPv6 address. */
function embeddedIpv4(address: string): string | undefined {
  const m = /^(?:::ffff:(?:0:)?|::|64:ff9b::)((?:\d{1,3}\.){3}\d{1,3})$/i.exec(address);
  if (m) return m[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return undefined;
  const [hi, lo] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

export type AddressClass = 'public' | 'loopback' | 'private';

export function classifyAddress(address: string): AddressClass {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '').toLowerCase();
  const v4 = isIP(bare) === 6 ? embeddedIpv4(bare) : bare;
  const [ip, family] = v4 ? [v4, 'ipv4' as const] : [bare, 'ipv6' as const];
  if (!isIP(ip)) return 'private';
  if (loopback.check(ip, family)) return 'loopback';
  return nonPublic.check(ip, family) ? 'private' : 'public';
}

/** Live endpoints: `https` only. Test endpoints: `http` too, so a developer can receive on their own machine. */
export function checkUrlShape(url: URL, livemode: boolean): void {
  if (url.username || url.password) {
    throw new UrlRefused('credentials_in_url', 'The URL must not carry a user name or password.');
  }
  if (livemode && url.protocol !== 'https:') {
    throw new UrlRefused('https_required', 'Live-mode webhook URLs must use https://.');
  }
}

/**
 * The addresses a request to `url` may connect to. Every address the host resolves to must be public
 * (loopback too in test mode): one bad address refuses the URL, so a name cannot mix a public and a
 * private answer. Callers connect to a returned address, never resolving again.
 */
export async function permittedAddresses(url: URL, livemode: boolean, resolve: HostResolver): Promise<ResolvedAddress[]> {
  checkUrlShape(url, livemode);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: ResolvedAddress[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) as 4 | 6 }];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0) throw new UrlRefused('unresolvable_host', `The host ${host} does not resolve.`);
  }
  for (const { address } of addresses) {
    const kind = classifyAddress(address);
    if (kind === 'public' || (kind === 'loopback' && !livemode)) continue;
    throw kind === 'loopback'
      ? new UrlRefused('loopback_address', `${host} resolves to the loopback address ${address}; only test-mode endpoints may use it.`)
      : new UrlRefused('private_address', `${host} resolves to ${address}, which is not a public address.`);
  }
  return addresses;
}
