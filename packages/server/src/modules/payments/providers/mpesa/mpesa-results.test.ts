import { describe, expect, it } from 'vitest';
import { mpesaOutcome } from './mpesa-results';

describe('mpesaOutcome', () => {
  it.each([
    [0, { status: 'succeeded' }],
    ['0', { status: 'succeeded' }],
    [1, { status: 'failed', failureCode: 'insufficient_funds' }],
    [1032, { status: 'failed', failureCode: 'cancelled_by_user' }],
    ['1032', { status: 'failed', failureCode: 'cancelled_by_user' }],
    [1037, { status: 'failed', failureCode: 'timeout' }],
    [1019, { status: 'failed', failureCode: 'timeout' }],
    [2001, { status: 'failed', failureCode: 'invalid_pin' }],
    [1001, { status: 'failed', failureCode: 'subscriber_busy' }],
    [17, { status: 'failed', failureCode: 'provider_error' }],
    [26, { status: 'failed', failureCode: 'provider_error' }],
    [1025, { status: 'failed', failureCode: 'provider_error' }],
    [9999, { status: 'failed', failureCode: 'provider_error' }],
    ['R000002', { status: 'failed', failureCode: 'provider_error' }],
    ['', { status: 'failed', failureCode: 'provider_error' }],
  ])('maps %j', (code, outcome) => {
    expect(mpesaOutcome(code)).toEqual(outcome);
  });
});
