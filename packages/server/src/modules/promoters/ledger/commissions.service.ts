import type { Transaction } from 'kysely';
import { emitPreparedEvents, envelopeOf, type PreparedEvent } from '../../../core/events/emit-event';
import { newId } from '../../../core/ids';
import { scoped, type Scope } from '../../../core/scope';
import type { CommissionRow } from '../../../db/promoters.schema';
import type { DB } from '../../../db/schema';
import type { OrderItem } from '../../ticketing';
import { assignmentFor } from '../attribution/attribute-order';
import { readSettings } from '../settings/settings.service';
import { commissionOf, reversalTotal } from './commission-amounts';
import * as repo from './commissions.repository';
import { serializeCommission } from './commissions.serializer';

const DAY_MS = 86_400_000;

/** What the ledger needs of an order (any kind), as ticketing's listener hands it over. */
export interface LedgerOrder {
  id: string;
  code: string;
  status: string;
  organization_id: string;
  currency: string;
  amount_total: number;
  amount_discount: number;
  amount_paid: number;
  amount_refunded: number;
  paid_at: Date | null;
  created_at: Date;
  attribution: { promoter: string; tracking_code: string | null; assignment: string } | null;
}

const eventOf = (scope: Scope, type: 'promoters.commission.created' | 'promoters.commission.approved' | 'promoters.commission.reversed', row: CommissionRow, previous?: Record<string, unknown>): PreparedEvent => ({
  scope,
  envelope: envelopeOf(scope, { type, subject: row.id, object: serializeCommission(row), ...(previous && { previousAttributes: previous }) }),
});

/**
 * An attributed order was paid (in its paying transaction): the sale row the reports count and, when the
 * promoter's active assignments cover its items for more than 0, a `pending` commission entry.
 */
export async function recordPaidOrder(trx: Transaction<DB>, scope: Scope, order: LedgerOrder, items: readonly OrderItem[], now: Date): Promise<void> {
  const a = order.attribution;
  if (!a) return;
  const assignments = await scoped(trx, scope).selectFrom('promoter_assignments').selectAll().where('promoter_id', '=', a.promoter).where('active', '=', true).execute();
  const covered = items.map((item) => ({ item, assignment: assignmentFor(assignments, item, order.organization_id) })).filter((c) => c.assignment);
  if (covered.length === 0) return;
  const net = covered.reduce((s, c) => s + c.item.amount_total, 0);
  const quantity = covered.reduce((s, c) => s + c.item.quantity, 0);
  const amount = covered.reduce((s, c) => s + commissionOf(c.assignment!, c.item.amount_total, c.item.quantity), 0);
  const cap = covered[0]!.assignment!.max_per_order;
  const commission = cap === null ? amount : Math.min(amount, cap);
  const first = covered[0]!;
  const inserted = await trx
    .insertInto('promoter_sales')
    .values({
      order_id: order.id,
      tenant_id: scope.tenantId,
      livemode: scope.livemode,
      promoter_id: a.promoter,
      organization_id: order.organization_id,
      tracking_code_id: a.tracking_code,
      target_type: first.item.kind === 'ticket' ? 'event' : 'product',
      target_id: (first.item.kind === 'ticket' ? first.item.event_id : first.item.product_id) ?? '',
      items: quantity,
      gross: net + (covered.length === items.length ? order.amount_discount : 0),
      net,
      commission,
      currency: order.currency,
      order_code: order.code,
      order_kind: first.item.kind,
      order_status: 'paid',
      order_created_at: order.created_at,
    })
    .onConflict((oc) => oc.column('order_id').doNothing())
    .returning('order_id')
    .executeTakeFirst();
  if (!inserted) return;
  if (a.tracking_code) await scoped(trx, scope).updateTable('tracking_codes').set((eb) => ({ orders: eb('orders', '+', 1) })).where('id', '=', a.tracking_code).execute();
  if (commission <= 0) return;
  const { refundWindowDays } = await readSettings(trx, scope);
  const endsAt = Math.max(...covered.map((c) => c.item.ends_at.getTime()));
  const entry = await repo.insertCommission(trx, scope, {
    id: newId('commission'),
    promoter_id: a.promoter,
    assignment_id: first.assignment!.id,
    order_id: order.id,
    type: 'commission',
    amount: commission,
    currency: order.currency,
    status: 'pending',
    available_at: new Date(endsAt + refundWindowDays * DAY_MS),
    reverses: null,
    payout_id: null,
    approved_at: null,
    paid_at: null,
    created_at: now,
  });
  if (entry) await emitPreparedEvents(trx, [eventOf(scope, 'promoters.commission.created', entry)]);
}

/**
 * A refund of an attributed order succeeded: a `reversal` entry brings the order's reversals to the commission's
 * share of what went back. An unpaid entry's reversal takes its status; once the unpaid entries sum to 0 they
 * are all `reversed`. A paid entry's reversal is `approved` at once, deducted from the next payout.
 */
export async function reverseForRefund(trx: Transaction<DB>, scope: Scope, order: LedgerOrder, now: Date): Promise<void> {
  const status = order.amount_refunded >= order.amount_paid ? 'refunded' : 'partially_refunded';
  await scoped(trx, scope).updateTable('promoter_sales').set({ order_status: status }).where('order_id', '=', order.id).execute();
  const entries = await repo.lockEntriesOfOrder(trx, scope, order.id);
  const commission = entries.find((e) => e.type === 'commission');
  if (!commission) return;
  const reversed = -entries.filter((e) => e.type === 'reversal').reduce((s, e) => s + e.amount, 0);
  const delta = reversalTotal(commission.amount, order.amount_refunded, order.amount_paid) - reversed;
  if (delta <= 0) return;
  const unpaid = commission.payout_id === null && (commission.status === 'pending' || commission.status === 'approved');
  const reversal = (await repo.insertCommission(trx, scope, {
    id: newId('commission'),
    promoter_id: commission.promoter_id,
    assignment_id: commission.assignment_id,
    order_id: order.id,
    type: 'reversal',
    amount: -delta,
    currency: commission.currency,
    status: unpaid ? commission.status : 'approved',
    available_at: unpaid ? commission.available_at : now,
    reverses: commission.id,
    payout_id: null,
    approved_at: unpaid ? commission.approved_at : now,
    paid_at: null,
    created_at: now,
  }))!;
  const events = [eventOf(scope, 'promoters.commission.created', reversal)];
  const open = [...entries, reversal].filter((e) => e.payout_id === null && (e.status === 'pending' || e.status === 'approved'));
  if (unpaid && open.reduce((s, e) => s + e.amount, 0) === 0) {
    const moved = await scoped(trx, scope)
      .updateTable('commissions')
      .set({ status: 'reversed' })
      .where('id', 'in', open.map((e) => e.id))
      .returningAll()
      .execute();
    for (const m of moved) events.push(eventOf(scope, 'promoters.commission.reversed', m, { status: open.find((e) => e.id === m.id)!.status }));
  }
  await emitPreparedEvents(trx, events);
}

/** Moves due `pending` entries to `approved` (the job, and the test helper for one order). Answers the entries moved. */
export async function approveDue(trx: Transaction<DB>, now: Date, only?: { scope: Scope; orderId: string }): Promise<CommissionRow[]> {
  const due = await repo.lockDuePending(trx, now, only);
  if (due.length === 0) return [];
  const moved = await trx
    .updateTable('commissions')
    .set({ status: 'approved', approved_at: now })
    .where('id', 'in', due.map((d) => d.id))
    .where('status', '=', 'pending')
    .returningAll()
    .execute();
  await emitPreparedEvents(
    trx,
    moved.map((m) => eventOf({ tenantId: m.tenant_id, livemode: m.livemode }, 'promoters.commission.approved', m, { status: 'pending' })),
  );
  return moved;
}
