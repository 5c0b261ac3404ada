import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { CredentialCache, CREDENTIALS_CHANNEL } from './credential-cache';
import { NotificationListener } from '../notify';

/** A listener whose notifications the test delivers by hand. */
function fakeListener() {
  const listener = new NotificationListener('postgres://unused', pino({ level: 'silent' }));
  const handlers: Record<string, (payload: string) => void> = {};
  let reset = () => {};
  listener.on = (channel, handler) => void (handlers[channel] = handler);
  listener.onReset = (handler) => void (reset = handler);
  return { listener, notify: (payload: string) => handlers[CREDENTIALS_CHANNEL]!(payload), reset: () => reset() };
}

const entry = (keyId: string, tenantId = 'ten_1') => ({
  key: { id: keyId, type: 'secret' as const, livemode: false, scopes: null, ipAllowlist: null, expiresAt: null, revokedAt: null },
  tenant: { id: tenantId, products: [], rateLimits: { secret: 100, publishable: 20 } },
});

describe('CredentialCache', () => {
  it('drops a key, or every key of a tenant, when told by any process', () => {
    const { listener, notify } = fakeListener();
    const cache = new CredentialCache(listener);
    cache.set('h1', entry('key_1'));
    cache.set('h2', entry('key_2'));
    cache.set('h3', entry('key_3', 'ten_2'));
    notify('key:key_1');
    expect(cache.get('h1')).toBeUndefined();
    expect(cache.get('h2')).toBeDefined();
    notify('tenant:ten_2');
    expect(cache.get('h3')).toBeUndefined();
    expect(cache.get('h2')).toBeDefined();
  });

  it('does not cache a read that an invalidation overtook', () => {
    const { listener, notify } = fakeListener();
    const cache = new CredentialCache(listener);
    const readAt = cache.generation;
    notify('key:key_1'); // the revoke commits while the read is in flight
    cache.set('h1', entry('key_1'), readAt);
    expect(cache.get('h1')).toBeUndefined();
    cache.set('h1', entry('key_1'), cache.generation);
    expect(cache.get('h1')).toBeDefined();
  });

  it('forgets everything after the listener reconnects, and entries expire', async () => {
    const { listener, reset } = fakeListener();
    const cache = new CredentialCache(listener, 20);
    cache.set('h1', entry('key_1'));
    reset();
    expect(cache.get('h1')).toBeUndefined();
    cache.set('h2', entry('key_2'));
    await new Promise((r) => setTimeout(r, 30));
    expect(cache.get('h2')).toBeUndefined();
  });

  it('stays within its size, dropping the oldest entry', () => {
    const { listener } = fakeListener();
    const cache = new CredentialCache(listener, 60_000, 2);
    cache.set('h1', entry('key_1'));
    cache.set('h2', entry('key_2'));
    cache.set('h3', entry('key_3'));
    expect(cache.get('h1')).toBeUndefined();
    expect(cache.get('h3')).toBeDefined();
  });
});
