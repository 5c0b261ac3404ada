import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import vectors from '@svc/webhook-verify/test-vectors.json';
import { verifyWebhook } from '@svc/webhook-verify';
import { Webhook } from 'standardwebhooks';
import { deliveryHeaders, newWebhookSecret, svcSignature } from './webhook-signature';

const signedVectors = vectors.vectors.filter(
  (v): v is (typeof v & { signed_with: string[]; timestamp: number; signed_body: string }) => 'signed_with' in v,
);

describe("the server's signer", () => {
  it('has vectors to check against', () => expect(signedVectors.length).toBeGreaterThanOrEqual(3));

  it.each(signedVectors.map((v) => [v.name, v] as const))('writes the published header: %s', (_name, v) => {
    const headers = deliveryHeaders({ eventId: 'evt_x', eventType: 't', body: v.signed_body, secrets: v.signed_with, timestamp: v.timestamp });
    expect(headers['svc-signature']).toBe(v.header);
  });

  it('keys the HMAC with the secret as UTF-8 text and signs `t.body`', () => {
    const expected = createHmac('sha256', 'whsec_abc').update('12.{"a":1}').digest('hex');
    expect(svcSignature('whsec_abc', 12, '{"a":1}')).toBe(expected);
  });

  it('makes headers that webhook-verify and Standard Webhooks verifiers accept, for each secret in force', async () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    expect(current).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = JSON.stringify({ id: 'evt_1', object: 'event', type: 'platform.webhook_endpoint.tested' });
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = deliveryHeaders({ eventId: 'evt_1', eventType: 'platform.webhook_endpoint.tested', body, secrets: [current, previous], timestamp });
    expect(headers['svc-signature']!.match(/v1=/g)).toHaveLength(2);
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    for (const secret of [current, previous]) {
      await expect(verifyWebhook(body, headers['svc-signature'], secret)).resolves.toMatchObject({ id: 'evt_1' });
      expect(new Webhook(secret).verify(body, headers)).toMatchObject({ id: 'evt_1' });
    }
  });
});
