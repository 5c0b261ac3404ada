import { describe, expect, it } from 'vitest';
import { classifyAddress, permittedAddresses, UrlRefused, type HostResolver } from './url-policy';

const fixed = (...addresses: string[]): HostResolver => async () =>
  addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    ['2606:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.9.9.9', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'private'],
    ['100.64.0.1', 'private'],
    ['100.127.255.255', 'private'],
    ['0.0.0.0', 'private'],
    ['224.0.0.1', 'private'],
    ['255.255.255.255', 'private'],
    ['::', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fe80::1', 'private'],
    ['fe80::1%eth0', 'private'],
    ['ff02::1', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a9fe:a9fe', 'private'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['2002:7f00:1::', 'private'],
    ['not-an-ip', 'private'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});

describe('permittedAddresses', () => {
  const refusal = async (url: string, livemode: boolean, resolve: HostResolver = fixed('93.184.216.34')) => {
    const err = await permittedAddresses(new URL(url), livemode, resolve).catch((e: unknown) => e);
    return err instanceof UrlRefused ? err.reason : 'allowed';
  };

  it('live mode: https to a public address only', async () => {
    expect(await refusal('https://hooks.example.com/x', true)).toBe('allowed');
    expect(await refusal('http://hooks.example.com/x', true)).toBe('https_required');
    expect(await refusal('https://127.0.0.1/x', true)).toBe('loopback_address');
    expect(await refusal('https://[::1]/x', true)).toBe('loopback_address');
    expect(await refusal('https://10.0.0.8/x', true)).toBe('private_address');
    expect(await refusal('https://[fe80::1]/x', true)).toBe('private_address');
    expect(await refusal('https://hooks.example.com/x', true, fixed('93.184.216.34', '10.0.0.1'))).toBe('private_address');
    expect(await refusal('https://nowhere.invalid/x', true, fixed())).toBe('unresolvable_host');
    expect(await refusal('https://user:pw@hooks.example.com/x', true)).toBe('credentials_in_url');
  });

  it('test mode: http and loopback too, still no private networks', async () => {
    expect(await refusal('http://127.0.0.1:3000/x', false)).toBe('allowed');
    expect(await refusal('http://localhost:3000/x', false, fixed('127.0.0.1', '::1'))).toBe('allowed');
    expect(await refusal('http://192.168.1.10/x', false)).toBe('private_address');
    expect(await refusal('http://169.254.169.254/latest', false)).toBe('private_address');
  });
});
