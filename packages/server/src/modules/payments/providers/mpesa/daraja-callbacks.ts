import { z } from 'zod';
import { mpesaOutcome, type MpesaOutcome } from './mpesa-results';

const Item = z.object({ Name: z.string(), Value: z.union([z.string(), z.number()]).optional() });

const StkCallbackBody = z.object({
  Body: z.object({
    stkCallback: z.object({
      MerchantRequestID: z.string(),
      CheckoutRequestID: z.string().min(1),
      ResultCode: z.union([z.number(), z.string().regex(/^\d+$/)]),
      ResultDesc: z.string().default(''),
      CallbackMetadata: z.object({ Item: z.array(Item) }).optional(),
    }),
  }),
});

/** What an STK callback says, read; only the STK Query result decides a payment. */
export interface StkCallback {
  merchantRequestId: string;
  checkoutRequestId: string;
  resultCode: number;
  resultDesc: string;
  outcome: MpesaOutcome;
  /** On success only: shillings, the receipt, Daraja's `YYYYMMDDHHmmss` (Nairobi) and the payer's number. */
  amountKes: number | null;
  receipt: string | null;
  transactionDate: string | null;
  phone: string | null;
}

/** Reads a callback posted to `CallBackURL`; `null` for a body that is not one. */
export function parseStkCallback(body: unknown): StkCallback | null {
  const parsed = StkCallbackBody.safeParse(body);
  if (!parsed.success) return null;
  const cb = parsed.data.Body.stkCallback;
  const items = new Map((cb.CallbackMetadata?.Item ?? []).map((i) => [i.Name, i.Value]));
  const str = (name: string) => (items.get(name) === undefined ? null : String(items.get(name)));
  const amount = Number(items.get('Amount'));
  return {
    merchantRequestId: cb.MerchantRequestID,
    checkoutRequestId: cb.CheckoutRequestID,
    resultCode: Number(cb.ResultCode),
    resultDesc: cb.ResultDesc,
    outcome: mpesaOutcome(cb.ResultCode),
    amountKes: items.has('Amount') && Number.isFinite(amount) ? amount : null,
    receipt: str('MpesaReceiptNumber'),
    transactionDate: str('TransactionDate'),
    phone: str('PhoneNumber'),
  };
}

const Parameter = z.object({ Key: z.string(), Value: z.union([z.string(), z.number()]).optional() });
const oneOrMany = <T extends z.ZodTypeAny>(t: T) => z.union([t, z.array(t)]).transform((v) => (Array.isArray(v) ? v : [v]));

const ResultBody = z.object({
  Result: z.object({
    ResultType: z.union([z.number(), z.string()]).optional(),
    ResultCode: z.union([z.number(), z.string()]),
    ResultDesc: z.string().default(''),
    OriginatorConversationID: z.string().default(''),
    ConversationID: z.string().default(''),
    TransactionID: z.string().optional(),
    ResultParameters: z.object({ ResultParameter: oneOrMany(Parameter) }).optional(),
    ReferenceData: z.object({ ReferenceItem: oneOrMany(Parameter) }).optional(),
  }),
});

/** The result of a reversal, B2C payment or Transaction Status query, posted to `ResultURL`. */
export interface DarajaResult {
  /** `0` done; anything else failed (`R000002`-style codes come as strings). */
  resultCode: string;
  succeeded: boolean;
  resultDesc: string;
  originatorConversationId: string;
  conversationId: string;
  /** The M-Pesa transaction of the operation itself (the reversal's own receipt). */
  transactionId: string | null;
  /** `ResultParameters` by key (`ReceiptNo`, `Amount`, `TransactionStatus`, `TransCompletedTime`, …). */
  parameters: Record<string, string>;
}

/** Reads a result posted to `ResultURL` (or to `QueueTimeOutURL`); `null` for a body that is not one. */
export function parseDarajaResult(body: unknown): DarajaResult | null {
  const parsed = ResultBody.safeParse(body);
  if (!parsed.success) return null;
  const r = parsed.data.Result;
  const parameters: Record<string, string> = {};
  for (const p of r.ResultParameters?.ResultParameter ?? []) if (p.Value !== undefined) parameters[p.Key] = String(p.Value);
  const resultCode = String(r.ResultCode);
  return {
    resultCode,
    succeeded: resultCode === '0',
    resultDesc: r.ResultDesc,
    originatorConversationId: r.OriginatorConversationID,
    conversationId: r.ConversationID,
    transactionId: r.TransactionID || null,
    parameters,
  };
}

/** What Daraja expects back from a callback or result address, at once. */
export const DARAJA_CALLBACK_ACK = { ResultCode: 0, ResultDesc: 'Accepted' } as const;
