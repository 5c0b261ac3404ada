import { generateKeyPairSync, privateDecrypt, constants } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { darajaTimestamp, DarajaTokenCache, securityCredential, stkPassword } from './daraja-auth';

describe('darajaTimestamp', () => {
  it('is Nairobi time (UTC+3), whatever the process time zone, across midnight and the year', () => {
    expect(darajaTimestamp(new Date('2026-12-02T15:04:05Z'))).toBe('20261202180405');
    expect(darajaTimestamp(new Date('2026-12-31T22:30:00.999Z'))).toBe('20270101013000');
    expect(darajaTimestamp(new Date('2026-03-29T01:00:00Z'))).toBe('20260329040000');
  });
});

describe('stkPassword', () => {
  it('is base64 of shortcode, passkey and timestamp', () => {
    const p = stkPassword('174379', 'passkey', '20261202180405');
    expect(Buffer.from(p, 'base64').toString()).toBe('174379passkey20261202180405');
  });
});

describe('securityCredential', () => {
  it('seals the initiator password with the certificate (RSA PKCS#1 v1.5)', () => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const sealed = securityCredential('Safaricom999!*!', publicKey.export({ type: 'spki', format: 'pem' }).toString());
    expect(Buffer.from(sealed, 'base64')).toHaveLength(256);
    const block = privateDecrypt({ key: privateKey, padding: constants.RSA_NO_PADDING }, Buffer.from(sealed, 'base64'));
    expect([block[0], block[1]]).toEqual([0, 2]);
    expect(block.subarray(block.indexOf(0, 2) + 1).toString()).toBe('Safaricom999!*!');
  });
});

describe('DarajaTokenCache', () => {
  it('keeps a token until a minute before it expires, shares one fetch, and never keys by the secret itself', async () => {
    let now = 1_000_000;
    const cache = new DarajaTokenCache(() => now);
    let fetches = 0;
    const fetchToken = async () => ({ token: `t${++fetches}`, expiresInSeconds: 3599 });
    const key = DarajaTokenCache.keyOf('https://x', 'key', 'secret');
    expect(key).not.toContain('secret');
    expect(await Promise.all([cache.get(key, fetchToken), cache.get(key, fetchToken)])).toEqual(['t1', 't1']);
    now += 3538_000;
    expect(await cache.get(key, fetchToken)).toBe('t1');
    now += 2_000;
    expect(await cache.get(key, fetchToken)).toBe('t2');
    expect(fetches).toBe(2);
    expect(DarajaTokenCache.keyOf('https://x', 'key', 'other')).not.toBe(key);
  });

  it('forgets a failed fetch, so the next call tries again', async () => {
    const cache = new DarajaTokenCache();
    const key = DarajaTokenCache.keyOf('https://x', 'k', 's');
    await expect(cache.get(key, async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get(key, async () => ({ token: 'ok', expiresInSeconds: 60 }))).toBe('ok');
  });
});
