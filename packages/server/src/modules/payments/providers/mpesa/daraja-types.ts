import type { ProviderHttpOptions } from '../provider-http';
import type { DarajaTokenCache } from './daraja-auth';
import type { MpesaOutcome } from './mpesa-results';

/** One M-Pesa configuration as the client needs it; secrets stay in memory for the call. */
export interface DarajaSettings {
  /** Daraja's base address (`paymentProviderBaseUrl('mpesa', livemode, config)`). */
  baseUrl: string;
  consumerKey: string;
  consumerSecret: string;
  /** The paybill or the store number (Lipa na M-Pesa shortcode) whose passkey signs STK requests. */
  shortcode: string;
  shortcodeType: 'paybill' | 'till';
  /** For `till`: the till that receives the money (`PartyB`). */
  tillNumber?: string | null;
  passkey: string;
  /** Reversals, B2C and Transaction Status need the initiator and Safaricom's certificate. */
  initiatorName?: string | null;
  initiatorPassword?: string | null;
  b2cShortcode?: string | null;
  securityCertificate?: string | null;
  http?: Partial<ProviderHttpOptions>;
  /** Default: the process's shared cache. */
  tokens?: DarajaTokenCache;
  /** Default: the clock; tests fix it to check the password's timestamp. */
  now?: () => Date;
}

export interface StkPushInput {
  /** Any local form; it is normalised, and a number that is not Kenyan mobile is refused. */
  phone: string;
  /** Whole shillings (Daraja takes no cents). */
  amountKes: number;
  /** Up to 12 characters: the order code. */
  accountReference: string;
  /** Cut to Daraja's 13 characters. */
  description: string;
  callbackUrl: string;
}

export interface StkPushAccepted {
  merchantRequestId: string;
  checkoutRequestId: string;
  customerMessage: string;
  /** The normalised phone the prompt went to. */
  phone: string;
}

/** STK Query: still with the customer, or final with Daraja's result and its mapped outcome. */
export type StkQueryResult =
  | { state: 'pending'; description: string }
  | { state: 'final'; resultCode: number; resultDesc: string; outcome: MpesaOutcome };

/** Where Daraja posts an asynchronous result (reversal, B2C, Transaction Status) and its queue timeout. */
export interface ResultAddresses {
  resultUrl: string;
  timeoutUrl: string;
  remarks: string;
  occasion?: string;
}

export interface ReversalInput extends ResultAddresses {
  /** The `MpesaReceiptNumber` of the payment. */
  receipt: string;
  amountKes: number;
}

export interface B2cInput extends ResultAddresses {
  /** Ours, unique per payout; Daraja's v3 API takes it and echoes it in the result. */
  originatorConversationId: string;
  phone: string;
  amountKes: number;
  commandId?: 'BusinessPayment' | 'SalaryPayment' | 'PromotionPayment';
}

/** Transaction Status by receipt, or (for an STK payment whose receipt is unknown) by its conversation id. */
export type TransactionStatusInput = ResultAddresses & ({ transactionId: string } | { originalConversationId: string });

/** Daraja's acknowledgement of an asynchronous request; the result comes to `resultUrl`. */
export interface AsyncAccepted {
  conversationId: string;
  originatorConversationId: string;
  responseDescription: string;
}
