import type { Order } from '@svc/contract';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../../core/context';
import { Batcher, ItemFailure, runByGroup } from '../../../core/batcher';
import type { Scope } from '../../../core/scope';
import type { DB } from '../../../db/schema';
import { outOfStock, reserveStockInTurn, type StockLine } from '../stock/stock.service';

/** Answered for an order the group leaves to be taken alone (having written nothing for it). */
export const ALONE = Symbol('alone');

export interface OrderItem {
  scope: Scope;
  /** The units the order holds, per variant. */
  lines: StockLine[];
  /** Writes the order (commerce's row, then ticketing's order) in the given transaction, its stock already held. */
  create(trx: Transaction<DB>): Promise<Order>;
}

// One batch per server (its pool and clock), as bookings are batched.
const batches = new WeakMap<AppContext, Batcher<OrderItem, Order | typeof ALONE>>();

/**
 * Takes a product order with something due with the others arriving meanwhile: in a rush the orders of one
 * variant queue for its row lock anyway, one commit each; together they take it once and commit once. Answers
 * `ALONE` when the order must be taken in a transaction of its own.
 */
export function orderTogether(ctx: AppContext, item: OrderItem): Promise<Order | typeof ALONE> {
  let batch = batches.get(ctx);
  if (!batch) {
    batch = new Batcher((items: OrderItem[]) => orderGroups(ctx, items), { maxItems: 100, maxConcurrent: 2 });
    batches.set(ctx, batch);
  }
  return batch.add(item);
}

const scopeKey = (s: Scope) => `${s.tenantId} ${s.livemode}`;

/**
 * The orders arriving together, one transaction per tenant and mode. A transaction that fails (a deadlock, any
 * one order's fault such as a taken `external_id`) writes nothing, and each of its orders is then taken alone,
 * so one cannot fail the others.
 */
function orderGroups(ctx: AppContext, items: OrderItem[]): Promise<Array<Order | typeof ALONE | ItemFailure>> {
  return runByGroup<OrderItem, Order | typeof ALONE | ItemFailure>(
    items,
    (item) => scopeKey(item.scope),
    (group) => takeTogether(ctx, group),
    (err, group) => {
      ctx.log.warn({ err: (err as Error).message, orders: group.length }, 'product orders taken together failed; taking each alone');
      return ALONE;
    },
  );
}

/**
 * Orders of one tenant and mode in one transaction: their stock is held first (the variants locked once, in id
 * order, the orders served in arrival order, each all or none); one short is refused `409 out_of_stock` naming
 * the variants it lacked and writes nothing. Then each order held is written.
 *
 * No savepoint per order: it would cost two more round trips per order on the rush's path, while what fails one
 * order on its own (a taken `external_id`, which only a secret key sets) is rare; such a failure rolls the whole
 * group back and its orders are taken alone, as without the group.
 */
async function takeTogether(ctx: AppContext, items: OrderItem[]): Promise<Array<Order | ItemFailure>> {
  const scope = items[0]!.scope;
  return ctx.db.transaction().execute(async (trx) => {
    const short = await reserveStockInTurn(trx, scope, items.map((item) => item.lines));
    const answers: Array<Order | ItemFailure> = [];
    for (const [i, item] of items.entries()) {
      const missing = short[i]!;
      answers.push(missing.length > 0 ? new ItemFailure(outOfStock(missing)) : await item.create(trx));
    }
    return answers;
  });
}
