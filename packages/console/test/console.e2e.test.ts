import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from './kit/api';
import { PHONE, seriousViolations, shoot } from './kit/browser';
import { nav as navLink, startConsole, type ConsoleRun } from './kit/console';

/**
 * A new tenant's owner goes from nothing to a published event, a sold ticket, a refund and a door scan in the
 * console, against the real server; the buyer's side (sign-in, booking, the checkout page) is played as a buyer would.
 */
let run: ConsoleRun;
let page: Page;
const owner = `owner-${Date.now()}@example.test`;
const state: { event?: { id: string; slug: string }; ticketType?: string; fan?: string } = {};

const http = () => run.http;
const nav = (name: string) => navLink(page, name);
/** A \`datetime-local\` value `hours` from now, in this machine's time zone (the browser's). */
const localIn = (hours: number) => {
  const d = new Date(Date.now() + hours * 3_600_000);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
const sk = () => run.sk();

/** A buyer signs in on the event's page (test mode captures the code; the tenant's server reads it). */
async function fanToken(): Promise<string> {
  const phone = `+2547${String(Date.now()).slice(-8)}`;
  const pk = run.pk();
  await http().ok('POST', '/auth/v1/otp', pk, { phone });
  const messages = await http().ok('GET', `/v1/messages?to=${encodeURIComponent(phone)}&limit=1`, sk());
  const code = /\b(\d{6})\b/.exec(JSON.stringify(messages[0]))![1];
  return (await http().ok('POST', '/auth/v1/verify', pk, { phone, code })).access_token;
}

async function book(token: string) {
  const booked = await http().ok('POST', `/v1/events/${state.event!.slug}/book`, bearer(token), {
    ticket_id: state.ticketType,
    quantity: 1,
    buyer_name: 'Wanjiru K',
    attendees: [{ first_name: 'Wanjiru', last_name: 'K' }],
  });
  return booked as { booking: { id: string; code: string }; payment: string };
}

beforeAll(async () => {
  run = await startConsole('Acme Live', { [owner]: 'owner' });
  page = await run.newPage();
}, 120_000);

afterAll(async () => {
  await run?.stop();
});

describe('the console', () => {
  it('signs a member in with an emailed code', async () => {
    await page.goto(`${run.server.url}/console/`);
    await page.waitForURL(/\/console\/sign-in/);
    expect(await seriousViolations(page)).toEqual([]);
    await run.signIn(page, owner);
    await expect(page.getByRole('button', { name: 'Test data' }).getAttribute('aria-pressed')).resolves.toBe('true');
    await shoot(page, 'desktop-home');
  });

  it('creates a key and shows its secret once', async () => {
    await nav('API keys').click();
    await page.getByLabel('Name').fill('Ticket site');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = await page.getByTestId('new-secret').textContent();
    expect(secret).toMatch(/^sk_test_/);
    await page.getByRole('cell', { name: 'Ticket site' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'desktop-keys');
    // The new key makes a call that fails: the request log shows it.
    const failed = await http().call('GET', '/v1/keys/key_01jz0000000000000000000000', bearer(secret!));
    expect(failed.status).toBe(404);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await nav('Request log').click();
    await page.getByLabel('Status').selectOption('errors');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/status=errors/);
    await page.getByText(failed.requestId, { exact: true }).waitFor();
    await page.getByText('resource_not_found', { exact: true }).click();
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'desktop-request-log');
    await page.goBack();
    await page.waitForURL((u) => !u.search.includes('status=errors'));
  });

  it('sends a test event to a webhook endpoint, shows the failed attempt, and redelivers it', async () => {
    // The tenant's receiver fails the first delivery and takes the next.
    let received = 0;
    const receiver: Server = createServer((req, res) => {
      req.resume();
      received++;
      res.writeHead(received === 1 ? 500 : 200).end(received === 1 ? 'down' : 'ok');
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      await nav('Webhooks').click();
      await page.getByText('No webhook endpoints').waitFor();
      await page.getByLabel('Endpoint URL').fill(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`);
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await page.getByText(/^whsec_/).waitFor();
      await page.getByRole('button', { name: 'Send test event' }).click();
      const failed = page.getByRole('row').filter({ hasText: '500' });
      await failed.waitFor({ timeout: 20_000 });
      await shoot(page, 'desktop-webhooks-failed');
      await failed.getByRole('button', { name: /Redeliver/ }).click();
      await page.getByText('Redelivery queued.').waitFor();
      await page.getByRole('row').filter({ hasText: '200' }).first().waitFor({ timeout: 20_000 });
      expect(received).toBeGreaterThanOrEqual(2);
      expect(await seriousViolations(page)).toEqual([]);
      await shoot(page, 'desktop-webhooks');
      await nav('Event log').click();
      await page.getByText('platform.webhook_endpoint.tested').first().click();
      await shoot(page, 'desktop-event-log');
    } finally {
      receiver.close();
    }
  });

  it('creates an event and a ticket type, and publishes it', async () => {
    await nav('Events').click();
    await page.getByText('No events here yet').waitFor();
    await page.getByRole('button', { name: 'New event' }).click();
    await page.getByLabel('Organizer name').fill('Acme Live');
    await page.getByLabel('Event name').fill('Opening night');
    await page.getByLabel('Starts').fill(localIn(-1));
    await page.getByLabel('Ends').fill(localIn(3));
    await page.getByRole('button', { name: 'Create event' }).click();
    await page.getByRole('heading', { name: 'Opening night' }).waitFor();
    await page.getByLabel('Ticket type name').fill('Regular');
    await page.getByLabel('Price (KES)').fill('1500');
    await page.getByLabel('Quantity').fill('100');
    await page.getByRole('button', { name: 'Add ticket type' }).click();
    await page.getByRole('cell', { name: 'KES 1,500.00' }).waitFor();
    await page.getByLabel('Coupon code').fill('EARLY');
    await page.getByRole('button', { name: 'Add coupon' }).click();
    await page.getByText('10% off').waitFor();
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('published', { exact: true }).first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'desktop-event');
    const id = page.url().split('/').at(-1)!;
    const event = await http().ok('GET', `/v1/organizer/events/${id}`, sk());
    const types = await http().ok('GET', `/v1/organizer/events/${id}/ticket_types`, sk());
    state.event = { id, slug: event.slug };
    state.ticketType = types[0].id;
  });

  it('shows a ticket booked and paid on the public checkout page, and refunds it', async () => {
    state.fan = await fanToken();
    const { booking, payment } = await book(state.fan);
    const buyer = await run.browser.newContext({ viewport: PHONE });
    const checkout = await buyer.newPage();
    await checkout.goto(payment);
    await checkout.locator('#card-number').fill('4242 4242 4242 4242');
    await checkout.locator('#pay-card').click();
    await checkout.locator('.done').waitFor();
    await shoot(checkout, 'phone-checkout-paid');
    await buyer.close();

    await nav('Payments').click();
    const row = page.getByRole('row').filter({ hasText: booking.code });
    await row.getByText('paid', { exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'desktop-payments');
    page.once('dialog', (d) => void d.accept());
    await row.getByRole('button', { name: /Refund/ }).click();
    await row.getByText('refunded', { exact: true }).waitFor();
    const refunds = await http().ok('GET', `/v1/orders/${booking.id}/refunds`, sk());
    expect(refunds[0]).toMatchObject({ amount: 150000, status: 'succeeded' });
  });

  it('scans a ticket at the door offline, then syncs', async () => {
    const { booking, payment } = await book(state.fan!);
    const session = new URL(payment).pathname.split('/').at(-1);
    await http().ok('POST', `/v1/checkout/sessions/${session}/pay`, {}, { method: 'card', card_number: '4242424242424242' });
    const tickets = await http().ok('GET', '/v1/attendee/tickets', bearer(state.fan!));
    const ticket = tickets.find((t: { order?: string | { id: string }; secret?: string }) => (typeof t.order === 'string' ? t.order : t.order?.id) === booking.id);
    expect(ticket?.secret).toBeTruthy();

    const door = await run.newPage({ viewport: PHONE, storageState: await page.context().storageState() });
    const phone = door.context();
    await door.goto(`${run.server.url}/console/door?event=${state.event!.id}`);
    await door.getByText('Ready to scan').waitFor();
    // The service worker keeps the app's files for the next visit without a network.
    await door.waitForFunction(() => navigator.serviceWorker.ready.then(() => true));
    expect(await seriousViolations(door)).toEqual([]);
    await phone.setOffline(true);
    await door.getByText('Offline: scans are saved on this phone').waitFor();
    await door.getByLabel('Ticket code').fill(ticket.secret);
    await door.getByRole('button', { name: 'Check' }).click();
    await door.getByText('Saved offline').waitFor();
    await door.getByText('1 waiting to sync').waitFor();
    await shoot(door, 'phone-door-offline');
    await phone.setOffline(false);
    await door.getByText('Synced 1 offline scan').waitFor();
    await door.getByText('All accepted.').waitFor();
    await shoot(door, 'phone-door-synced');
    const scans = await http().ok('GET', `/v1/organizer/events/${state.event!.id}/checkins`, sk());
    expect(scans[0]).toMatchObject({ status: 'ok' });
    // Again online: the same ticket is refused, with the reason.
    await door.getByLabel('Ticket code').fill(ticket.secret);
    await door.getByRole('button', { name: 'Check' }).click();
    await door.getByText('Already used: this ticket was scanned in.').waitFor();
    await shoot(door, 'phone-door-refused');
    await phone.close();
  });

  it('loads every screen at phone width without a CSP violation', async () => {
    await run.phoneScreens(page, [
      ['/console/shows/events', 'phone-events'],
      ['/console/shows/analytics', 'phone-analytics'],
      ['/console/money/payments', 'phone-payments'],
      ['/console/developers/requests', 'phone-request-log'],
    ]);
  });
});
