import type { CommerceProduct, ProductVariant } from '@svc/contract';
import { describe, expect, it } from 'vitest';
import { formatMoney } from '../format';
import {
  grantsOf,
  imagesOf,
  newVariantBody,
  parseStock,
  priceRange,
  publishBlocker,
  settingsPatch,
  statusMoves,
  unitsLeft,
  unitsText,
  variantForm,
  variantPatch,
} from './merch';

const variant = (over: Partial<ProductVariant> = {}): ProductVariant =>
  ({ id: 'var_1', name: 'Black / L', sku: 'TEE-BLK-L', price: 150_000, stock: 20, reserved: 3, available: 17, sold: 5, active: true, ...over }) as ProductVariant;
const product = (over: Partial<CommerceProduct> = {}): CommerceProduct =>
  ({ id: 'prd_1', kind: 'physical', status: 'draft', currency: 'KES', grants: [], variants: [variant()], ...over }) as CommerceProduct;

describe('stock as typed', () => {
  it('reads empty as unlimited, whole numbers as units, and refuses anything else', () => {
    expect(parseStock('')).toBeNull();
    expect(parseStock('  ')).toBeNull();
    expect(parseStock('0')).toBe(0);
    expect(parseStock(' 25 ')).toBe(25);
    for (const bad of ['-1', '2.5', 'ten', '1e3']) expect(parseStock(bad)).toHaveProperty('invalid');
    expect(unitsText(null)).toBe('Unlimited');
    expect(unitsText(0)).toBe('0');
  });
});

describe('a new variant', () => {
  it('becomes the API body in minor units, unlimited stock when left empty', () => {
    expect(newVariantBody({ name: ' Black / L ', sku: ' TEE-BLK-L ', price: '1,500.50', stock: '', active: true }, 'KES')).toEqual({
      name: 'Black / L',
      sku: 'TEE-BLK-L',
      price: 150_050,
      stock: null,
      active: true,
    });
    expect(newVariantBody({ name: 'A', sku: 'A', price: '', stock: '4', active: true }, 'UGX')).toMatchObject({ price: 0, stock: 4 });
  });

  it('says what is wrong with a price or a stock', () => {
    expect(newVariantBody({ name: 'A', sku: 'A', price: '15.5.0', stock: '', active: true }, 'KES')).toEqual({ invalid: 'Enter the price in KES, e.g. 1500 or 1500.50.' });
    expect(newVariantBody({ name: 'A', sku: 'A', price: '10', stock: '-3', active: true }, 'KES')).toHaveProperty('invalid');
  });
});

describe('editing a variant', () => {
  it('sends only what changed, so an untouched stock is never written back', () => {
    const v = variant();
    const form = variantForm(v, 'KES');
    expect(form).toMatchObject({ price: '1500.00', stock: '20', active: true });
    expect(variantPatch(v, form, 'KES')).toBeNull();
    expect(variantPatch(v, { ...form, stock: '40' }, 'KES')).toEqual({ stock: 40 });
    expect(variantPatch(v, { ...form, price: '1800', active: false }, 'KES')).toEqual({ price: 180_000, active: false });
    expect(variantPatch(v, { ...form, stock: '' }, 'KES')).toEqual({ stock: null });
    expect(variantPatch(variant({ stock: null, available: null }), { price: '1500', stock: '', active: true }, 'KES')).toBeNull();
  });

  it('refuses a price or stock it cannot read, before calling the API', () => {
    const v = variant();
    expect(variantPatch(v, { price: 'abc', stock: '20', active: true }, 'KES')).toHaveProperty('invalid');
    expect(variantPatch(v, { price: '1500', stock: '1.5', active: true }, 'KES')).toHaveProperty('invalid');
  });
});

describe("a product's status", () => {
  it('offers publish unless published and archive unless archived', () => {
    expect(statusMoves('draft').map((m) => m.to)).toEqual(['published', 'archived']);
    expect(statusMoves('published').map((m) => m.to)).toEqual(['archived']);
    expect(statusMoves('archived').map((m) => m.to)).toEqual(['published']);
  });

  it('says why publishing would be refused: no active variant, or a digital product with nothing to grant', () => {
    expect(publishBlocker(product())).toBeNull();
    expect(publishBlocker(product({ variants: [variant({ active: false })] }))).toMatch(/active variant/);
    expect(publishBlocker(product({ variants: [] }))).toMatch(/active variant/);
    expect(publishBlocker(product({ kind: 'digital' }))).toMatch(/grant/);
    expect(publishBlocker(product({ kind: 'digital', grants: [{ type: 'ls', id: 'ls_1' }] }))).toBeNull();
  });
});

describe('lists typed one a line', () => {
  it('reads image URLs and grants, and names an id that is neither a stream nor an asset', () => {
    expect(imagesOf('https://a.test/1.jpg\n\n  https://a.test/2.jpg ')).toEqual(['https://a.test/1.jpg', 'https://a.test/2.jpg']);
    expect(grantsOf('ls_abc\nast_def\n')).toEqual([
      { type: 'ls', id: 'ls_abc' },
      { type: 'ast', id: 'ast_def' },
    ]);
    expect(grantsOf('')).toEqual([]);
    expect(grantsOf('ls_abc\nprd_x')).toEqual({ invalid: "'prd_x' is neither a live stream (ls_…) nor an asset (ast_…)." });
  });
});

describe('the products list', () => {
  it('shows the price range and the units left of active variants; unlimited when any is', () => {
    const p = product({
      variants: [variant({ price: 150_000, available: 17 }), variant({ id: 'var_2', price: 200_000, available: 3 }), variant({ id: 'var_3', price: 1, active: false, available: null })],
    });
    expect(priceRange(p, formatMoney)).toBe(`${formatMoney(150_000, 'KES')} – ${formatMoney(200_000, 'KES')}`);
    expect(unitsLeft(p)).toBe(20);
    expect(priceRange(product(), formatMoney)).toBe(formatMoney(150_000, 'KES'));
    expect(priceRange(product({ variants: [] }), formatMoney)).toBe('—');
    expect(unitsLeft(product({ variants: [variant({ available: null, stock: null })] }))).toBeNull();
  });
});

describe('commerce settings', () => {
  it('become the API body with the fee in minor units and empty instructions as null', () => {
    expect(settingsPatch({ hold: '30', fee: '300', pickup: true, instructions: ' Gate B ' }, 'KES')).toEqual({
      hold_minutes: 30,
      shipping_fee: 30_000,
      pickup_enabled: true,
      pickup_instructions: 'Gate B',
    });
    expect(settingsPatch({ hold: '15', fee: '', pickup: false, instructions: '' }, 'KES')).toMatchObject({ shipping_fee: 0, pickup_instructions: null });
  });

  it('refuses hold minutes outside 5 to 1440 and a fee it cannot read', () => {
    for (const hold of ['4', '1441', '10.5', '']) expect(settingsPatch({ hold, fee: '0', pickup: false, instructions: '' }, 'KES')).toHaveProperty('invalid');
    expect(settingsPatch({ hold: '15', fee: 'free', pickup: false, instructions: '' }, 'KES')).toHaveProperty('invalid');
  });
});
