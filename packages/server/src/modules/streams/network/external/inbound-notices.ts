import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AccountCredentials } from './account-credentials';
import { accountRef } from './account-refs';
import type { ProviderVideo } from './provider-types';

/** Account webhook deliveries older (or newer) than this are refused. */
export const WEBHOOK_TOLERANCE_S = 300;

/** What the provider told, in the service's words; `id` is the provider's own identity of the delivery. */
export type InboundNotice =
  | { kind: 'live_input'; id: string; inputRef: string; event: 'connected' | 'disconnected' | 'errored'; reason: string | null }
  | {
      kind: 'video';
      id: string;
      videoRef: string;
      liveInputRef: string | null;
      state: 'ready' | 'errored' | 'processing';
      duration: number | null;
      error: string | null;
      size: number | null;
    };

/** Why a delivery was turned away: `unauthenticated` (401) or `unreadable` (400). Nothing is recorded either way. */
export type InboundRefusal = { refused: 'unauthenticated' | 'unreadable'; message: string };

const equalText = (a: string, b: string) => {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
};

/** `Webhook-Signature: time=<unix>,sig1=<hex HMAC-SHA256 of "time.body">`, checked in constant time. */
export function verifyWebhookSignature(secret: string, header: string, rawBody: Buffer, now: Date): string | null {
  const parts = new Map<string, string[]>();
  for (const item of header.split(',')) {
    const eq = item.indexOf('=');
    if (eq <= 0) continue;
    const k = item.slice(0, eq).trim();
    parts.set(k, [...(parts.get(k) ?? []), item.slice(eq + 1).trim()]);
  }
  const time = parts.get('time')?.[0];
  const sigs = parts.get('sig1') ?? [];
  if (!time || !/^\d{1,12}$/.test(time) || sigs.length === 0) return 'The Webhook-Signature header is malformed.';
  if (Math.abs(now.getTime() / 1000 - Number(time)) > WEBHOOK_TOLERANCE_S) return 'The delivery is more than five minutes old.';
  const expected = createHmac('sha256', secret).update(`${time}.`).update(rawBody).digest('hex');
  return sigs.some((s) => equalText(s, expected)) ? null : 'The signature does not match.';
}

/** The notification channel's authentication header (its shared secret). */
export const NOTIFICATION_SECRET_HEADER = 'cf-webhook-auth';
export const WEBHOOK_SIGNATURE_HEADER = 'webhook-signature';

function videoNotice(c: AccountCredentials, v: ProviderVideo): InboundNotice {
  const state = v.status?.state === 'error' ? 'errored' : v.readyToStream || v.status?.state === 'ready' ? 'ready' : 'processing';
  return {
    kind: 'video',
    id: `video:${v.uid}:${v.status?.state ?? 'unknown'}:${v.modified ?? ''}`,
    videoRef: accountRef(c.configId, v.uid),
    liveInputRef: v.liveInput ? accountRef(c.configId, v.liveInput) : null,
    state,
    duration: typeof v.duration === 'number' && v.duration >= 0 ? v.duration : null,
    error: state === 'errored' ? (v.status?.errReasonText || v.status?.errReasonCode || 'The video account could not process the file.') : null,
    size: typeof v.size === 'number' ? v.size : null,
  };
}

interface LiveInputPayload {
  data?: { input_id?: string; event_type?: string; updated_at?: string; live_input_errored?: { error?: { message?: string } } };
}

/**
 * Reads one inbound delivery of an account: an account webhook (signed, about a video) or a live-input
 * notification (the shared secret in its header). Anything not proven to come from the account is refused.
 */
export function readInbound(
  c: AccountCredentials,
  headers: Record<string, string | string[] | undefined>,
  rawBody: Buffer,
  now: Date,
): InboundNotice | InboundRefusal {
  const header = (name: string) => {
    const v = headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const signature = header(WEBHOOK_SIGNATURE_HEADER);
  const shared = header(NOTIFICATION_SECRET_HEADER);
  if (signature !== undefined) {
    const wrong = verifyWebhookSignature(c.webhookSecret, signature, rawBody, now);
    if (wrong) return { refused: 'unauthenticated', message: wrong };
  } else if (shared === undefined || !equalText(shared, c.notificationSecret)) {
    return { refused: 'unauthenticated', message: 'The delivery carries no valid signature or shared secret.' };
  }
  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString('utf8'));
  } catch {
    return { refused: 'unreadable', message: 'The delivery is not JSON.' };
  }
  if (signature !== undefined) {
    const v = body as ProviderVideo;
    if (!v || typeof v.uid !== 'string' || !v.uid) return { refused: 'unreadable', message: 'The webhook names no video.' };
    return videoNotice(c, v);
  }
  const d = (body as LiveInputPayload)?.data;
  const event = d?.event_type?.replace(/^live_input\./, '');
  if (!d?.input_id || (event !== 'connected' && event !== 'disconnected' && event !== 'errored')) {
    return { refused: 'unreadable', message: 'The notification is not about a live input connecting, disconnecting or failing.' };
  }
  return {
    kind: 'live_input',
    id: `live_input:${d.input_id}:${event}:${d.updated_at ?? ''}`,
    inputRef: accountRef(c.configId, d.input_id),
    event,
    reason: d.live_input_errored?.error?.message ?? null,
  };
}
