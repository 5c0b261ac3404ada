import { createHmac, randomBytes } from 'node:crypto';

/** `whsec_` and 32 random bytes in base64: the Standard Webhooks secret form, so their verifiers take it as is. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** `Svc-Signature`'s `v1`: hex HMAC-SHA256 of `t.body`, keyed with the whole secret's UTF-8 bytes. */
export const svcSignature = (secret: string, timestamp: number, body: string) =>
  createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${timestamp}.${body}`).digest('hex');

/** Standard Webhooks' `v1`: base64 HMAC-SHA256 of `id.t.body`, keyed with the base64-decoded part after `whsec_`. */
export const standardSignature = (secret: string, id: string, timestamp: number, body: string) =>
  createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64')).update(`${id}.${timestamp}.${body}`).digest('base64');

export interface SignedDelivery {
  eventId: string;
  eventType: string;
  body: string;
  /** Current secret first; during a roll's grace period the old one follows. */
  secrets: readonly string[];
  /** Unix seconds. */
  timestamp: number;
}

/** The headers of one delivery: the service's own and the Standard Webhooks ones, each with a `v1` per secret. */
export function deliveryHeaders(d: SignedDelivery): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'Svc-Webhooks/1.0',
    'svc-event-id': d.eventId,
    'svc-event-type': d.eventType,
    'svc-signature': [`t=${d.timestamp}`, ...d.secrets.map((s) => `v1=${svcSignature(s, d.timestamp, d.body)}`)].join(','),
    'webhook-id': d.eventId,
    'webhook-timestamp': String(d.timestamp),
    'webhook-signature': d.secrets.map((s) => `v1,${standardSignature(s, d.eventId, d.timestamp, d.body)}`).join(' '),
  };
}
