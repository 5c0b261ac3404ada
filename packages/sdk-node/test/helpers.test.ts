import { decodeProtectedHeader, jwtVerify } from 'jose';
import { signWebhook } from '@svc/webhook-verify';
import { describe, expect, it } from 'vitest';
import { Svc, WebhookVerificationError } from '../src';

const svc = new Svc({ apiKey: 'sk_test_x', fetch: async () => new Response('{}') });
const secret = 'cts_0123456789abcdefghijklmnopqrstuv';

describe('customerTokens.sign', () => {
  it('signs exactly the claims the server checks', async () => {
    const token = await svc.customerTokens.sign({ keyId: 'ctk_1', secret, sub: 'viewer-42', ctry: 'KE', ttlSeconds: 300 });
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', kid: 'ctk_1', typ: 'JWT' });
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), { audience: 'svc', algorithms: ['HS256'] });
    expect(payload).toMatchObject({ sub: 'viewer-42', aud: 'svc', ctry: 'KE' });
    expect(payload.exp! - payload.iat!).toBe(300);
    expect(Math.abs(payload.iat! - Date.now() / 1000)).toBeLessThan(5);
  });

  it('leaves out ctry when not given and refuses lifetimes over 15 minutes', async () => {
    const token = await svc.customerTokens.sign({ keyId: 'ctk_1', secret, sub: 'v' });
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret));
    expect(payload).not.toHaveProperty('ctry');
    expect(payload.exp! - payload.iat!).toBe(600);
    await expect(svc.customerTokens.sign({ keyId: 'ctk_1', secret, sub: 'v', ttlSeconds: 901 })).rejects.toThrow(RangeError);
    await expect(svc.customerTokens.sign({ keyId: 'ctk_1', secret, sub: '' })).rejects.toThrow(RangeError);
    await expect(svc.customerTokens.sign({ keyId: 'ctk_1', secret, sub: 'x'.repeat(256) })).rejects.toThrow(RangeError);
    await expect(svc.customerTokens.sign({ keyId: 'key_1', secret, sub: 'v' })).rejects.toThrow(TypeError);
  });
});

describe('webhooks.constructEvent', () => {
  const whsec = 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA==';
  const body = JSON.stringify({ id: 'evt_1', object: 'event', type: 'streams.live_stream.created', data: { object: { id: 'ls_1' }, previous_attributes: null } });

  it('returns the event of a correctly signed raw body', async () => {
    const header = await signWebhook(body, whsec);
    const event = await svc.webhooks.constructEvent(body, header, whsec);
    expect(event.id).toBe('evt_1');
    expect(event.type).toBe('streams.live_stream.created');
  });

  it('refuses a changed body, and a parsed object instead of the raw body', async () => {
    const header = await signWebhook(body, whsec);
    await expect(svc.webhooks.constructEvent(body.replace('ls_1', 'ls_2'), header, whsec)).rejects.toMatchObject({ reason: 'no_matching_signature' });
    const parsed = JSON.parse(body) as unknown as string;
    const error = await svc.webhooks.constructEvent(parsed, header, whsec).catch((e) => e);
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect(error.reason).toBe('raw_body_required');
  });
});
