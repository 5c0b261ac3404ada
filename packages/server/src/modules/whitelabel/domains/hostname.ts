import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { ApiError } from '../../../core/errors';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

const refuse = (reason: string, message: string) => ApiError.of('hostname_not_allowed', { param: 'hostname', message, details: { reason } });

/**
 * The hostname as stored and matched: lower case, IDNA (punycode), no trailing dot. An IP address, a wildcard,
 * anything not a name of two labels at least, and the deployment's own host or its subdomains are refused.
 */
export function normalizeHostname(input: string, deploymentHost: string): string {
  const raw = input.trim().replace(/\.$/, '').toLowerCase();
  if (raw.includes('*')) throw refuse('wildcard', 'Wildcard hostnames are not served; add each hostname.');
  if (isIP(raw.replace(/^\[|\]$/g, '')) !== 0) throw refuse('ip_address', 'An IP address is not a hostname.');
  const ascii = /[^\x00-\x7f]/.test(raw) || raw.includes('xn--') ? domainToASCII(raw) : raw;
  const labels = ascii.split('.');
  if (!ascii || ascii.length > 253 || labels.length < 2 || !labels.every((l) => LABEL.test(l)) || /^[0-9]+$/.test(labels.at(-1)!)) {
    throw refuse('malformed', 'A hostname is a fully qualified domain name of two labels at least, e.g. tickets.example.com.');
  }
  const own = deploymentHost.toLowerCase();
  if (ascii === own || ascii.endsWith(`.${own}`)) throw refuse('deployment_host', 'The deployment\'s own host and its subdomains cannot be claimed.');
  return ascii;
}

/** The request's host without its port, lower case; `undefined` when it has none. */
export function requestHostname(host: string | undefined): string | undefined {
  if (!host) return undefined;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;
  return name.replace(/\.$/, '').toLowerCase() || undefined;
}
