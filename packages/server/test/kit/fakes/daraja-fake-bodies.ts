import { constants, privateDecrypt, type KeyObject } from 'node:crypto';

/** The fake's sandbox app and shortcodes (the values are the fake's own, not Safaricom's). */
export const DARAJA_CONSUMER_KEY = 'fakeConsumerKey0123456789abcdefABCDEF';
export const DARAJA_CONSUMER_SECRET = 'fakeConsumerSecret0123';
export const DARAJA_SHORTCODE = '174379';
export const DARAJA_PASSKEY = 'fake0passkey0for0tests0bfb279f9aa9bdbcf158e97dd71a467cd2e0c8930';
export const DARAJA_TILL = '5012345';
export const DARAJA_B2C_SHORTCODE = '600996';
export const DARAJA_INITIATOR = 'testapi';
export const DARAJA_INITIATOR_PASSWORD = 'Safaricom999!*!';

/**
 * The simulator's magic phones (docs/ticketing.md and the design's 1.9) as Daraja results. `+254711000002`
 * (the simulator's "declined") is a wrong PIN here: M-Pesa has no "declined".
 */
export const DARAJA_MAGIC: Record<string, { resultCode: number; resultDesc: string } | 'never'> = {
  '254711000000': { resultCode: 0, resultDesc: 'The service request is processed successfully.' },
  '254711000001': { resultCode: 1, resultDesc: 'The balance is insufficient for the transaction.' },
  '254711000002': { resultCode: 2001, resultDesc: 'The initiator information is invalid.' },
  '254711000003': 'never',
  '254711000004': { resultCode: 1032, resultDesc: 'Request cancelled by user' },
  '254711000006': { resultCode: 1037, resultDesc: 'DS timeout user cannot be reached' },
};
export const SUCCESS = { resultCode: 0, resultDesc: 'The service request is processed successfully.' };
/** Reversals of payments from this phone fail (insufficient balance on the shortcode). */
export const REVERSAL_FAILS_PHONE = '254711000005';
/** Reversals of payments from this phone wait until `release()`. */
export const REVERSAL_HELD_PHONE = '254711000008';

/** Daraja's error body. */
export const darajaError = (status: number, errorCode: string, errorMessage: string) => ({
  status,
  body: { requestId: `${Math.floor(Math.random() * 99999)}-${Date.now() % 1e8}-1`, errorCode, errorMessage },
});

/** The body Daraja posts to `CallBackURL`; exported so that tests can forge or vary one. */
export function stkCallbackBody(p: { merchantRequestId: string; checkoutRequestId: string; resultCode: number; resultDesc: string; amountKes?: number; receipt?: string; phone?: string }) {
  const ok = p.resultCode === 0;
  const when = nairobiNow();
  return {
    Body: {
      stkCallback: {
        MerchantRequestID: p.merchantRequestId,
        CheckoutRequestID: p.checkoutRequestId,
        ResultCode: p.resultCode,
        ResultDesc: p.resultDesc,
        ...(ok && {
          CallbackMetadata: {
            Item: [
              { Name: 'Amount', Value: p.amountKes ?? 1 },
              { Name: 'MpesaReceiptNumber', Value: p.receipt ?? 'NLJ7RT61SV' },
              { Name: 'Balance' },
              { Name: 'TransactionDate', Value: Number(when) },
              { Name: 'PhoneNumber', Value: Number(p.phone ?? '254711000000') },
            ],
          },
        }),
      },
    },
  };
}

/** The body Daraja posts to `ResultURL` for a reversal, B2C payment or Transaction Status query. */
export function resultBody(p: {
  resultCode: number | string;
  resultDesc: string;
  originatorConversationId: string;
  conversationId: string;
  transactionId: string;
  parameters?: Record<string, string | number>;
  timeoutUrl: string;
}) {
  const params = Object.entries(p.parameters ?? {}).map(([Key, Value]) => ({ Key, Value }));
  return {
    Result: {
      ResultType: 0,
      ResultCode: p.resultCode,
      ResultDesc: p.resultDesc,
      OriginatorConversationID: p.originatorConversationId,
      ConversationID: p.conversationId,
      TransactionID: p.transactionId,
      ...(params.length > 0 && { ResultParameters: { ResultParameter: params } }),
      ReferenceData: { ReferenceItem: { Key: 'QueueTimeoutURL', Value: p.timeoutUrl } },
    },
  };
}

export function nairobiNow(at = Date.now()): string {
  return new Date(at + 3 * 3600_000).toISOString().replace(/\D/g, '').slice(0, 14);
}

/** A Daraja timestamp as an instant (it is Nairobi time, UTC+3). */
export function parseNairobi(ts: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(ts);
  if (!m) return NaN;
  return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) - 3 * 3600_000;
}

/**
 * Opens a `SecurityCredential` as M-Pesa would. Node refuses PKCS#1 v1.5 decryption (a padding oracle), so
 * the fake decrypts raw and removes the padding itself: 0x00 0x02, non-zero filler, 0x00, message.
 */
export function openSecurityCredential(credential: string, key: KeyObject): string | null {
  try {
    const block = privateDecrypt({ key, padding: constants.RSA_NO_PADDING }, Buffer.from(credential, 'base64'));
    if (block[0] !== 0 || block[1] !== 2) return null;
    const end = block.indexOf(0, 2);
    return end < 10 ? null : block.subarray(end + 1).toString('utf8');
  } catch {
    return null;
  }
}

// Random starts, so that two fakes in one process (or two runs against one database) never repeat an id.
let sequence = Math.floor(Math.random() * 1e9);
export const nextId = () => String(++sequence);
/** An M-Pesa receipt: ten capitals and digits. */
export const newReceipt = () => `TK${(++sequence).toString(36).toUpperCase().padStart(8, '0').slice(-8)}`;
