import { describe, expect, it } from 'vitest';
import { useScriptedPage } from './browser';
import { apiError } from './scripted-api';

const s = useScriptedPage();

const order = { id: 'ord_1', object: 'order', code: 'K7M2Q9XA', status: 'pending', amount_due: 300000 };
const ticketId = '0193e5a0-0000-7000-8000-000000000001';

describe('booking in Chromium', () => {
  it('reads the event and the payload with the publishable key, books with a key for the retry, and goes to the checkout', async () => {
    s.api.routes['GET /v1/events/jazz-night'] = { status: 200, body: { data: { object: 'ticketed_event', slug: 'jazz-night' } } };
    s.api.routes['GET /v1/events/jazz-night/book/payload'] = { status: 200, body: { data: { bookable: true, attendee_slots: 2 } } };
    s.api.routes['POST /v1/events/jazz-night/book'] = { status: 201, body: { data: { booking: order, payment: `${s.api.url}/other` } } };
    const answers = await s.page.evaluate(async ({ base, ticketId }) => {
      const w = window as any;
      const svc = new w.sdk.SvcBrowser({ publishableKey: 'pk_test_abc', baseUrl: base });
      const event = await svc.getEvent('jazz-night');
      const payload = await svc.bookingPayload('jazz-night', { ticket_id: ticketId, quantity: 2 });
      const attendees = [{ first_name: 'Wanjiru', last_name: 'K' }, { first_name: 'Otieno', last_name: 'O' }];
      w.result = await svc.book('jazz-night', { ticket_id: ticketId, quantity: 2, buyer_name: 'Wanjiru K', attendees });
      return { event, payload, code: w.result.booking.code };
    }, { base: s.api.url, ticketId });
    expect(answers).toEqual({ event: { object: 'ticketed_event', slug: 'jazz-night' }, payload: { bookable: true, attendee_slots: 2 }, code: 'K7M2Q9XA' });
    const [read, described, booked] = s.api.calls;
    expect(read!.headers['svc-publishable-key']).toBe('pk_test_abc');
    expect(read!.headers.authorization).toBeUndefined();
    expect(described!.query).toBe(`ticket_id=${ticketId}&quantity=2`);
    expect(booked!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(booked!.body).toMatchObject({ ticket_id: ticketId, quantity: 2 });

    await s.page.evaluate(() => {
      const w = window as any;
      return new w.sdk.SvcBrowser({ publishableKey: 'pk_test_abc' }).redirectToCheckout(w.result);
    });
    await s.page.waitForURL(`${s.api.url}/other`);
  });

  it('names the visit\'s traffic source on the event read: utm_source, else the referring site, unless told', async () => {
    s.api.routes['GET /v1/events/jazz-night'] = { status: 200, body: { data: { object: 'ticketed_event', slug: 'jazz-night' } } };
    const readAll = () =>
      s.page.evaluate(async (base) => {
        const svc = new (window as any).sdk.SvcBrowser({ publishableKey: 'pk_test_abc', baseUrl: base });
        await svc.getEvent('jazz-night');
        await svc.getEvent('jazz-night', { source: 'newsletter' });
        await svc.getEvent('jazz-night', { source: null });
      }, s.api.url);
    const sent = () => s.api.calls.splice(0).map((c) => new URLSearchParams(c.query).get('source'));
    const loaded = () => s.page.waitForFunction(() => (window as any).ready === true);

    // Opened directly: no source.
    await readAll();
    expect(sent()).toEqual([null, 'newsletter', null]);
    // From another site: its host alone, not the page it linked from.
    await s.page.goto(`${s.api.url}/`, { referer: 'https://www.instagram.com/p/secret-path?x=1' });
    await loaded();
    await readAll();
    expect(sent()).toEqual(['www.instagram.com', 'newsletter', null]);
    // A campaign link's utm_source wins over the referrer.
    await s.page.goto(`${s.api.url}/?utm_source=Spring%20Mail`, { referer: 'https://www.instagram.com/' });
    await loaded();
    await readAll();
    expect(sent()).toEqual(['Spring Mail', 'newsletter', null]);
  });

  it('stays on the page when nothing is due, and surfaces sold out as a typed error', async () => {
    s.api.routes['POST /v1/events/free/book'] = { status: 201, body: { data: { booking: { ...order, status: 'paid' }, payment: [] } } };
    s.api.routes['POST /v1/events/full/book'] = apiError(409, 'sold_out');
    const outcome = await s.page.evaluate(async ({ base, ticketId }) => {
      const w = window as any;
      const svc = new w.sdk.SvcBrowser({ publishableKey: 'pk_test_abc', baseUrl: base });
      const body = { ticket_id: ticketId, quantity: 1, buyer_name: 'A', attendees: [{ first_name: 'A', last_name: 'B' }] };
      const redirected = svc.redirectToCheckout(await svc.book('free', body));
      const refused = await svc.book('full', body).catch((e: any) => ({ name: e.name, status: e.status, code: e.code }));
      return { redirected, refused, href: location.href };
    }, { base: s.api.url, ticketId });
    expect(outcome).toEqual({ redirected: false, refused: { name: 'SvcBrowserError', status: 409, code: 'sold_out' }, href: `${s.api.url}/` });
  });

  it('lists the signed-in person\'s tickets with their access token, and refuses when signed out', async () => {
    s.api.routes['GET /v1/attendee/tickets'] = { status: 200, body: { data: [{ id: 'tkt_1', object: 'ticket', secret: 's3cr3t' }], meta: {} } };
    const outcome = await s.page.evaluate(async ({ base }) => {
      const w = window as any;
      const svc = new w.sdk.SvcBrowser({ publishableKey: 'pk_test_abc', baseUrl: base });
      const signedOut = await svc.listTickets().catch((e: any) => e.code);
      await svc.auth.setSession({ access_token: 'at_1', refresh_token: 'rt_1', expires_at: Math.floor(Date.now() / 1000) + 3600, token_type: 'bearer', expires_in: 3600, user: {} });
      return { signedOut, tickets: await svc.listTickets() };
    }, { base: s.api.url });
    expect(outcome).toEqual({ signedOut: 'invalid_access_token', tickets: [{ id: 'tkt_1', object: 'ticket', secret: 's3cr3t' }] });
    const call = s.api.calls.find((c) => c.path === '/v1/attendee/tickets')!;
    expect(call.headers.authorization).toBe('Bearer at_1');
    expect(call.headers['svc-publishable-key']).toBeUndefined();
    expect(call.query).toBe('limit=100');
  });
});
