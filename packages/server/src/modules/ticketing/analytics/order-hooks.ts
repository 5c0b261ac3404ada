import type { Executor } from '../../../db/database';
import type { OrderRow } from '../orders/order-rows.service';
import type { TicketRow } from '../tickets/ticket-rows.service';
import { purchaseItem, purchasesInsert } from '../activity/activity-items';
import { countPaidOrders } from './rollups';

/** What a paid order adds beside itself, in its transaction and in one statement: the daily rollups and the feed's purchase. */
export async function onOrderPaid(db: Executor, paid: OrderRow, tickets: readonly TicketRow[]): Promise<void> {
  await onOrdersPaid(db, [{ paid, tickets }]);
}

/** `onOrderPaid` for several orders, in one statement. */
export async function onOrdersPaid(db: Executor, orders: ReadonlyArray<{ paid: OrderRow; tickets: readonly TicketRow[] }>): Promise<void> {
  const purchases = orders.map((o) => purchaseItem(o.paid, o.tickets)).filter((p) => p !== null);
  await countPaidOrders(db, orders.map((o) => o.paid), purchases.length ? [purchasesInsert(purchases)] : []);
}
