import type { ProviderHttpOptions } from '../provider-http';

export interface PaystackSettings {
  /** `paymentProviderBaseUrl('paystack', …)`: https://api.paystack.co unless pointed elsewhere. */
  baseUrl: string;
  /** `sk_test_…` or `sk_live_…`. */
  secretKey: string;
  http?: Partial<ProviderHttpOptions>;
}

/** Paystack's channels that the payments product offers. */
export type PaystackChannel = 'card' | 'mobile_money' | 'bank' | 'ussd' | 'qr' | 'bank_transfer' | 'eft' | 'apple_pay';

export interface InitializeInput {
  email: string;
  /** In the currency's subunit (kobo, pesewas, cents), as Paystack takes it. */
  amount: number;
  currency: string;
  /** Letters, digits, `-`, `.` and `=` only. */
  reference: string;
  callbackUrl: string;
  channels?: PaystackChannel[];
  metadata?: Record<string, unknown>;
}

export interface InitializedTransaction {
  authorizationUrl: string;
  accessCode: string;
  reference: string;
}

/** Paystack's transaction statuses (`verify`, `charge_authorization`). */
export type PaystackTransactionStatus = 'success' | 'failed' | 'abandoned' | 'ongoing' | 'pending' | 'processing' | 'queued' | 'reversed';

/** A transaction as `verify` and `charge_authorization` answer it, in the fields the service reads. */
export interface PaystackTransaction {
  id: number;
  status: PaystackTransactionStatus;
  reference: string;
  amount: number;
  currency: string;
  gatewayResponse: string | null;
  paidAt: string | null;
  channel: string | null;
  /** A card that can be charged again (`reusable`), for automatic renewal. */
  authorization: { authorizationCode: string; reusable: boolean; last4: string | null; channel: string | null } | null;
  customerEmail: string | null;
}

export interface ChargeAuthorizationInput {
  email: string;
  amount: number;
  currency: string;
  authorizationCode: string;
  reference: string;
  metadata?: Record<string, unknown>;
}

export interface RefundInput {
  /** The transaction's reference or id. */
  transaction: string;
  /** Subunits; unset: the whole transaction. */
  amount?: number;
  currency?: string;
  merchantNote?: string;
}

/** Paystack's refund statuses. */
export type PaystackRefundStatus = 'pending' | 'processing' | 'processed' | 'failed' | 'needs-attention' | 'reversed';

export interface PaystackRefund {
  id: number;
  status: PaystackRefundStatus;
  amount: number;
  currency: string;
  /** The refunded transaction's reference, when the answer carries it. */
  transactionReference: string | null;
}
