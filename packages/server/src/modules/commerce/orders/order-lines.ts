import type { CreateProductOrderInput } from '@svc/contract';
import type { VariantRow } from '../../../db/commerce.schema';
import type { Executor } from '../../../db/database';
import { ApiError } from '../../../core/errors';
import { isIdOf } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import { variantsWithProducts, type LineProduct } from '../products/products.service';

/** One line of a new product order: a variant, its product, and the units summed over repeats. */
export interface PlannedLine {
  variant: VariantRow;
  product: LineProduct;
  quantity: number;
}

export interface OrderPlan {
  organizationId: string;
  currency: string;
  lines: PlannedLine[];
  /** Whether a unit must travel (a physical product). */
  physical: boolean;
}

/** Where the lines are in the request, and what they must match (a booking's add-ons: the event's organization and currency). */
export interface PlanOptions {
  param?: 'line_items' | 'add_ons';
  organizationId?: string;
  currency?: string;
  /** Reads the variants with their products (default: from `db`); product orders read through the sold-out memo. */
  read?: (ids: readonly string[]) => Promise<Array<{ variant: VariantRow; product: LineProduct }>>;
}

/**
 * Checks the requested lines (products-api § 3.3): repeats summed, every variant active, of a published product
 * of one organization and currency, within `max_per_order`. Prices are read here, once: the order keeps them.
 */
export async function planOrderLines(db: Executor, scope: Scope, items: Readonly<CreateProductOrderInput['line_items']>, opts: PlanOptions = {}): Promise<OrderPlan> {
  const param = opts.param ?? 'line_items';
  const unavailable = (index: number, reason: string, message: string) =>
    ApiError.of('product_unavailable', { param: `${param}.${index}.variant`, message, details: { reason } });
  const firstIndex = new Map<string, number>();
  const quantities = new Map<string, number>();
  items.forEach((item, i) => {
    if (!firstIndex.has(item.variant)) firstIndex.set(item.variant, i);
    quantities.set(item.variant, (quantities.get(item.variant) ?? 0) + item.quantity);
  });
  const ids = [...firstIndex.keys()];
  const known = ids.filter((id) => isIdOf('product_variant', id));
  const read = opts.read ?? ((ids: readonly string[]) => variantsWithProducts(db, scope, ids));
  const found = new Map((await read(known)).map((r) => [r.variant.id, r]));
  const lines: PlannedLine[] = [];
  let first: LineProduct | undefined;
  for (const id of ids) {
    const index = firstIndex.get(id)!;
    if (!found.has(id)) throw ApiError.of('resource_not_found', { param: `${param}.${index}.variant`, message: `No such variant: '${id}'.` });
    const { variant, product } = found.get(id)!;
    if (product.status !== 'published') throw unavailable(index, 'not_published', `${product.name} is not on sale.`);
    if (!variant.active) throw unavailable(index, 'inactive', `${product.name} (${variant.name}) is not on sale.`);
    first ??= product;
    if (product.organization_id !== (opts.organizationId ?? first.organization_id)) throw unavailable(index, 'other_organization', 'An order holds products of one organization.');
    if (product.currency !== (opts.currency ?? first.currency)) throw unavailable(index, 'currency_mismatch', 'An order holds products of one currency.');
    const quantity = quantities.get(id)!;
    if (quantity > product.max_per_order) {
      throw unavailable(index, 'quantity_over_limit', `At most ${product.max_per_order} units of ${product.name} (${variant.name}) per order.`);
    }
    lines.push({ variant, product, quantity });
  }
  return { organizationId: first!.organization_id, currency: first!.currency, lines, physical: lines.some((l) => l.product.kind === 'physical') };
}
