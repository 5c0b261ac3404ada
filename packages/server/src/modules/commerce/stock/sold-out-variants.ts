import type { AppContext } from '../../../core/context';
import { GroupedCache } from '../../../core/grouped-cache';
import { modulePart } from '../../../core/modules/module-definition';
import type { NotificationListener } from '../../../core/notify';
import type { Scope } from '../../../core/scope';
import type { VariantRow } from '../../../db/commerce.schema';

/**
 * Sent by triggers on `product_variants` and `products` (migration 2026_12_06_20) with a variant's id when its
 * room may have grown (units released or restocked, stock raised) or what an order's plan reads of it changed.
 */
export const VARIANT_ROOM_CHANNEL = 'svc_commerce_variant_room';

/** A variant as read, with what an order's lines need of its product. */
export type ReadVariant = { variant: VariantRow };

/**
 * Variants last read with no unit left, so that the refusals of a rush (nine orders in ten once the last units
 * are held) are answered without reading the same variants again. Only what a read showed is kept, and the order
 * is planned from it exactly as from a fresh read; an order is answered from here only when all its variants are.
 *
 * An entry goes the moment room may have come back: every process hears of it when the transaction commits
 * (the triggers), and the process that makes the change forgets at once, in its transaction (`stockFreed`), so
 * that its own next order reads again. A read that a forget overtook is not kept, a lost LISTEN connection
 * clears everything, and nothing is kept longer than `ttlMs`.
 */
export class SoldOutVariants {
  private readonly cache: GroupedCache<unknown>;

  constructor(listener: NotificationListener, ttlMs = 2_000, maxEntries = 2_000) {
    this.cache = new GroupedCache(ttlMs, maxEntries);
    listener.on(VARIANT_ROOM_CHANNEL, (variantId) => this.forget([variantId]));
    listener.onReset(() => this.forget());
  }

  /** The variants kept when every one of `ids` is, else what `load` reads, the ones without a unit left kept. */
  async read<R extends ReadVariant>(scope: Scope, ids: readonly string[], load: (ids: readonly string[]) => Promise<R[]>): Promise<R[]> {
    const key = (id: string) => `${scope.tenantId}:${scope.livemode}:${id}`;
    const kept = ids.map((id) => this.cache.get(key(id)) as R | undefined);
    if (ids.length > 0 && kept.every((k) => k !== undefined)) return kept as R[];
    const mark = this.cache.mark();
    const read = await load(ids);
    for (const r of read) if (r.variant.stock !== null && r.variant.stock - r.variant.reserved <= 0) this.cache.keep(key(r.variant.id), r.variant.id, r, mark);
    return read;
  }

  /** Forgets the variants, or everything; a read already running is not kept either. */
  forget(variantIds?: readonly string[]): void {
    if (variantIds === undefined) return this.cache.forget();
    for (const id of variantIds) this.cache.forget(id);
  }

  /** Whether the variant is kept now. */
  holds(variantId: string): boolean {
    return this.cache.holds(variantId);
  }
}

const part = modulePart<SoldOutVariants>('commerce');
export const soldOutVariantsOf = (ctx: Pick<AppContext, 'parts'>): SoldOutVariants => part.of(ctx);

/** The module's `setup`: the memo on the LISTEN connection. */
export function setUpSoldOutVariants(ctx: AppContext, listener: NotificationListener): void {
  part.set(ctx, new SoldOutVariants(listener));
}

/**
 * Called in the transaction that may give variants room back (units released or restocked, stock raised, the
 * variant or its product changed): this process reads them again at once; every process hears of it when the
 * transaction commits (the triggers on `product_variants` and `products`).
 */
export function stockFreed(ctx: Pick<AppContext, 'parts'>, variantIds: readonly string[]): void {
  soldOutVariantsOf(ctx).forget(variantIds);
}
