import { describe, expect, it } from 'vitest';
import { DARAJA_SANDBOX_URL, PAYSTACK_URL, STRIPE_URL } from '../../src/boot/payments-config';
import { DarajaTokenCache } from '../../src/modules/payments/providers/mpesa/daraja-auth';
import { DarajaClient } from '../../src/modules/payments/providers/mpesa/daraja-client';
import { PaystackClient } from '../../src/modules/payments/providers/paystack/paystack-client';
import { PaymentProviderError } from '../../src/modules/payments/providers/provider-errors';
import { StripeClient } from '../../src/modules/payments/providers/stripe/stripe-client';

/**
 * The clients against the providers' real sandboxes, opt-in, each suite on its own variables (test keys only;
 * nothing here moves money):
 *   M-Pesa:   SVC_MPESA_SANDBOX_CONSUMER_KEY, SVC_MPESA_SANDBOX_CONSUMER_SECRET, SVC_MPESA_SANDBOX_PASSKEY, and
 *             optionally SVC_MPESA_SANDBOX_SHORTCODE (default 174379), SVC_MPESA_SANDBOX_PHONE (default
 *             254708374149, Daraja's test number) and SVC_MPESA_SANDBOX_CALLBACK_URL (an https address of yours)
 *   Paystack: SVC_PAYSTACK_TEST_SECRET_KEY (sk_test_…)
 *   Stripe:   SVC_STRIPE_TEST_SECRET_KEY (sk_test_…)
 */
const env = process.env;
const suites = {
  mpesa: ['SVC_MPESA_SANDBOX_CONSUMER_KEY', 'SVC_MPESA_SANDBOX_CONSUMER_SECRET', 'SVC_MPESA_SANDBOX_PASSKEY'],
  paystack: ['SVC_PAYSTACK_TEST_SECRET_KEY'],
  stripe: ['SVC_STRIPE_TEST_SECRET_KEY'],
};
const missing = (names: string[]) => names.filter((n) => !env[n]);
for (const [name, vars] of Object.entries(suites)) {
  if (missing(vars).length > 0) it.skip(`real ${name} sandbox suite skipped: set ${missing(vars).join(', ')} to run it`, () => {});
}

const refusal = async (p: Promise<unknown>) => {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(PaymentProviderError);
  return err as PaymentProviderError;
};

describe.runIf(missing(suites.mpesa).length === 0)('M-Pesa on the Daraja sandbox', () => {
  const client = (consumerSecret = env.SVC_MPESA_SANDBOX_CONSUMER_SECRET!) =>
    new DarajaClient({
      baseUrl: DARAJA_SANDBOX_URL,
      consumerKey: env.SVC_MPESA_SANDBOX_CONSUMER_KEY!,
      consumerSecret,
      shortcode: env.SVC_MPESA_SANDBOX_SHORTCODE ?? '174379',
      shortcodeType: 'paybill',
      passkey: env.SVC_MPESA_SANDBOX_PASSKEY!,
      tokens: new DarajaTokenCache(),
    });

  it('gets a token, and refuses a wrong secret as credentials_refused', async () => {
    expect(await client().accessToken()).toMatch(/\S{10,}/);
    expect((await refusal(client('not-the-secret').accessToken())).kind).toBe('credentials_refused');
  });

  it('takes an STK push, and its query answers pending or a final result', async () => {
    const c = client();
    const accepted = await c.stkPush({
      phone: env.SVC_MPESA_SANDBOX_PHONE ?? '254708374149',
      amountKes: 1,
      accountReference: 'SVCTEST',
      description: 'Svc check',
      callbackUrl: env.SVC_MPESA_SANDBOX_CALLBACK_URL ?? 'https://example.com/mpesa/callback',
    });
    expect(accepted.checkoutRequestId).toMatch(/^ws_CO_/);
    const result = await c.stkQuery(accepted.checkoutRequestId);
    expect(['pending', 'final']).toContain(result.state);
  });
});

describe.runIf(missing(suites.paystack).length === 0)('Paystack with a test key', () => {
  const client = (secretKey = env.SVC_PAYSTACK_TEST_SECRET_KEY!) => new PaystackClient({ baseUrl: PAYSTACK_URL, secretKey });

  it('reads the balance, and refuses a wrong key as credentials_refused', async () => {
    expect(Array.isArray((await client().checkCredentials()).balances)).toBe(true);
    expect((await refusal(client('sk_test_0000000000000000000000000000000000000000').checkCredentials())).kind).toBe('credentials_refused');
  });

  it('initializes a transaction on the hosted page, which verifies as not paid', async () => {
    const reference = `svc-check-${Date.now()}`;
    const t = await client().initializeTransaction({ email: 'svc-check@example.com', amount: 10000, currency: 'NGN', reference, callbackUrl: 'https://example.com/return' });
    expect(t.authorizationUrl).toMatch(/^https:\/\/checkout\.paystack\.com\//);
    expect((await client().verifyTransaction(reference)).status).not.toBe('success');
  });
});

describe.runIf(missing(suites.stripe).length === 0)('Stripe with a test key', () => {
  const client = (secretKey = env.SVC_STRIPE_TEST_SECRET_KEY!) => new StripeClient({ baseUrl: STRIPE_URL, secretKey });

  it('reads the account, and refuses a wrong key as credentials_refused', async () => {
    expect((await client().retrieveAccount()).id).toMatch(/^acct_/);
    expect((await refusal(client('sk_test_000000000000000000000000').retrieveAccount())).kind).toBe('credentials_refused');
  });

  it('creates, retrieves and expires a Checkout Session', async () => {
    const s = await client().createCheckoutSession({
      clientReferenceId: `pay_check${Date.now()}`,
      amount: 150000,
      currency: 'KES',
      description: 'Svc check',
      successUrl: 'https://example.com/return',
      cancelUrl: 'https://example.com/return',
      expiresAt: new Date(),
      idempotencyKey: `svc-check-${Date.now()}`,
    });
    expect(s.url).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    expect((await client().retrieveCheckoutSession(s.id)).status).toBe('open');
    expect((await client().expireCheckoutSession(s.id)).status).toBe('expired');
  });
});
