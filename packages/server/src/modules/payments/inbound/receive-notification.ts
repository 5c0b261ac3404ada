import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { jobOf } from '../../../jobs/send-in-transaction';
import type { InboundRequest } from '../provider';
import { hashCallbackToken } from './callback-address';
import { applyNotificationJob } from './apply-notification.job';
import { inboundAdapter } from './inbound-adapters';
import { findConfigWithToken, notificationIdPlaceholder, recordNotification } from './notifications.repository';

export interface InboundCall {
  providerType: string;
  configId: string;
  /** M-Pesa's per-operation token, from the address; `null` on the signed providers' addresses. */
  token: string | null;
  headers: InboundRequest['headers'];
  rawBody: Buffer;
  ip: string;
}

export type ReceiveOutcome = 'recorded' | 'duplicate' | 'ignored';

/**
 * Why a notification was refused, for the operator: a warning in the server's log with the configuration,
 * the address's kind and the caller's IP, never a token, a signature or a body. Nothing is stored.
 */
function refuse(ctx: AppContext, call: InboundCall, reason: string, error: ApiError): never {
  ctx.log.warn({ provider: call.providerType, config: call.configId, reason, ip: call.ip }, 'payments: inbound provider notification refused');
  throw error;
}

const TYPES = new Set(['mpesa', 'paystack', 'stripe']);

/**
 * Checks an inbound notification as § 1.4 says (the signature through the adapter; M-Pesa's token against
 * its hash) and records a genuine one in the inbox, once per configuration and provider event id, with the
 * job that applies it in the same statement: two round trips in all (the configuration with the token's
 * subject, then the record). The provider's answer never waits for the provider's API.
 */
export async function receiveNotification(ctx: AppContext, call: InboundCall): Promise<ReceiveOutcome> {
  const notFound = ApiError.notFound('payment provider configuration', call.configId);
  if (!TYPES.has(call.providerType)) refuse(ctx, call, 'unknown_provider', notFound);
  const tokenHash = call.providerType === 'mpesa' && call.token ? hashCallbackToken(call.token) : null;
  const found = await findConfigWithToken(ctx.db, call.configId, tokenHash);
  if (!found || found.type !== call.providerType) refuse(ctx, call, 'unknown_config', notFound);
  const { token_subject_id, token_subject_type, ...config } = found;
  let subject: { subject_id: string; subject_type: string } | undefined;
  if (config.type === 'mpesa') {
    if (!call.token) refuse(ctx, call, 'missing_token', notFound);
    if (!token_subject_id || !token_subject_type) refuse(ctx, call, 'unknown_token', ApiError.notFound('callback address'));
    subject = { subject_id: token_subject_id, subject_type: token_subject_type };
    checkAllowlist(ctx, call);
  }
  const parsed = inboundAdapter(ctx, config).parseNotification({ headers: call.headers, rawBody: call.rawBody, token: call.token, subject: (subject?.subject_type ?? null) as 'payment' | 'refund' | 'payout' | null });
  if ('refused' in parsed) {
    if (parsed.refused === 'unauthenticated') refuse(ctx, call, 'bad_signature', ApiError.of('provider_webhook_refused', { message: parsed.message }));
    refuse(ctx, call, 'malformed', ApiError.of('invalid_request', { message: parsed.message, param: 'body' }));
  }
  // A token made for a reversal names a refund (a B2C payment, a payout); its subject only counts for a notification of that kind.
  const subjectId = subject && subject.subject_type === parsed.kind ? subject.subject_id : null;
  const ignored = parsed.kind === 'other';
  const row = await recordNotification(
    ctx.db,
    {
      provider_config_id: config.id,
      tenant_id: config.tenant_id,
      livemode: config.livemode,
      provider_event_id: parsed.providerEventId.slice(0, 500),
      kind: parsed.kind,
      reference: parsed.reference,
      hint: parsed.hint === null ? null : JSON.stringify(parsed.hint),
      provider_receipt: parsed.providerReceipt,
      subject_id: subjectId,
      applied_at: ignored ? new Date() : null,
      outcome: ignored ? 'ignored' : null,
    },
    ignored ? null : jobOf(applyNotificationJob, { id: notificationIdPlaceholder }),
  );
  if (!row) return 'duplicate';
  return ignored ? 'ignored' : 'recorded';
}

/**
 * Safaricom's documented callback addresses, when the operator lists them: a mismatch is logged, or refused
 * when `SVC_MPESA_CALLBACK_IPS_MODE` is `refuse`.
 */
function checkAllowlist(ctx: AppContext, call: InboundCall): void {
  const allowed = ctx.config.SVC_MPESA_CALLBACK_IPS;
  if (!allowed || allowed.length === 0) return;
  const ip = call.ip.replace(/^::ffff:/, '');
  if (allowed.includes(ip)) return;
  if (ctx.config.SVC_MPESA_CALLBACK_IPS_MODE === 'refuse') {
    refuse(ctx, call, 'address_not_allowed', ApiError.of('provider_webhook_refused', { message: 'This address does not take M-Pesa callbacks from where this one came.' }));
  }
  ctx.log.warn({ config: call.configId, ip }, 'payments: M-Pesa callback from an address outside SVC_MPESA_CALLBACK_IPS');
}
