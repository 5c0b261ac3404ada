import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

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

export type AddressClass = 'public' | 'loopback' | 'private';

const ipv4Class = (ip: ipaddr.IPv4): AddressClass => {
  const range = ip.range();
  // Everything but plain unicast is refused: RFC 1918, CGNAT, link-local, `0/8`, benchmarking, documentation, reserved, multicast...
  return range === 'loopback' ? 'loopback' : range === 'unicast' ? 'public' : 'private';
};

const v4At = (parts: number[], i: number) => new ipaddr.IPv4([parts[i]! >> 8, parts[i]! & 255, parts[i + 1]! >> 8, parts[i + 1]! & 255]);
const lastV4 = (ip: ipaddr.IPv6) => v4At(ip.parts, 6);
/** Teredo's client address is stored inverted. */
const teredoClient = (ip: ipaddr.IPv6) => v4At(ip.parts.map((p) => ~p & 0xffff), 6);
const globalUnicast = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];
const wellKnownNat64 = ipaddr.parseCIDR('64:ff9b::/96') as [ipaddr.IPv6, number];

/**
 * An IPv6 address is judged by the IPv4 address inside it where it has one: IPv4-mapped (`::ffff:a.b.c.d`),
 * IPv4-translated (`::ffff:0:a.b.c.d`), IPv4-compatible (`::a.b.c.d`) and NAT64 (`64:ff9b::/96`) take that
 * address's class. The transition prefixes that only reach an IPv4 address through a relay (local-use NAT64
 * `64:ff9b:1::/48`, 6to4, Teredo) are loopback when the IPv4 inside is, and never public otherwise.
 */
function ipv6Class(ip: ipaddr.IPv6): AddressClass {
  const range = ip.range();
  if (range === 'loopback') return 'loopback';
  if (range === 'unspecified') return 'private';
  const compatible = ip.parts.slice(0, 6).every((p) => p === 0);
  if (range === 'ipv4Mapped' || range === 'rfc6145' || compatible || ip.match(wellKnownNat64)) return ipv4Class(lastV4(ip));
  const relayed = range === 'rfc6052' ? [lastV4(ip)] : range === '6to4' ? [v4At(ip.parts, 1)] : range === 'teredo' ? [v4At(ip.parts, 2), teredoClient(ip)] : [];
  if (relayed.length > 0) return relayed.some((v4) => v4.range() === 'loopback') ? 'loopback' : 'private';
  // Only global unicast outside every special-purpose range (documentation `2001:db8::/32` and `3fff::/20`, benchmarking, ...).
  return range === 'unicast' && ip.match(globalUnicast) ? 'public' : 'private';
}

export function classifyAddress(address: string): AddressClass {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!isIP(bare)) return 'private';
  const ip = ipaddr.parse(bare);
  return ip.kind() === 'ipv4' ? ipv4Class(ip as ipaddr.IPv4) : ipv6Class(ip as ipaddr.IPv6);
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
 * (loopback too in test mode, unless the operator denies it): one bad address refuses the URL, so a name cannot mix a public and a
 * private answer. Callers connect to a returned address, never resolving again.
 */
export async function permittedAddresses(
  url: URL,
  livemode: boolean,
  resolve: HostResolver,
  privateInTest: 'allow' | 'deny' = 'allow',
): Promise<ResolvedAddress[]> {
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
    if (kind === 'public' || (kind === 'loopback' && !livemode && privateInTest === 'allow')) continue;
    throw kind === 'loopback'
      ? new UrlRefused(
          'loopback_address',
          livemode
            ? `${host} resolves to the loopback address ${address}; only test-mode endpoints may use it.`
            : `${host} resolves to the loopback address ${address}, which this server does not allow (SVC_WEBHOOKS_PRIVATE_IN_TEST=deny).`,
        )
      : new UrlRefused('private_address', `${host} resolves to ${address}, which is not a public address.`);
  }
  return addresses;
}
