import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations, shoot } from './kit/browser';
import { nav, startConsole, type ConsoleRun } from './kit/console';

/**
 * The Merch screens against the real server: the owner creates a product with its first variant, adds another,
 * edits stock (and sees the API refuse a taken SKU), publishes it, and sets the organization's commerce settings;
 * a viewer sees the same screens without their actions.
 */
let run: ConsoleRun;
let page: Page;
const stamp = Date.now();
const owner = `owner-${stamp}@example.test`;
const viewer = `viewer-${stamp}@example.test`;
const state: { org?: string; product?: string } = {};

const http = () => run.http;
const sk = () => run.sk();
let orders = 0;
/** A storefront's `POST /v1/orders` (publishable key), shipped to a Nairobi address. */
const placeOrder = async (sku: string, quantity: number) => {
  const product = await http().ok('GET', `/v1/commerce/products/${state.product}`, sk());
  const variant = product.variants.find((v: { sku: string }) => v.sku === sku).id;
  return http().ok('POST', '/v1/orders', { ...run.pk(), 'idempotency-key': `order-${stamp}-${orders++}` }, {
    line_items: [{ variant, quantity }],
    buyer: { name: 'Achieng O', email: `fan${orders}@example.test` },
    shipping_address: { name: 'Achieng Otieno', phone: '+254711222333', line1: 'Kenyatta Ave 1', city: 'Nairobi', country: 'KE' },
  });
};
const variantRow = (sku: string) => page.getByRole('row').filter({ has: page.getByText(sku, { exact: true }) });

beforeAll(async () => {
  run = await startConsole('Acme Merch', { [owner]: 'owner', [viewer]: 'viewer' }, { SVC_RATE_LIMIT_PUBLIC: '10000' });
  state.org = (await http().ok('POST', '/v1/organizations', sk(), { name: 'Acme Live', handle: 'acme_live', kind: 'brand' })).id;
  page = await run.newPage();
}, 180_000);

afterAll(async () => {
  await run?.stop();
});

describe('the console: merch', () => {
  it('signs the owner in', async () => {
    await run.signIn(page, owner);
  });

  it('says what to do while there are no products, then creates a physical product with its first variant', async () => {
    await nav(page, 'Products').click();
    await page.getByRole('heading', { name: 'No products yet' }).waitFor();
    await page.getByText(/Create a product with its first variant/).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'New product' }).click();
    const form = page.getByRole('form', { name: 'New product' });
    await form.getByLabel('Product name').fill('Tour T-shirt');
    await form.getByLabel('Description').fill('The 2026 tour shirt.');
    await form.getByLabel('Variant name').fill('Black / L');
    await form.getByLabel('SKU').fill('TEE-BLK-L');
    await form.getByLabel('Price (KES)').fill('1500');
    await form.getByLabel('Stock').fill('20');
    expect(await seriousViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Create product' }).click();
    await page.getByRole('heading', { name: 'Tour T-shirt', level: 1 }).waitFor();
    state.product = new URL(page.url()).pathname.split('/').at(-1);
    expect(state.product).toMatch(/^prd_/);
    await variantRow('TEE-BLK-L').getByRole('cell', { name: 'KES 1,500.00' }).waitFor();

    const created = await http().ok('GET', `/v1/commerce/products/${state.product}`, sk());
    expect(created).toMatchObject({ name: 'Tour T-shirt', kind: 'physical', status: 'draft', organization: state.org, currency: 'KES' });
    expect(created.variants).toMatchObject([{ sku: 'TEE-BLK-L', price: 150_000, stock: 20, reserved: 0, active: true }]);
  });

  it('adds a variant, shows the API refusing a taken SKU, and edits stock and price', async () => {
    const add = page.getByRole('form', { name: 'New variant' });
    await add.getByLabel('Variant name').fill('White / M');
    await add.getByLabel('SKU').fill('TEE-WHT-M');
    await add.getByLabel('Price (KES)').fill('1800');
    await add.getByLabel('Stock').fill('10');
    await add.getByRole('button', { name: 'Add variant' }).click();
    await variantRow('TEE-WHT-M').getByRole('cell', { name: '10' }).first().waitFor();

    // SKUs are unique without case: the API's 409 is shown beside the form, and nothing is added.
    await add.getByLabel('Variant name').fill('Black / L again');
    await add.getByLabel('SKU').fill('tee-blk-l');
    await add.getByLabel('Price (KES)').fill('1500');
    await add.getByRole('button', { name: 'Add variant' }).click();
    await add.getByRole('alert').filter({ hasText: 'sku_taken' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await variantRow('TEE-BLK-L').getByRole('button', { name: 'Edit TEE-BLK-L' }).click();
    const edit = page.getByRole('form', { name: 'Edit variant TEE-BLK-L' });
    await edit.getByLabel('Stock').fill('35');
    await edit.getByLabel('Price (KES)').fill('1650');
    await edit.getByRole('button', { name: 'Save variant' }).press('Enter');
    await edit.waitFor({ state: 'detached' });
    await variantRow('TEE-BLK-L').getByRole('cell', { name: '35' }).first().waitFor();
    await variantRow('TEE-BLK-L').getByRole('cell', { name: 'KES 1,650.00' }).waitFor();

    const product = await http().ok('GET', `/v1/commerce/products/${state.product}`, sk());
    expect(product.variants.map((v: { sku: string; price: number; stock: number }) => [v.sku, v.price, v.stock])).toEqual([
      ['TEE-BLK-L', 165_000, 35],
      ['TEE-WHT-M', 180_000, 10],
    ]);
  });

  it('edits the details and publishes the product, which the public storefront then lists', async () => {
    const details = page.getByRole('form', { name: 'Details' });
    await details.getByLabel('Name').fill('Tour T-shirt 2026');
    await details.getByLabel('Images').fill('https://cdn.example.test/tee-black.jpg');
    await details.getByRole('button', { name: 'Save details' }).click();
    await page.getByRole('heading', { name: 'Tour T-shirt 2026', level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Publish' }).click();
    await page.locator('.page-header .badge', { hasText: 'published' }).waitFor();
    await page.getByRole('button', { name: 'Publish' }).waitFor({ state: 'detached' });
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'desktop-product');

    const pub = await http().ok('GET', `/v1/public/products?organization=${state.org}`, { ...run.pk() });
    expect(pub).toMatchObject([{ id: state.product, name: 'Tour T-shirt 2026', images: ['https://cdn.example.test/tee-black.jpg'], price_from: 165_000 }]);
  });

  it('filters products in the URL, and the back button returns to the previous filter', async () => {
    await http().ok('POST', '/v1/commerce/products', sk(), {
      organization: state.org,
      kind: 'digital',
      name: 'Concert recording',
      variants: [{ name: 'Download', sku: 'REC-2026', price: 50_000 }],
    });
    await page.getByRole('link', { name: 'Products', exact: true }).first().click();
    await page.getByRole('link', { name: 'Concert recording' }).waitFor();
    await page.getByLabel('Status').selectOption('published');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/status=published/);
    await page.getByRole('link', { name: 'Concert recording' }).waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Tour T-shirt 2026' }).waitFor();
    await shoot(page, 'desktop-products');

    await page.getByLabel('Status').selectOption('');
    await page.getByLabel('Kind').selectOption('digital');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/kind=digital/);
    await page.getByRole('link', { name: 'Concert recording' }).waitFor();
    await page.getByRole('link', { name: 'Tour T-shirt 2026' }).waitFor({ state: 'detached' });
    await page.getByLabel('Status').selectOption('archived');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByRole('heading', { name: 'No products match' }).waitFor();
    await page.goBack();
    await page.waitForURL((u) => u.search.includes('kind=digital') && !u.search.includes('status='));
    await page.getByRole('link', { name: 'Concert recording' }).waitFor();

    // A digital product is not offered for publishing until it grants something.
    await page.getByRole('link', { name: 'Concert recording' }).click();
    await page.getByText(/needs something to grant/).waitFor();
    await expect(page.getByRole('button', { name: 'Publish' }).isDisabled()).resolves.toBe(true);
  });

  it("sets the organization's commerce settings", async () => {
    await nav(page, 'Commerce settings').click();
    await page.getByText('Never: these are the defaults').waitFor();
    const form = page.getByRole('form', { name: 'Orders and shipping' });
    await form.getByLabel('Hold minutes').fill('2');
    await form.getByRole('button', { name: 'Save settings' }).click();
    // The browser's own check refuses 2 before anything is sent.
    await expect(form.getByLabel('Hold minutes').evaluate((el) => (el as HTMLInputElement).validity.rangeUnderflow)).resolves.toBe(true);
    await form.getByLabel('Hold minutes').fill('30');
    await form.getByLabel('Shipping fee (KES)').fill('300');
    await form.getByLabel('Buyers may pick up their order').check();
    await form.getByLabel('Pickup instructions').fill('Gate B, from noon');
    await form.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('30 minutes').waitFor();
    await page.getByRole('definition').filter({ hasText: 'Gate B, from noon' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'desktop-commerce-settings');
    const settings = await http().ok('GET', `/v1/organizations/${state.org}/commerce_settings`, sk());
    expect(settings).toMatchObject({ hold_minutes: 30, shipping_fee: 30_000, pickup_enabled: true, pickup_instructions: 'Gate B, from noon' });
  });

  it('refuses a stock below what pending orders hold, and fulfils a paid order: CSV to pack, shipped with tracking, delivered', async () => {
    // A pending order holds 3 units: the stock cannot go below them, and the API's 422 says so beside the form.
    await placeOrder('TEE-WHT-M', 3);
    await page.goto(`${run.server.url}/console/merch/products/${state.product}`);
    await variantRow('TEE-WHT-M').getByRole('cell', { name: '3', exact: true }).waitFor();
    await variantRow('TEE-WHT-M').getByRole('button', { name: 'Edit TEE-WHT-M' }).click();
    const edit = page.getByRole('form', { name: 'Edit variant TEE-WHT-M' });
    await edit.getByLabel('Stock').fill('2');
    await edit.getByRole('button', { name: 'Save variant' }).click();
    await edit.getByRole('alert').filter({ hasText: 'Pending orders hold 3 units' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await edit.getByRole('button', { name: 'Cancel' }).click();

    // A buyer pays for a shirt with the simulator's success card.
    const order = await placeOrder('TEE-BLK-L', 1);
    await http().ok('POST', `/v1/checkout/sessions/${order.checkout_url.slice(order.checkout_url.lastIndexOf('/') + 1)}/pay`, {}, { method: 'card', card_number: '4242424242424242' });

    await nav(page, 'Orders to fulfil').click();
    await page.getByLabel('Fulfilment').selectOption('unfulfilled');
    await page.getByLabel('Order status').selectOption('paid');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/fulfillment_status=unfulfilled/);
    const row = page.getByRole('row').filter({ hasText: order.code });
    await row.getByText('1 × Tour T-shirt 2026', { exact: false }).waitFor();
    expect(await page.getByRole('row').filter({ hasText: 'pending' }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'desktop-product-orders');

    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV to pack' }).click()]);
    expect(csv.suggestedFilename()).toBe('orders-unfulfilled.csv');
    const packing = readFileSync((await csv.path())!, 'utf8');
    expect(packing).toContain(order.code);
    expect(packing).toContain('TEE-BLK-L');

    await row.getByRole('button', { name: `Mark shipped order ${order.code}` }).click();
    const ship = page.getByRole('form', { name: `Mark shipped: order ${order.code}` });
    await ship.getByLabel('Carrier').fill('G4S');
    await ship.getByLabel('Tracking number').fill('G4S-123');
    await ship.getByRole('button', { name: 'Mark shipped' }).click();
    await ship.waitFor({ state: 'detached' });
    await row.waitFor({ state: 'detached' });

    await page.getByLabel('Fulfilment').selectOption('shipped');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/fulfillment_status=shipped/);
    await row.getByText('G4S G4S-123').waitFor();
    await row.getByRole('button', { name: `Mark delivered order ${order.code}` }).click();
    await page.getByRole('form', { name: `Mark delivered: order ${order.code}` }).getByRole('button', { name: 'Mark delivered' }).press('Enter');
    await row.waitFor({ state: 'detached' });
    await page.goBack();
    await page.waitForURL(/fulfillment_status=unfulfilled/);

    const done = await http().ok('GET', `/v1/orders/${order.id}`, sk());
    expect(done).toMatchObject({ status: 'paid', fulfillment_status: 'delivered', fulfillment: { carrier: 'G4S', tracking_number: 'G4S-123' } });
  });

  it('shows a viewer the products without their actions', async () => {
    const p = await run.newPage();
    try {
      await run.signIn(p, viewer);
      await nav(p, 'Products').click();
      await p.getByRole('link', { name: 'Tour T-shirt 2026' }).click();
      await p.getByRole('heading', { name: 'Tour T-shirt 2026', level: 1 }).waitFor();
      await p.getByRole('row').filter({ hasText: 'TEE-WHT-M' }).waitFor();
      for (const name of ['Archive', 'Publish', 'Add variant', 'Save details', 'Edit TEE-BLK-L']) expect(await p.getByRole('button', { name }).count(), name).toBe(0);
      await p.getByRole('link', { name: 'Products', exact: true }).first().click();
      await p.getByRole('link', { name: 'Tour T-shirt 2026' }).waitFor();
      expect(await p.getByRole('button', { name: 'New product' }).count()).toBe(0);
      await nav(p, 'Commerce settings').click();
      await p.getByText('30 minutes').waitFor();
      expect(await p.getByRole('button', { name: 'Save settings' }).count()).toBe(0);
      await nav(p, 'Orders to fulfil').click();
      await p.getByRole('row').filter({ hasText: 'G4S-123' }).waitFor();
      expect(await p.getByRole('button', { name: /^Mark / }).count()).toBe(0);
    } finally {
      await p.context().close();
    }
  });

  it('shows the merch screens at phone width without a CSP violation', async () => {
    await run.phoneScreens(page, [
      ['/console/merch/products', 'phone-products'],
      [`/console/merch/products/${state.product}`, 'phone-product'],
      [`/console/merch/settings?organization=${state.org}`, 'phone-commerce-settings'],
      ['/console/merch/orders?fulfillment_status=delivered', 'phone-product-orders'],
    ]);
  });
});
