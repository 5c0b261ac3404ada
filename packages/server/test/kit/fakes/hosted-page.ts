import { MAGIC_PAYERS } from '@svc/contract';
import type { FakeAnswer } from './fake-provider';

/** What the fakes' hosted pages do with a payer: the simulator's magic values and the design's additions (1.9). */
export type PayerOutcome =
  | { status: 'succeeded'; refundFails?: boolean; refundHeld?: boolean }
  | { status: 'failed'; code: 'insufficient_funds' | 'declined' | 'cancelled_by_user' | 'timeout' }
  | { status: 'never' };

const has = (list: readonly string[], payer: string) => list.includes(payer);

export function payerOutcome(input: string): PayerOutcome & { refundFails?: boolean; refundHeld?: boolean } {
  const compact = input.replace(/[\s-]/g, '');
  const phone = /^(?:\+?254|0)(\d{9})$/.exec(compact);
  const payer = phone ? `+254${phone[1]}` : compact;
  if (has(MAGIC_PAYERS.insufficientFunds, payer)) return { status: 'failed', code: 'insufficient_funds' };
  if (has(MAGIC_PAYERS.declined, payer)) return { status: 'failed', code: 'declined' };
  if (has(MAGIC_PAYERS.neverAnswers, payer)) return { status: 'never' };
  if (payer === '+254711000004') return { status: 'failed', code: 'cancelled_by_user' };
  if (payer === '+254711000006') return { status: 'failed', code: 'timeout' };
  if (payer === '+254711000008' || payer === '4000000000007726') return { status: 'succeeded', refundHeld: true };
  return { status: 'succeeded', refundFails: has(MAGIC_PAYERS.refundFails, payer) };
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A provider's hosted payment page, plain HTML that works without script: a card or phone field, Pay and
 * Cancel. It posts to itself; the fake then completes the payment and redirects back.
 */
export function hostedPage(p: { title: string; amount: number; currency: string; card: boolean; mobileMoney: boolean }): FakeAnswer {
  const label = p.card && p.mobileMoney ? 'Card number or phone' : p.card ? 'Card number' : 'Phone';
  const body = `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(p.title)}</title></head><body><main><h1>${esc(p.title)}</h1>
<p id="amount">${esc(p.currency)} ${(p.amount / 100).toFixed(2)}</p>
<form method="post"><label for="payer">${label}</label><input id="payer" name="payer" autocomplete="off" required value="4242424242424242">
<button type="submit" name="action" value="pay" id="pay">Pay</button></form>
<form method="post"><button type="submit" name="action" value="cancel" id="cancel">Cancel</button></form></main></body></html>`;
  return { status: 200, body, type: 'text/html; charset=utf-8' };
}
