import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/boot/config';
import { mpesaSecurityCertificate, paymentProviderBaseUrl } from '../../src/boot/payments-config';
import { DarajaFake } from '../kit/fakes/daraja-fake';
import { PaystackFake } from '../kit/fakes/paystack-fake';

describe('payments configuration', () => {
  it('defaults to the production hosts in live mode and the sandboxes in test mode; the variables override', () => {
    const none = loadConfig({});
    expect([paymentProviderBaseUrl('mpesa', true, none), paymentProviderBaseUrl('mpesa', false, none)]).toEqual(['https://api.safaricom.co.ke', 'https://sandbox.safaricom.co.ke']);
    expect([paymentProviderBaseUrl('paystack', false, none), paymentProviderBaseUrl('stripe', true, none)]).toEqual(['https://api.paystack.co', 'https://api.stripe.com']);
    const set = loadConfig({ MPESA_API_URL: 'http://127.0.0.1:9001', PAYSTACK_API_URL: 'http://127.0.0.1:9002', STRIPE_API_URL: 'http://127.0.0.1:9003' });
    expect(['mpesa', 'paystack', 'stripe'].map((t) => paymentProviderBaseUrl(t as 'mpesa', true, set))).toEqual(['http://127.0.0.1:9001', 'http://127.0.0.1:9002', 'http://127.0.0.1:9003']);
  });

  it('stops the start on a bad address or a certificate that is neither a PEM nor a file', () => {
    expect(() => loadConfig({ STRIPE_API_URL: 'not a url' })).toThrow(/STRIPE_API_URL/);
    expect(() => loadConfig({ MPESA_SECURITY_CERTIFICATE: '/nowhere/cert.cer' })).toThrow(/MPESA_SECURITY_CERTIFICATE must be a PEM certificate or the path of one/);
    const pem = '-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----\n';
    const c = loadConfig({ MPESA_SANDBOX_SECURITY_CERTIFICATE: pem });
    expect([mpesaSecurityCertificate(false, c), mpesaSecurityCertificate(true, c)]).toEqual([pem, null]);
  });
});

describe('the fakes’ control routes', () => {
  const daraja = new DarajaFake();
  const paystack = new PaystackFake();
  beforeAll(async () => {
    await Promise.all([daraja.start(), paystack.start()]);
  });
  afterAll(async () => {
    await Promise.all([daraja.stop(), paystack.stop()]);
  });
  const control = (url: string, name: string, body: unknown = {}) => fetch(`${url}/__control/${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('fail a credential check, hold callbacks and inject a fault, for a server in another process', async () => {
    expect((await control(daraja.url, 'refuse-credentials', { on: true })).status).toBe(200);
    expect(daraja.refuseCredentials).toBe(true);
    await control(daraja.url, 'hold', { on: true });
    expect(daraja.holdCallbacks).toBe(true);
    await control(paystack.url, 'fault', { path: '/balance', status: 503 });
    expect((await fetch(`${paystack.url}/balance`)).status).toBe(503);
    expect((await fetch(`${paystack.url}/balance`)).status).toBe(401);
    await control(paystack.url, 'webhook-url', { url: 'http://127.0.0.1:9/hooks' });
    expect(paystack.webhookUrl).toBe('http://127.0.0.1:9/hooks');
    expect((await control(daraja.url, 'no-such-control')).status).toBe(404);
  });
});
