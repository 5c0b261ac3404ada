import type { AppContext } from '../../../core/context';
import { settlePaymentsTogether } from '../attempts/settle-payments';
import { applyClaimed, preparePayment, settleAlone, type Adapters, type Applied, type PaymentSettle } from './apply-notification';
import { claimTries, markAppliedTogether, type NotificationRow } from './notifications.repository';

/** Rows of a batch prepared (or settled alone) at once: most of a preparation waits for the provider's query. */
const LANES = 4;

type Confirmed = { row: NotificationRow; settle: PaymentSettle };

/**
 * Applies a batch of inbox rows as `applyNotification` applies each, except that the payments confirmed
 * succeeded are settled together, one transaction per tenant and mode (`settlePaymentsTogether`): a rush of
 * confirmations for one event then takes the event's capacity row once per batch, not once per payment, and
 * holds one database connection instead of one each. Whatever that transaction leaves (a late payment, a
 * duplicate, a second notice of one payment) or loses (it failed: nothing of it was written) is settled one by
 * one after it. Every row is tried; answers the first error, for the job to try the batch again (rows applied
 * are skipped then).
 */
export async function applyNotifications(ctx: AppContext, ids: readonly string[]): Promise<unknown> {
  let failure: unknown;
  const attempt = async <T extends Applied | null>(row: NotificationRow, payment: (row: NotificationRow) => Promise<T>) => {
    try {
      await applyClaimed(ctx, row, payment);
    } catch (err) {
      failure ??= err;
    }
  };
  const adapters: Adapters = new Map();
  const confirmed: Confirmed[] = [];
  await inLanes(await claimTries(ctx.db, ids), (row) =>
    attempt(row, async (r) => {
      const prepared = await preparePayment(ctx, r, adapters);
      if (!('settle' in prepared)) return prepared;
      if (prepared.settle.state.status !== 'succeeded') return settleAlone(ctx, prepared.settle);
      confirmed.push({ row: r, settle: prepared.settle });
      return null;
    }),
  );
  const alone: Confirmed[] = [];
  for (const group of byScope(confirmed)) {
    const seen = new Set<string>();
    const firsts = group.filter((c) => (seen.has(c.settle.paymentId) ? (alone.push(c), false) : (seen.add(c.settle.paymentId), true)));
    if (firsts.length < 2) {
      alone.push(...firsts);
      continue;
    }
    let paid = new Set<string>();
    try {
      paid = await settlePaymentsTogether(ctx, firsts[0]!.settle.scope, firsts.map((c) => c.settle));
    } catch (err) {
      // Nothing of it was written: each is settled alone instead, so one payment's fault cannot fail the others.
      ctx.log.warn({ err: err instanceof Error ? err.message : String(err), payments: firsts.length }, 'payments: confirmations settled together failed; settling each alone');
    }
    const done = firsts.filter((c) => paid.has(c.settle.paymentId));
    // Unrecorded, a row is applied again later and finds its payment succeeded.
    await markAppliedTogether(ctx.db, done.map((c) => ({ id: String(c.row.id), subjectId: c.settle.paymentId })), 'succeeded').catch((err: unknown) => (failure ??= err));
    alone.push(...firsts.filter((c) => !paid.has(c.settle.paymentId)));
  }
  await inLanes(alone, (c) => attempt(c.row, () => settleAlone(ctx, c.settle)));
  return failure;
}

function byScope(confirmed: readonly Confirmed[]): Confirmed[][] {
  const groups = new Map<string, Confirmed[]>();
  for (const c of confirmed) {
    const key = `${c.settle.scope.tenantId} ${c.settle.scope.livemode}`;
    const group = groups.get(key);
    if (group) group.push(c);
    else groups.set(key, [c]);
  }
  return [...groups.values()];
}

async function inLanes<T>(items: readonly T[], run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await run(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(LANES, items.length) }, lane));
}
