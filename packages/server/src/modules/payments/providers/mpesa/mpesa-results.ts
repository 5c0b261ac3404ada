/** The design's failure codes that an M-Pesa result can carry. */
export type MpesaFailureCode = 'insufficient_funds' | 'cancelled_by_user' | 'timeout' | 'invalid_pin' | 'subscriber_busy' | 'provider_error';

export type MpesaOutcome = { status: 'succeeded' } | { status: 'failed'; failureCode: MpesaFailureCode };

/**
 * Daraja's STK result codes, as the design maps them: `0` succeeded; `1` insufficient funds; `1032` cancelled
 * by the user; `1037` (no answer from the phone) and `1019` (the prompt expired) timeout; `2001` wrong PIN;
 * `1001` another prompt holds the subscriber; any other code (`17`, `26`, `1025`, `9999`, …) provider_error.
 */
const FAILURES: Record<number, MpesaFailureCode> = {
  1: 'insufficient_funds',
  1032: 'cancelled_by_user',
  1037: 'timeout',
  1019: 'timeout',
  2001: 'invalid_pin',
  1001: 'subscriber_busy',
};

/** The final outcome of an STK push from its `ResultCode` (Daraja sends it as a number or a numeric string). */
export function mpesaOutcome(resultCode: number | string): MpesaOutcome {
  const code = typeof resultCode === 'number' ? resultCode : /^\d+$/.test(resultCode.trim()) ? Number(resultCode) : NaN;
  if (code === 0) return { status: 'succeeded' };
  return { status: 'failed', failureCode: FAILURES[code] ?? 'provider_error' };
}
