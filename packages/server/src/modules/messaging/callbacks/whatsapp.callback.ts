import { createHmac, timingSafeEqual } from 'node:crypto';
import { whatsappErrorCode } from '../channels/whatsapp.channel';
import type { Receipt } from './receipts';

/** `X-Hub-Signature-256: sha256=<hex>`: HMAC-SHA256 of the raw body under the app secret, compared in constant time. */
export function whatsappSignatureValid(raw: Buffer, header: string | undefined, appSecret: string): boolean {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? '');
  if (!match) return false;
  const expected = createHmac('sha256', appSecret).update(raw).digest();
  return timingSafeEqual(expected, Buffer.from(match[1]!, 'hex'));
}

interface StatusChange {
  id?: string;
  status?: string;
  timestamp?: string;
  biz_opaque_callback_data?: string;
  errors?: Array<{ code?: number; title?: string }>;
}

interface Notification {
  object?: string;
  entry?: Array<{ changes?: Array<{ field?: string; value?: { statuses?: StatusChange[] } }> }>;
}

/**
 * The receipts in a WhatsApp webhook notification (`object: whatsapp_business_account`, statuses under
 * `entry[].changes[].value.statuses`): `delivered` and `read` deliver, `failed` fails with the error's code;
 * `sent` is on the way. Incoming messages and other fields are ignored.
 */
export function readWhatsAppStatuses(body: unknown): Receipt[] | { invalid: string } {
  const n = body as Notification;
  if (!n || typeof n !== 'object' || n.object !== 'whatsapp_business_account' || !Array.isArray(n.entry)) {
    return { invalid: 'A WhatsApp notification has `object: whatsapp_business_account` and `entry`.' };
  }
  const receipts: Receipt[] = [];
  for (const entry of n.entry) {
    for (const change of entry.changes ?? []) {
      for (const s of change.value?.statuses ?? []) {
        if (!s.id || !s.status) continue;
        const at = s.timestamp && /^\d+$/.test(s.timestamp) ? new Date(Number(s.timestamp) * 1000) : new Date();
        const base = { provider: 'whatsapp', providerId: s.id, messageId: s.biz_opaque_callback_data, at };
        if (s.status === 'delivered' || s.status === 'read') receipts.push({ ...base, outcome: 'delivered' });
        if (s.status === 'failed') {
          const mapped = whatsappErrorCode(s.errors?.[0]?.code);
          receipts.push({ ...base, outcome: 'failed', errorCode: mapped.permanent ? mapped.code : 'undeliverable' });
        }
      }
    }
  }
  return receipts;
}
