import type { CommerceProduct, ProductVariant } from '@svc/contract';
import { amountText, parseMoney } from '../format';

/** A field a person filled in wrongly: shown beside the form, nothing is sent. */
export interface Invalid {
  invalid: string;
}
export const isInvalid = (v: unknown): v is Invalid => typeof v === 'object' && v !== null && 'invalid' in v;

/** Units on hand as typed: empty is unlimited (`null`), else a whole number of at least 0. */
export function parseStock(text: string): number | null | Invalid {
  const clean = text.trim();
  if (clean === '') return null;
  if (!/^\d+$/.test(clean)) return { invalid: 'Enter the units on hand as a whole number, or leave it empty for unlimited.' };
  return Number(clean);
}

/** A stock figure as a person reads it: `null` is unlimited. */
export const unitsText = (n: number | null) => (n === null ? 'Unlimited' : String(n));

/** Image URLs typed one a line (or separated by spaces); blank lines dropped. */
export const imagesOf = (text: string) =>
  text
    .split(/\s+/)
    .map((s) => s.trim())
    .filter(Boolean);

/** What a digital product grants, typed as ids one a line: `ls_…` live streams and `ast_…` assets. */
export function grantsOf(text: string): CommerceProduct['grants'] | Invalid {
  const grants: CommerceProduct['grants'] = [];
  for (const id of imagesOf(text)) {
    const type = id.startsWith('ls_') ? 'ls' : id.startsWith('ast_') ? 'ast' : null;
    if (!type) return { invalid: `'${id}' is neither a live stream (ls_…) nor an asset (ast_…).` };
    grants.push({ type, id });
  }
  return grants;
}

export interface VariantForm {
  name: string;
  sku: string;
  price: string;
  stock: string;
  active: boolean;
}

export const emptyVariantForm = (): VariantForm => ({ name: '', sku: '', price: '', stock: '', active: true });

/** The body of a new variant (`POST …/variants`, or a new product's first variant), or what is wrong with the form. */
export function newVariantBody(form: VariantForm, currency: string) {
  const price = parseMoney(form.price || '0', currency);
  if (price === null) return { invalid: `Enter the price in ${currency}, e.g. 1500 or 1500.50.` };
  const stock = parseStock(form.stock);
  if (isInvalid(stock)) return stock;
  return { name: form.name.trim(), sku: form.sku.trim(), price, stock, active: form.active };
}

/** The form for editing a variant, from the variant as it is. */
export const variantForm = (v: ProductVariant, currency: string): VariantForm => ({
  name: v.name,
  sku: v.sku,
  price: amountText(v.price, currency),
  stock: v.stock === null ? '' : String(v.stock),
  active: v.active,
});

/**
 * The `PATCH /v1/commerce/variants/{id}` body: only the price, stock and active flag that changed, so an untouched
 * stock is never sent back (a sale in between keeps its count). `null` when nothing changed.
 */
export function variantPatch(v: ProductVariant, form: Pick<VariantForm, 'price' | 'stock' | 'active'>, currency: string) {
  const price = parseMoney(form.price, currency);
  if (price === null) return { invalid: `Enter the price in ${currency}, e.g. 1500 or 1500.50.` };
  const stock = parseStock(form.stock);
  if (isInvalid(stock)) return stock;
  const patch: { price?: number; stock?: number | null; active?: boolean } = {};
  if (price !== v.price) patch.price = price;
  if (stock !== v.stock) patch.stock = stock;
  if (form.active !== v.active) patch.active = form.active;
  return Object.keys(patch).length ? patch : null;
}

/** The moves a product's page offers from its status: publish it (again), or archive it. */
export function statusMoves(status: CommerceProduct['status']): Array<{ to: CommerceProduct['status']; label: string }> {
  const moves: Array<{ to: CommerceProduct['status']; label: string }> = [];
  if (status !== 'published') moves.push({ to: 'published', label: 'Publish' });
  if (status !== 'archived') moves.push({ to: 'archived', label: 'Archive' });
  return moves;
}

/** Why publishing is not offered yet, as the API would refuse it (`422`, `param` `variants` / `grants`); `null` when it may. */
export function publishBlocker(product: Pick<CommerceProduct, 'kind' | 'grants' | 'variants'>): string | null {
  if (!product.variants.some((v) => v.active)) return 'Add an active variant before publishing.';
  if (product.kind === 'digital' && product.grants.length === 0) return 'A digital product needs something to grant (a live stream or an asset) before publishing.';
  return null;
}

/** The price range of a product's active variants: `KES 1,500.00` or `KES 1,500.00 – KES 2,000.00`. */
export function priceRange(product: Pick<CommerceProduct, 'variants' | 'currency'>, format: (minor: number, currency: string) => string): string {
  const prices = product.variants.filter((v) => v.active).map((v) => v.price);
  if (prices.length === 0) return '—';
  const low = Math.min(...prices);
  const high = Math.max(...prices);
  return low === high ? format(low, product.currency) : `${format(low, product.currency)} – ${format(high, product.currency)}`;
}

/** Units left to sell across active variants; `null` when any active variant is unlimited. */
export function unitsLeft(product: Pick<CommerceProduct, 'variants'>): number | null {
  let total = 0;
  for (const v of product.variants) {
    if (!v.active) continue;
    if (v.available === null) return null;
    total += v.available;
  }
  return total;
}

/** The commerce settings form as the `PATCH …/commerce_settings` body, or what is wrong with it. */
export function settingsPatch(form: { hold: string; fee: string; pickup: boolean; instructions: string }, currency: string) {
  const hold = Number(form.hold);
  if (!/^\d+$/.test(form.hold.trim()) || hold < 5 || hold > 1440) return { invalid: 'Hold minutes are a whole number from 5 to 1440.' };
  const fee = parseMoney(form.fee || '0', currency);
  if (fee === null) return { invalid: `Enter the shipping fee in ${currency}, e.g. 300 or 300.50.` };
  return { hold_minutes: hold, shipping_fee: fee, pickup_enabled: form.pickup, pickup_instructions: form.instructions.trim() ? form.instructions.trim() : null };
}
