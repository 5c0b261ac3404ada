import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { bookingBody, bookOk, seedEvent, type Tenant } from './booking-fixtures';
import { getOrder, sessionOf } from './payments-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });
let browser: Browser;
let api: Server;
let shop: Server;
let apiUrl: string;
let shopUrl: string;

const listen = (server: Server) =>
  new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));

beforeAll(async () => {
  api = createServer((req, res) => t.app(req, res));
  apiUrl = await listen(api);
  // The tenant's own site, where the checkout sends the buyer back.
  shop = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Thanks</title><h1>Thanks</h1>'));
  shopUrl = await listen(shop);
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
});

afterAll(async () => {
  await browser?.close();
  await new Promise((r) => api?.close(r));
  await new Promise((r) => shop?.close(r));
});

async function booking(tenant: Tenant) {
  const { event, ticketType } = await seedEvent(t, tenant, { capacity: 10, ticketTypes: [{ name: 'Gold', price: 250_000 }] });
  const { booking, payment } = await bookOk(t, tenant, event.id, { ...bookingBody(ticketType.id, 2), redirect_url: `${shopUrl}/done` });
  // The server under test listens on a port of its own; the page and its calls are relative to it.
  return { booking, page: `${apiUrl}/checkout/${sessionOf(payment)}` };
}

describe('the checkout page in Chromium', () => {
  it('shows TEST MODE and the order, pays by card and lands on the redirect with the code and the outcome', async () => {
    const tenant = await t.tenant();
    const { booking: order, page: url } = await booking(tenant);
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // Every answer the page asked for succeeds (a declined payment is a 200 too); the browser's favicon request aside.
    page.on('response', (r) => {
      if (r.status() >= 400 && !r.url().endsWith('/favicon.ico')) errors.push(`${r.status()} ${r.url()}`);
    });
    const response = await page.goto(url);
    expect(response!.headers()['content-security-policy']).toContain("script-src 'self'");
    await expect.poll(() => page.textContent('#test-mode')).toContain('TEST MODE');
    await page.waitForSelector('#checkout:not([hidden])');
    expect(await page.textContent('#event')).toBe('The Show');
    expect(await page.textContent('#ticket')).toBe('2 × Gold');
    expect(await page.textContent('#code')).toBe(order.code);
    expect(await page.textContent('#amount')).toBe('5000.00 KES');

    // A declined card leaves the buyer on the page to try again.
    await page.fill('#card-number', '4000 0000 0000 0002');
    await page.click('#pay-card');
    await expect.poll(() => page.textContent('#message')).toContain('declined');
    expect(page.url()).toBe(url);

    await page.fill('#card-number', '4242 4242 4242 4242');
    await page.click('#pay-card');
    await page.waitForURL(`${shopUrl}/done?**`);
    const landed = new URL(page.url());
    expect(landed.searchParams.get('code')).toBe(order.code);
    expect(landed.searchParams.get('outcome')).toBe('succeeded');
    expect(landed.searchParams.get('payment')).toMatch(/^pay_/);
    expect(errors).toEqual([]);
    expect(await getOrder(t, tenant, order.id)).toMatchObject({ status: 'paid', amount_paid: 500_000 });
    await page.close();
  });

  it('pays by mobile money', async () => {
    const tenant = await t.tenant();
    const { booking: order, page: url } = await booking(tenant);
    const page = await browser.newPage();
    await page.goto(url);
    await page.waitForSelector('#checkout:not([hidden])');
    await page.fill('#phone', '+254711000000');
    await page.click('#pay-mobile-money');
    await page.waitForURL(`${shopUrl}/done?**`);
    expect(new URL(page.url()).searchParams.get('outcome')).toBe('succeeded');
    expect(await getOrder(t, tenant, order.id)).toMatchObject({ status: 'paid' });
    await page.close();
  });

  it('shows a friendly page for an unknown checkout', async () => {
    const page = await browser.newPage();
    const response = await page.goto(`${apiUrl}/checkout/cs_${'x'.repeat(32)}`);
    expect(response!.status()).toBe(404);
    expect(await page.textContent('h1')).toBe('No such checkout');
    // An unknown checkout is of neither mode: no TEST MODE band.
    expect(await page.$('#test-mode')).toBeNull();
    await page.close();
  });
});
