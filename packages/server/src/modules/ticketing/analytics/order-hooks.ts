import type { Executor } from '../../../db/database';
import type { OrderRow } from '../orders/order-rows.service';
import type { TicketRow } from '../tickets/ticket-rows.service';
import { recordPurchase } from '../activity/activity-items';
import { countPaidOrder } from './rollups';

/** What a paid order adds beside itself, in its transaction: the daily rollups and the feed's purchase. */
export async function onOrderPaid(db: Executor, paid: OrderRow, tickets: readonly TicketRow[]): Promise<void> {
  await countPaidOrder(db, paid, tickets);
  await recordPurchase(db, paid, tickets);
}
