import type { AppContext } from '../../../core/context';
import type { Scope } from '../../../core/scope';
import { settlePayment } from '../attempts/settle-payment';
import { markConfigFailing } from '../provider-configs/provider-configs.service';
import { ProviderError, type PaymentProvider, type PayoutState, type ProviderPaymentState, type RefundState } from '../provider';
import { payoutTarget } from '../payouts/payout-target';
import { providerForRow } from '../providers/provider-of-row';
import { attemptOf } from '../refunds/refund-payment';
import { settleRefund } from '../refunds/settle-refund';
import { inboundAdapter } from './inbound-adapters';
import { claimTry, findConfigById, findNotification, markApplied, noteError, type NotificationRow } from './notifications.repository';
import { fillReceipt, paymentOf, refundOf } from './notification-subjects';

/** Tries before a notification about a payment or refund this server does not know is set aside. */
const UNMATCHED_TRIES = 4;

/** A try that should run again later: the provider is down, a row is locked, the payment is not recorded yet. */
export class ApplyLater extends Error {}

/**
 * Applies one inbox row: finds the payment or refund it is about, re-reads its state from the provider's API
 * (the notification is only a hint) and settles it through `settlePayment` / `settleRefund`, which lock the
 * row, so a repeated notice, a second callback or the reconciliation job at the same moment pay once. Returns
 * the outcome recorded on the row; throws to be tried again.
 */
export async function applyNotification(ctx: AppContext, id: string): Promise<string> {
  const row = await claimTry(ctx.db, id);
  if (!row) {
    const done = await findNotification(ctx.db, id);
    return done ? (done.outcome ?? 'applied') : 'missing';
  }
  return applyClaimed(ctx, row, async (r) => {
    const prepared = await preparePayment(ctx, r);
    return 'settle' in prepared ? settleAlone(ctx, prepared.settle) : prepared;
  });
}

/** A payment's confirmation as the provider's API gave it, ready to settle. */
export interface PaymentSettle {
  scope: Scope;
  paymentId: string;
  state: ProviderPaymentState;
}

export type Applied = { outcome: string; subjectId: string | null };

/**
 * Applies a claimed row (a payment through `payment`), records its outcome, and on a failure notes it and
 * throws it to be tried again, or, when the provider refuses to say, records `rejected`. A payment answered
 * `null` is left for the caller to settle and record.
 */
export async function applyClaimed<T extends Applied | null>(ctx: AppContext, row: NotificationRow, payment: (row: NotificationRow) => Promise<T>): Promise<string | Extract<T, null>> {
  try {
    const applied = row.kind === 'refund' ? await applyRefund(ctx, row, row.attempts) : row.kind === 'payout' ? await applyPayout(ctx, row) : await payment(row);
    if (applied === null) return null as Extract<T, null>;
    await markApplied(ctx.db, String(row.id), applied.outcome, applied.subjectId);
    return applied.outcome;
  } catch (err) {
    return notApplied(ctx, row, err);
  }
}

async function notApplied(ctx: AppContext, row: NotificationRow, err: unknown): Promise<string> {
  const id = String(row.id);
  const kind = err instanceof ProviderError ? err.kind : err instanceof ApplyLater ? 'later' : 'error';
  const message = err instanceof Error ? err.message : String(err);
  await noteError(ctx.db, id, `${kind}: ${message}`);
  ctx.log.warn({ notification: id, config: row.provider_config_id, kind, err: message }, 'payments: a provider notification is not applied yet');
  if (kind === 'credentials') await markConfigFailing(ctx, row.provider_config_id, message);
  if (kind === 'rejected') {
    // The provider refuses to say (an unknown reference): retrying cannot change that; reconciliation keeps asking.
    await markApplied(ctx.db, id, 'rejected', row.subject_id);
    return 'rejected';
  }
  throw err;
}

/** Settles one payment in its own transaction (`settlePayment`, which locks it). */
export async function settleAlone(ctx: AppContext, s: PaymentSettle): Promise<Applied> {
  const settled = await settlePayment(ctx, s.scope, s.paymentId, s.state);
  return { outcome: settled.outcome, subjectId: s.paymentId };
}

/**
 * The adapter a payment or refund was made with: a configuration's is kept while its row is unchanged
 * (`inboundAdapter`), so applying a notification does not unseal the secrets again.
 */
async function adapterOf(ctx: AppContext, provider: string | null, configId: string | null, adapters?: Adapters): Promise<PaymentProvider> {
  if (provider === 'simulated' || provider === null || configId === null) return providerForRow(ctx, new Map(), provider, configId);
  const known = adapters?.get(configId);
  if (known) return known;
  const adapter = findConfigById(ctx.db, configId).then((row) => {
    if (!row) throw new ProviderError('rejected', `configuration ${configId} no longer exists`);
    return inboundAdapter(ctx, row);
  });
  adapters?.set(configId, adapter);
  return adapter;
}

/** The adapters of one batch of rows by configuration: its configuration read once. */
export type Adapters = Map<string, Promise<PaymentProvider>>;

const scopeOf = (row: NotificationRow): Scope => ({ tenantId: row.tenant_id, livemode: row.livemode });

const unmatched = (what: string, attempts: number) => {
  // The provider may call before the attempt's own transaction committed: wait a little, then set it aside.
  if (attempts < UNMATCHED_TRIES) throw new ApplyLater(`no ${what} matches this notification yet`);
  return { outcome: 'unmatched', subjectId: null };
};

/**
 * What a payment notification comes to before anything is settled: an outcome already (unmatched, a mismatch,
 * a payment settled before), or the provider's answer to settle with (`settle`).
 */
export async function preparePayment(ctx: AppContext, row: NotificationRow, adapters?: Adapters): Promise<Applied | { settle: PaymentSettle }> {
  const scope = scopeOf(row);
  const payment = await paymentOf(ctx.db, scope, row);
  if (payment === 'mismatch') return { outcome: 'mismatch', subjectId: row.subject_id };
  if (!payment) return unmatched('payment', row.attempts);
  const hint = row.hint as ProviderPaymentState | null;
  const receipt = hint?.status === 'succeeded' ? row.provider_receipt : null;
  if (payment.status === 'succeeded') {
    // A payment settled by query alone has no M-Pesa receipt; a later callback supplies it (reversals need it).
    const filled = receipt && !payment.provider_receipt ? await fillReceipt(ctx.db, scope, payment.id, receipt) : false;
    return { outcome: filled ? 'receipt_recorded' : 'unchanged', subjectId: payment.id };
  }
  const provider = await adapterOf(ctx, payment.provider, payment.provider_config_id, adapters);
  let state = await provider.queryPayment({ ...attemptOf(payment), providerReceipt: payment.provider_receipt ?? receipt });
  // Daraja's STK Query confirms the result but carries no amount: the callback says what was paid.
  if (state.status === 'succeeded' && payment.provider === 'mpesa' && hint?.status === 'succeeded' && hint.amount > 0) {
    state = { ...state, amount: hint.amount, currency: hint.currency };
  }
  return { settle: { scope, paymentId: payment.id, state } };
}

async function applyRefund(ctx: AppContext, row: NotificationRow, attempts: number): Promise<{ outcome: string; subjectId: string | null }> {
  const scope = scopeOf(row);
  const found = await refundOf(ctx.db, scope, row);
  if (!found) return unmatched('refund', attempts);
  const { refund, payment } = found;
  if (refund.status !== 'pending') return { outcome: 'unchanged', subjectId: refund.id };
  const provider = await adapterOf(ctx, refund.provider, refund.provider_config_id);
  const reference = refund.provider_reference ?? row.reference;
  // M-Pesa reversals have no status call: their result, at the reversal's own tokened address, is the answer.
  // A Transaction Status result that found nothing reads like a failed reversal, but under its own
  // reference: only a notification under the refund's reference (or none) may decide it.
  const own = !row.reference || !refund.provider_reference || row.reference === refund.provider_reference;
  const state = (await provider.queryRefund({ refundId: refund.id, providerReference: reference, payment: attemptOf(payment) })) ?? (own ? (row.hint as RefundState | null) : null);
  if (!state || state.status === 'pending') return { outcome: 'pending', subjectId: refund.id };
  const settled = await settleRefund(ctx, scope, refund.id, state, reference);
  return { outcome: settled?.status === 'pending' ? 'pending' : (settled?.status ?? 'unchanged'), subjectId: refund.id };
}

/**
 * A B2C result (or a Transaction Status result) at a payout's own address settles the payout through its
 * product, which moves it only from `pending`: a repeated result changes nothing. A failure decides only
 * when it answers the payout's own request (its `OriginatorConversationID` is the payout's id); a status
 * query's failure (not found yet) does not.
 */
async function applyPayout(ctx: AppContext, row: NotificationRow): Promise<{ outcome: string; subjectId: string | null }> {
  if (!row.subject_id) return { outcome: 'unmatched', subjectId: null };
  const hint = row.hint as PayoutState | null;
  const own = row.reference === row.subject_id;
  if (!hint || (hint.status === 'failed' && !own)) return { outcome: 'pending', subjectId: row.subject_id };
  const settled = await payoutTarget().payoutSettled(ctx, scopeOf(row), row.subject_id, hint);
  return { outcome: settled ? hint.status : 'unchanged', subjectId: row.subject_id };
}
