import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * Where the payment providers' APIs are, from the environment: never from a tenant. Unset, live mode uses
 * the production hosts and test mode the sandboxes (Paystack and Stripe serve both modes from one host and
 * tell them apart by the key). Tests and proxies point them elsewhere.
 */
export const PAYMENTS_CONFIG = {
  /** Safaricom Daraja; unset: https://api.safaricom.co.ke (live) or https://sandbox.safaricom.co.ke (test). */
  MPESA_API_URL: z.url().optional(),
  /** Paystack; unset: https://api.paystack.co. */
  PAYSTACK_API_URL: z.url().optional(),
  /** Stripe (host, port and protocol of the SDK); unset: https://api.stripe.com. */
  STRIPE_API_URL: z.url().optional(),
  /**
   * Safaricom's public certificate, which seals an initiator password into Daraja's `SecurityCredential`
   * (reversals, B2C, Transaction Status): a PEM, or the path of a PEM file, from the Daraja portal. The
   * production and sandbox certificates differ. Unset: M-Pesa refunds and payouts cannot be sent.
   */
  MPESA_SECURITY_CERTIFICATE: z.string().min(1).optional(),
  MPESA_SANDBOX_SECURITY_CERTIFICATE: z.string().min(1).optional(),
  /**
   * Safaricom's callback addresses, comma-separated. Daraja signs nothing, so an M-Pesa callback from another
   * address is logged (its per-operation token still decides); unset: no check.
   */
  SVC_MPESA_CALLBACK_IPS: z
    .string()
    .optional()
    .transform((v) => (v ?? '').split(',').map((ip) => ip.trim()).filter(Boolean)),
  /**
   * `refuse`: an M-Pesa callback from outside `SVC_MPESA_CALLBACK_IPS` is refused (`401`, nothing recorded)
   * instead of only logged. Behind a proxy, `TRUST_PROXY` must name it, or every caller is the proxy.
   */
  SVC_MPESA_CALLBACK_IPS_MODE: z.enum(['log', 'refuse']).default('log'),
};

export const DARAJA_PRODUCTION_URL = 'https://api.safaricom.co.ke';
export const DARAJA_SANDBOX_URL = 'https://sandbox.safaricom.co.ke';
export const PAYSTACK_URL = 'https://api.paystack.co';
export const STRIPE_URL = 'https://api.stripe.com';

type PaymentsSettings = Partial<{ [K in keyof typeof PAYMENTS_CONFIG]: z.output<(typeof PAYMENTS_CONFIG)[K]> }>;

const isPem = (v: string) => v.trimStart().startsWith('-----BEGIN ');

/** A certificate variable must be a PEM or name a readable file, so that a bad one stops the start, not a refund. */
export function checkPaymentsConfig(c: PaymentsSettings, ctx: z.RefinementCtx): void {
  for (const key of ['MPESA_SECURITY_CERTIFICATE', 'MPESA_SANDBOX_SECURITY_CERTIFICATE'] as const) {
    const v = c[key];
    if (v !== undefined && !isPem(v) && !existsSync(v)) {
      ctx.addIssue({ code: 'custom', path: [key], message: `${key} must be a PEM certificate or the path of one` });
    }
  }
}

/** The base address of a provider's API for one mode. */
export function paymentProviderBaseUrl(type: 'mpesa' | 'paystack' | 'stripe', livemode: boolean, c: PaymentsSettings): string {
  if (type === 'mpesa') return c.MPESA_API_URL ?? (livemode ? DARAJA_PRODUCTION_URL : DARAJA_SANDBOX_URL);
  if (type === 'paystack') return c.PAYSTACK_API_URL ?? PAYSTACK_URL;
  return c.STRIPE_API_URL ?? STRIPE_URL;
}

/** Safaricom's certificate for one mode, as PEM text, or `null` when it is not configured. */
export function mpesaSecurityCertificate(livemode: boolean, c: PaymentsSettings): string | null {
  const v = livemode ? c.MPESA_SECURITY_CERTIFICATE : c.MPESA_SANDBOX_SECURITY_CERTIFICATE;
  if (v === undefined) return null;
  return isPem(v) ? v : readFileSync(v, 'utf8');
}
