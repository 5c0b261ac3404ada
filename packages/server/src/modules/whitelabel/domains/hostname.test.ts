import { describe, expect, it } from 'vitest';
import { normalizeHostname, requestHostname } from './hostname';

const code = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return (err as { options: { details?: { reason?: string } } }).options.details?.reason;
  }
  return 'accepted';
};

describe('normalizeHostname', () => {
  it('lower-cases, drops the trailing dot and converts IDNA', () => {
    expect(normalizeHostname(' Tickets.Example.COM. ', 'svc.test')).toBe('tickets.example.com');
    expect(normalizeHostname('bücher.example', 'svc.test')).toBe('xn--bcher-kva.example');
    expect(normalizeHostname('BÜCHER.example', 'svc.test')).toBe('xn--bcher-kva.example');
  });
  it('refuses IP addresses, wildcards, single labels and the deployment host', () => {
    expect(code(() => normalizeHostname('10.0.0.1', 'svc.test'))).toBe('ip_address');
    expect(code(() => normalizeHostname('[::1]', 'svc.test'))).toBe('ip_address');
    expect(code(() => normalizeHostname('*.example.com', 'svc.test'))).toBe('wildcard');
    expect(code(() => normalizeHostname('localhost', 'svc.test'))).toBe('malformed');
    expect(code(() => normalizeHostname('a..b', 'svc.test'))).toBe('malformed');
    expect(code(() => normalizeHostname('-a.example', 'svc.test'))).toBe('malformed');
    expect(code(() => normalizeHostname('svc.test', 'svc.test'))).toBe('deployment_host');
    expect(code(() => normalizeHostname('x.svc.test', 'svc.test'))).toBe('deployment_host');
  });
  it('reads a request host without its port', () => {
    expect(requestHostname('Brand.Example:8443')).toBe('brand.example');
    expect(requestHostname(undefined)).toBeUndefined();
  });
});
