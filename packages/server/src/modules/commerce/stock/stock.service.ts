import { sql, type Transaction } from 'kysely';
import type { DB } from '../../../db/schema';
import { ApiError } from '../../../core/errors';
import type { Scope } from '../../../core/scope';

/** Units of one variant an order holds, sells or returns. */
export interface StockLine {
  variant: string;
  quantity: number;
}

/** Repeats summed per variant, in id order: the order every writer locks variants in, so none waits in a circle. */
export function perVariant(lines: readonly StockLine[]): StockLine[] {
  const sums = new Map<string, number>();
  for (const l of lines) if (l.quantity > 0) sums.set(l.variant, (sums.get(l.variant) ?? 0) + l.quantity);
  return [...sums.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([variant, quantity]) => ({ variant, quantity }));
}

/** `(id, n)` rows for a `from (values …)` join. */
const valuesOf = (lines: readonly StockLine[]) => sql.join(lines.map((l) => sql`(${l.variant}::text, ${l.quantity}::int)`));

async function lockVariants(trx: Transaction<DB>, scope: Scope, lines: readonly StockLine[]) {
  await trx
    .selectFrom('product_variants')
    .select('id')
    .where('tenant_id', '=', scope.tenantId)
    .where('livemode', '=', scope.livemode)
    .where('id', 'in', lines.map((l) => l.variant))
    .orderBy('id')
    .forUpdate()
    .execute();
}

/** `reserved += n` for each line whose variant has room for it; answers the variants that took their units. */
async function holdWhereRoom(trx: Transaction<DB>, scope: Scope, lines: readonly StockLine[]): Promise<Array<{ id: string }>> {
  const { rows } = await sql<{ id: string }>`
    update product_variants v set reserved = v.reserved + x.n
    from (values ${valuesOf(lines)}) as x(id, n)
    where v.id = x.id and v.tenant_id = ${scope.tenantId} and v.livemode = ${scope.livemode}
      and (v.stock is null or v.stock - v.reserved >= x.n)
    returning v.id`.execute(trx);
  return rows;
}

/**
 * Holds stock for a new order, inside its creating transaction: the variants are locked in id order and each
 * takes `reserved + n` only where `stock` is unlimited or `stock − reserved ≥ n`. One miss throws
 * `409 out_of_stock` naming the variants short (never a quantity), and the caller's transaction rolls back.
 */
export async function reserveStock(trx: Transaction<DB>, scope: Scope, lines: readonly StockLine[], param = 'line_items'): Promise<void> {
  const wanted = perVariant(lines);
  if (wanted.length === 0) return;
  // One variant needs no lock of its own: the update takes it. Several are locked in id order first.
  if (wanted.length > 1) await lockVariants(trx, scope, wanted);
  const rows = await holdWhereRoom(trx, scope, wanted);
  if (rows.length === wanted.length) return;
  const took = new Set(rows.map((r) => r.id));
  throw outOfStock(wanted.filter((l) => !took.has(l.variant)).map((l) => l.variant), param);
}

/**
 * Holds stock for several new orders in one transaction (orders taken together): the variants of all of them
 * are locked once, in id order, and the orders served in the order given, each all or none as `reserveStock`
 * would serve it alone at that moment. Answers, for each order, the variants it was short of (in id order), or
 * `[]` when its units are now held.
 */
export async function reserveStockInTurn(trx: Transaction<DB>, scope: Scope, orders: readonly (readonly StockLine[])[]): Promise<string[][]> {
  const wanted = orders.map((lines) => perVariant(lines));
  const ids = [...new Set(wanted.flatMap((lines) => lines.map((l) => l.variant)))];
  if (ids.length === 0) return wanted.map(() => []);
  const locked = await trx
    .selectFrom('product_variants')
    .select(['id', 'stock', 'reserved'])
    .where('tenant_id', '=', scope.tenantId)
    .where('livemode', '=', scope.livemode)
    .where('id', 'in', ids)
    .orderBy('id')
    .forUpdate()
    .execute();
  // Units left per variant (`null`: unlimited); a variant not found has none, as the update alone would find.
  const room = new Map(locked.map((v) => [v.id, v.stock === null ? null : v.stock - v.reserved]));
  const held = new Map<string, number>();
  const short = wanted.map((lines) => {
    const missing = lines.filter((l) => !room.has(l.variant) || (room.get(l.variant) ?? Infinity) < l.quantity).map((l) => l.variant);
    if (missing.length > 0) return missing;
    for (const l of lines) {
      const left = room.get(l.variant);
      if (left !== null && left !== undefined) room.set(l.variant, left - l.quantity);
      held.set(l.variant, (held.get(l.variant) ?? 0) + l.quantity);
    }
    return [];
  });
  const taken = perVariant([...held].map(([variant, quantity]) => ({ variant, quantity })));
  if (taken.length === 0) return short;
  const rows = await holdWhereRoom(trx, scope, taken);
  // Under the locks the room read is the room there is: a miss here is a bug, and fails the whole transaction.
  if (rows.length !== taken.length) throw new Error('reserveStockInTurn: a locked variant lost its room');
  return short;
}

export const outOfStock = (variants: readonly string[], param = 'line_items') =>
  ApiError.of('out_of_stock', { message: 'Not enough stock is left for this order.', param, details: { variants: [...variants] } });

/** Gives back what a pending order held (it expired or was cancelled). */
export async function releaseStock(trx: Transaction<DB>, scope: Scope, lines: readonly StockLine[]): Promise<void> {
  const held = perVariant(lines);
  if (held.length === 0) return;
  await lockVariants(trx, scope, held);
  await sql`
    update product_variants v set reserved = greatest(v.reserved - x.n, 0)
    from (values ${valuesOf(held)}) as x(id, n)
    where v.id = x.id and v.tenant_id = ${scope.tenantId} and v.livemode = ${scope.livemode}`.execute(trx);
}

/** Payment turns a held reservation into a sale: `stock −= n`, `reserved −= n`, `sold += n`. */
export async function sellReservedStock(trx: Transaction<DB>, scope: Scope, lines: readonly StockLine[]): Promise<void> {
  const held = perVariant(lines);
  if (held.length === 0) return;
  await lockVariants(trx, scope, held);
  await sql`
    update product_variants v set
      stock = case when v.stock is null then null else v.stock - x.n end,
      reserved = greatest(v.reserved - x.n, 0),
      sold = v.sold + x.n
    from (values ${valuesOf(held)}) as x(id, n)
    where v.id = x.id and v.tenant_id = ${scope.tenantId} and v.livemode = ${scope.livemode}`.execute(trx);
}

/**
 * A payment confirmed after its order gave its reservation back (a late payment): the units are sold again
 * only if every line is still free. Answers whether they were.
 */
export async function sellFreeStock(trx: Transaction<DB>, scope: Scope, lines: readonly StockLine[]): Promise<boolean> {
  const wanted = perVariant(lines);
  if (wanted.length === 0) return true;
  await lockVariants(trx, scope, wanted);
  const { rows } = await sql<{ id: string }>`
    select v.id from product_variants v join (values ${valuesOf(wanted)}) as x(id, n) on v.id = x.id
    where v.tenant_id = ${scope.tenantId} and v.livemode = ${scope.livemode} and (v.stock is null or v.stock - v.reserved >= x.n)`.execute(trx);
  if (rows.length !== wanted.length) return false;
  await sql`
    update product_variants v set stock = case when v.stock is null then null else v.stock - x.n end, sold = v.sold + x.n
    from (values ${valuesOf(wanted)}) as x(id, n)
    where v.id = x.id and v.tenant_id = ${scope.tenantId} and v.livemode = ${scope.livemode}`.execute(trx);
  return true;
}

/** Refunded units go back on the shelf (`stock += n`, `sold −= n`); without restock they stay sold. */
export async function restockSold(trx: Transaction<DB>, scope: Scope, lines: readonly StockLine[]): Promise<void> {
  const back = perVariant(lines);
  if (back.length === 0) return;
  await lockVariants(trx, scope, back);
  await sql`
    update product_variants v set
      stock = case when v.stock is null then null else v.stock + x.n end,
      sold = greatest(v.sold - x.n, 0)
    from (values ${valuesOf(back)}) as x(id, n)
    where v.id = x.id and v.tenant_id = ${scope.tenantId} and v.livemode = ${scope.livemode}`.execute(trx);
}
