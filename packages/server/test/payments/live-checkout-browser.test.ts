import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcileDuePayments } from '../../src/modules/payments/reconcile/reconcile-payments.job';
import { useTestServer } from '../harness';
import { DarajaFake } from '../kit/fakes/daraja-fake';
import { until } from '../kit/fakes/fake-provider';
import { PaystackFake } from '../kit/fakes/paystack-fake';
import { listenForCallbacks } from './inbound-fixtures';
import { goLive, liveBooking, liveOrder, makeChecksDue, mpesaConfig, paystackConfig } from './live-checkout-fixtures';

const mpesa = new DarajaFake();
const paystack = new PaystackFake();
const env: Record<string, string> = { SVC_RATE_LIMIT_PUBLIC: '100000' };
beforeAll(async () => {
  env.MPESA_API_URL = await mpesa.start();
  env.PAYSTACK_API_URL = await paystack.start();
});
const t = useTestServer(env);
// The page, its calls and the providers' callbacks all go to the app listening on its own port.
listenForCallbacks(t);
let browser: Browser;
let shop: Server;
let shopUrl: string;

beforeAll(async () => {
  // The tenant's own site, where the checkout sends the buyer back.
  shop = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Thanks</title><h1>Thanks</h1>'));
  shopUrl = await new Promise<string>((resolve) => shop.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(shop.address() as AddressInfo).port}`)));
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
});
afterAll(async () => {
  await browser?.close();
  await new Promise((r) => shop?.close(r));
  await Promise.all([mpesa.stop(), paystack.stop()]);
});

/** A phone-sized page that records script errors and failed answers. */
async function phonePage(): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('response', (r) => {
    if (r.status() >= 400 && !r.url().endsWith('/favicon.ico')) errors.push(`${r.status()} ${r.url()}`);
  });
  return { page, errors };
}

/** The payer answers the prompt of this phone (the fake's magic phones decide how), and reconciliation asks Daraja. */
async function payerAnswers(phone: string): Promise<void> {
  await until(() => [...mpesa.stk.values()].some((p) => p.phone === phone && p.result !== null));
  await makeChecksDue(t);
  await reconcileDuePayments(t.ctx);
}

describe('the live checkout page in Chromium', () => {
  it('M-Pesa: enter the phone, "check your phone", a cancelled prompt, try again, paid, and back to the shop', async () => {
    const tenant = await t.tenant();
    await goLive(t, tenant, [mpesaConfig]);
    const b = await liveBooking(t, tenant, { redirect: `${shopUrl}/done` });
    const { page, errors } = await phonePage();
    const url = `${t.ctx.config.baseUrl}/checkout/${b.session}`;
    await page.goto(url);
    await page.waitForSelector('#checkout:not([hidden])');
    expect(await page.$('#test-mode')).toBeNull();
    expect(await page.textContent('#amount')).toBe('1500.00 KES');
    expect(await page.isVisible('#mobile-money')).toBe(true);
    expect(await page.isVisible('#card')).toBe(false);
    expect(await page.textContent('#pay-mobile-money')).toBe('Pay with M-Pesa');
    // The page fits the phone's width: nothing scrolls sideways.
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);

    // The payer dismisses the first prompt.
    await page.fill('#phone', '0711 000 004');
    await page.click('#pay-mobile-money');
    await expect.poll(() => page.textContent('#message'), { timeout: 30_000 }).toContain('Check your phone');
    expect(await page.textContent('#message')).toContain('0004');
    expect(await page.isVisible('#mobile-money')).toBe(false);
    await payerAnswers('254711000004');
    await expect.poll(() => page.textContent('#message'), { timeout: 30_000 }).toContain('cancelled on the phone');
    expect(await page.textContent('#message')).toContain('You can try again');
    expect(await page.isVisible('#mobile-money')).toBe(true);
    expect((await liveOrder(t, tenant, b.booking.id)).status).toBe('pending');

    // Try again, and approve.
    await page.fill('#phone', '0711000000');
    await page.click('#pay-mobile-money');
    await expect.poll(() => page.textContent('#message'), { timeout: 30_000 }).toContain('Check your phone');
    await payerAnswers('254711000000');
    expect((await liveOrder(t, tenant, b.booking.id)).status).toBe('paid');
    // The page finds out by polling the session (every two seconds).
    await page.waitForURL(`${shopUrl}/done?**`, { timeout: 45_000 });
    const landed = new URL(page.url());
    expect(landed.searchParams.get('code')).toBe(b.booking.code);
    expect(landed.searchParams.get('outcome')).toBe('succeeded');
    expect(landed.searchParams.get('payment')).toMatch(/^pay_/);
    expect(errors).toEqual([]);
    expect(await liveOrder(t, tenant, b.booking.id)).toMatchObject({ status: 'paid', amount_paid: 150_000 });
    await page.close();
  });

  it('Paystack: to the hosted page and back; the return page shows the outcome and forwards to the shop', async () => {
    const tenant = await t.tenant();
    await goLive(t, tenant, [paystackConfig]);
    const b = await liveBooking(t, tenant, { redirect: `${shopUrl}/done` });
    const { page, errors } = await phonePage();
    await page.goto(`${t.ctx.config.baseUrl}/checkout/${b.session}`);
    await page.waitForSelector('#checkout:not([hidden])');
    expect(await page.isVisible('#card-number')).toBe(false);
    await page.click('#pay-card');
    await page.waitForURL(`${paystack.url}/checkout/**`);
    await page.fill('#payer', '4242424242424242');
    await page.click('#pay');
    await page.waitForURL(`${shopUrl}/done?**`, { timeout: 45_000 });
    expect(new URL(page.url()).searchParams.get('outcome')).toBe('succeeded');
    expect(errors).toEqual([]);
    expect((await liveOrder(t, tenant, b.booking.id)).status).toBe('paid');
    await page.close();
  });
});
