import { describe, expect, it } from 'vitest';
import type { Payment } from '../api/types';
import { heldForReview, refundableOf, waitingFor } from './review';

const payment = (id: string, over: Partial<Payment> = {}): Payment =>
  ({ id, status: 'succeeded', amount: 1500, amount_refunded: 0, created_at: '2026-12-01T10:00:00.000Z', late: false, failure_code: null, ...over }) as Payment;

describe('heldForReview', () => {
  it('lists late payments and amount mismatches newest first, each once with all its reasons', () => {
    const late = payment('pay_a', { late: true, created_at: '2026-12-01T09:00:00.000Z' });
    const both = payment('pay_b', { late: true, created_at: '2026-12-01T11:00:00.000Z', status: 'failed', failure_code: 'amount_mismatch' });
    const mismatch = payment('pay_c', { status: 'failed', failure_code: 'amount_mismatch', amount_refunded: 1500 });
    const held = heldForReview([late, both], [both, mismatch]);
    expect(held.map((h) => [h.payment.id, h.reasons])).toEqual([
      ['pay_b', ['late', 'amount_mismatch']],
      ['pay_c', ['amount_mismatch']],
      ['pay_a', ['late']],
    ]);
    expect(held.map((h) => h.refundable)).toEqual([0, 0, 1500]);
  });

  it('is empty when nothing is held', () => {
    expect(heldForReview([], [])).toEqual([]);
  });
});

describe('refundableOf', () => {
  it('is what a succeeded payment has left, never below zero, and nothing of a failed one', () => {
    expect(refundableOf({ status: 'succeeded', amount: 1500, amount_refunded: 500 })).toBe(1000);
    expect(refundableOf({ status: 'succeeded', amount: 1500, amount_refunded: 1500 })).toBe(0);
    expect(refundableOf({ status: 'failed', amount: 1500, amount_refunded: 0 })).toBe(0);
    expect(refundableOf({ status: 'pending', amount: 1500, amount_refunded: 0 })).toBe(0);
  });
});

describe('waitingFor', () => {
  const now = new Date('2026-12-01T12:00:00.000Z');
  it('says seconds, minutes, then hours and minutes', () => {
    expect(waitingFor('2026-12-01T11:59:20.000Z', now)).toBe('40 s');
    expect(waitingFor('2026-12-01T11:48:00.000Z', now)).toBe('12 min');
    expect(waitingFor('2026-12-01T08:55:00.000Z', now)).toBe('3 h 5 min');
    expect(waitingFor('2026-12-01T10:00:00.000Z', now)).toBe('2 h');
    expect(waitingFor('2026-12-01T12:00:30.000Z', now)).toBe('0 s');
  });
});
