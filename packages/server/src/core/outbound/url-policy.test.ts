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
    ['2002:7f00:1::', 'loopback'],
    ['not-an-ip', 'private'],
    // Every embedded-IPv4 form, judged by the IPv4 address inside it.
    ['::ffff:8.8.8.8', 'public'],
    ['::127.0.0.1', 'loopback'],
    ['::7f00:1', 'loopback'],
    ['::10.0.0.1', 'private'],
    ['::8.8.8.8', 'public'],
    ['::ffff:0:127.0.0.1', 'loopback'],
    ['::ffff:0:7f00:1', 'loopback'],
    ['::ffff:0:192.168.0.1', 'private'],
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::169.254.169.254', 'private'],
    ['64:ff9b::8.8.8.8', 'public'],
    ['64:ff9b:1::7f00:1', 'loopback'],
    ['64:ff9b:1::a00:1', 'private'],
    ['64:ff9b:1::808:808', 'private'],
    ['2002:a00:1::', 'private'],
    ['2002:808:808::1', 'private'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback'],
    ['2001:0:7f00:1::1', 'loopback'],
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'private'],
    // Reserved, documentation and benchmarking ranges.
    ['192.0.2.1', 'private'],
    ['198.51.100.7', 'private'],
    ['203.0.113.9', 'private'],
    ['198.18.0.1', 'private'],
    ['198.19.255.255', 'private'],
    ['192.0.0.8', 'private'],
    ['240.0.0.1', 'private'],
    ['2001:db8::1', 'private'],
    ['3fff::1', 'private'],
    ['3fff:fff:ffff::1', 'private'],
    ['2001:2::1', 'private'],
    ['2001:10::1', 'private'],
    ['100::1', 'private'],
    ['5f00::1', 'private'],
    ['fec0::1', 'private'],
    ['4000::1', 'private'],
    ['::2', 'private'],
    ['2a00:1450:4001::1', 'public'],
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

  // The spellings of loopback an attacker tries: URL parsing turns each into a plain address before the check.
  it.each([
    'https://0x7f000001/x',
    'https://2130706433/x',
    'https://0177.0.0.1/x',
    'https://127.1/x',
    'https://\uff11\uff12\uff17.\uff10.\uff10.\uff11/x',
    'https://[::ffff:127.0.0.1]/x',
    'https://[::ffff:7f00:1]/x',
    'https://[::127.0.0.1]/x',
    'https://[::ffff:0:127.0.0.1]/x',
    'https://[64:ff9b::127.0.0.1]/x',
    'https://[64:ff9b:1::7f00:1]/x',
    'https://[2002:7f00:1::1]/x',
    'https://[0:0:0:0:0:0:0:1]/x',
  ])('live mode refuses %s as loopback', async (url) => {
    expect(await refusal(url, true)).toBe('loopback_address');
  });

  it.each(['https://[3fff::1]/x', 'https://[2001:db8::1]/x', 'https://198.18.0.1/x', 'https://192.0.2.1/x', 'https://[2001:2::1]/x'])(
    'live mode refuses the documentation or benchmarking address %s',
    async (url) => {
      expect(await refusal(url, true)).toBe('private_address');
    },
  );

  it('test mode: http and loopback too, still no private networks', async () => {
    expect(await refusal('http://127.0.0.1:3000/x', false)).toBe('allowed');
    expect(await refusal('http://localhost:3000/x', false, fixed('127.0.0.1', '::1'))).toBe('allowed');
    expect(await refusal('http://192.168.1.10/x', false)).toBe('private_address');
    expect(await refusal('http://169.254.169.254/latest', false)).toBe('private_address');
  });
});
