import { describe, expect, it } from 'vitest';
import { renderEmail } from '../../src/modules/messaging/channels/email-template';
import { useTestServer } from '../harness';
import { expectStatus } from '../kit/expect';
import { card, paidBooking, pay, pendingBooking } from '../ticketing/payments-fixtures';
import { pk, sk, type Tenant } from './whitelabel-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

const messages = async (tenant: Tenant, query: Record<string, string>) => expectStatus(await t.http().get('/v1/messages').query(query).set(sk(tenant)), 200).data;
const storedBrand = async (id: string) => (await t.ctx.db.selectFrom('messages').select('brand').where('id', '=', id).executeTakeFirstOrThrow()).brand;

describe('messages in the tenant\'s brand', () => {
  it('the sign-in email captured in test mode speaks in the brand, and its email is dressed in it', async () => {
    const tenant = await t.tenant('Acme Events');
    expectStatus(await t.http().patch('/v1/branding').set(sk(tenant)).send({ display_name: 'Acme Tickets', colors: { primary: '#0b5fff' }, support_email: 'help@acme.example', email_sender_name: 'Acme' }), 200);
    const email = `buyer${Date.now()}@example.com`;
    expectStatus(await t.http().post('/auth/v1/magic_link').set(pk(tenant)).send({ email }), 200);
    const [message] = await messages(tenant, { to: email, template: 'magic_link' });
    expect(message.status).toBe('captured');
    expect(message.subject).toBe('Sign in to Acme Tickets');
    expect(message.body).toMatch(/^Sign in to Acme Tickets: http:\/\/127\.0\.0\.1:0\/auth\/v1\/magic_link\/verify\?token=/);
    expect(message.body.endsWith('\n— Acme Tickets')).toBe(true);
    const brand = await storedBrand(message.id);
    expect(brand).toMatchObject({ display_name: 'Acme Tickets', email_sender_name: 'Acme', colors: { primary: '#0b5fff' } });
    const { html, text } = renderEmail({ subject: message.subject, body: message.body, brand: brand as never });
    expect(html).toContain('background:#0b5fff');
    expect(text).toContain('help@acme.example');

    const phone = '+254711' + String(Date.now()).slice(-6);
    expectStatus(await t.http().post('/auth/v1/otp').set(pk(tenant)).send({ phone }), 200);
    const [sms] = await messages(tenant, { to: phone });
    expect(sms.body).toMatch(/^Your Acme Tickets sign-in code is \d{6}\./);
  });

  it('tickets and receipts carry the organization\'s brand, else the tenant\'s; no message names the service', async () => {
    const tenant = await t.tenant('Beta Live');
    const plain = await paidBooking(t, tenant);
    const tenantMessages = await messages(tenant, { related: plain.booking.id });
    expect(tenantMessages.map((m: { template: string }) => m.template).sort()).toEqual(['order_receipt', 'ticket']);
    for (const m of tenantMessages) expect(m.body.endsWith('\n— Beta Live')).toBe(true);
    for (const m of tenantMessages) expect(`${m.subject} ${m.body}`).not.toMatch(/\bSvc\b/);

    const venue = await pendingBooking(t, tenant);
    expectStatus(await t.http().patch(`/v1/organizations/${venue.organization}/branding`).set(sk(tenant)).send({ display_name: 'Venue Brand' }), 200);
    expectStatus(await pay(t, venue.session, card('4242424242424242')), 200);
    const venueMessages = await messages(tenant, { related: venue.booking.id });
    expect(venueMessages).toHaveLength(2);
    for (const m of venueMessages) expect(m.body.endsWith('\n— Venue Brand')).toBe(true);
    expect(await storedBrand(venueMessages[0].id)).toMatchObject({ display_name: 'Venue Brand', organization: venue.organization });
  });
});
