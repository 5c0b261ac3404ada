import { describe, expect, it } from 'vitest';
import { commissionRule, reportRange, ruleText } from './commission';

const f = (m: number, c: string) => `${c} ${(m / 100).toFixed(2)}`;

describe('a commission rule', () => {
  it('sends a percent in basis points and an amount in minor units, with a cap', () => {
    expect(commissionRule({ type: 'percent', value: '12.5', cap: '' }, 'KES')).toEqual({ type: 'percent', basis_points: 1250, max_per_order: null });
    expect(commissionRule({ type: 'fixed', value: '100', cap: '1,000' }, 'KES')).toEqual({ type: 'fixed', amount: 10_000, max_per_order: 100_000 });
  });

  it('refuses what the API would', () => {
    expect(commissionRule({ type: 'percent', value: '0', cap: '' }, 'KES')).toMatchObject({ invalid: expect.stringContaining('percent') });
    expect(commissionRule({ type: 'percent', value: '101', cap: '' }, 'KES')).toMatchObject({ invalid: expect.any(String) });
    expect(commissionRule({ type: 'fixed', value: 'ten', cap: '' }, 'KES')).toMatchObject({ invalid: expect.stringContaining('per ticket') });
    expect(commissionRule({ type: 'fixed', value: '10', cap: 'x' }, 'KES')).toMatchObject({ invalid: expect.stringContaining('most per order') });
  });

  it('reads a rule back', () => {
    expect(ruleText({ type: 'percent', basis_points: 1000, amount: null, max_per_order: null }, 'KES', f)).toBe('10% of net');
    expect(ruleText({ type: 'fixed', basis_points: null, amount: 5_000, max_per_order: 20_000 }, 'KES', f)).toBe('KES 50.00 each, at most KES 200.00 an order');
  });

  it('turns report dates into whole UTC days', () => {
    expect(reportRange('2026-12-01', '2026-12-03')).toEqual({ from: '2026-12-01T00:00:00Z', to: '2026-12-03T23:59:59Z' });
    expect(reportRange(undefined, 'soon')).toEqual({});
  });
});
