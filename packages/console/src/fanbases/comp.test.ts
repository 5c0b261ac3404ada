import { describe, expect, it } from 'vitest';
import { compBody, customerLookup } from './comp';

describe('adding a comp member', () => {
  it('reads the lookup as an id, an email or a phone with its country code', () => {
    expect(customerLookup(' cus_abc123 ')).toEqual({ customer: 'cus_abc123' });
    expect(customerLookup('Achieng@Example.test')).toEqual({ email: 'achieng@example.test' });
    expect(customerLookup('+254 712-345 678')).toEqual({ phone: '+254712345678' });
    expect(customerLookup('0712345678')).toHaveProperty('invalid');
    expect(customerLookup('achieng@')).toHaveProperty('invalid');
    expect(customerLookup('  ')).toHaveProperty('invalid');
  });

  it('needs a customer, leaves the tier and end out when empty, and refuses an end in the past', () => {
    const now = new Date('2026-12-01T10:00:00Z');
    expect(compBody(null, '', '', now)).toHaveProperty('invalid');
    expect(compBody('cus_1', '', '', now)).toEqual({ customer: 'cus_1', tier: null, ends_at: null });
    expect(compBody('cus_1', 'mtr_1', '2027-01-01T00:00:00Z', now)).toEqual({ customer: 'cus_1', tier: 'mtr_1', ends_at: '2027-01-01T00:00:00.000Z' });
    expect(compBody('cus_1', 'mtr_1', '2026-11-30T00:00:00Z', now)).toEqual({ invalid: 'The end must be in the future.' });
  });
});
