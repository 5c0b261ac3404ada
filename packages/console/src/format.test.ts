import { describe, expect, it } from 'vitest';
import { amountText, formatMajor, formatMoney, parseMoney } from './format';

/** Intl separates the code with a no-break space. */
const plain = (s: string) => s.replace(/\s/g, ' ');

describe('money in the console', () => {
  it('shows minor units in the currency\'s major unit', () => {
    expect(plain(formatMoney(150_000, 'KES'))).toBe('KES 1,500.00');
    expect(plain(formatMoney(1_500, 'UGX'))).toBe('UGX 1,500');
    expect(plain(formatMajor(1500, 'KES'))).toBe('KES 1,500.00');
  });

  it('reads what a person types into minor units, and refuses what is not an amount', () => {
    expect(parseMoney('1500', 'KES')).toBe(150_000);
    expect(parseMoney('1,500.5', 'KES')).toBe(150_050);
    expect(parseMoney('0', 'KES')).toBe(0);
    expect(parseMoney('1500', 'UGX')).toBe(1_500);
    expect(parseMoney('1500.5', 'UGX')).toBeNull();
    expect(parseMoney('-3', 'KES')).toBeNull();
    expect(parseMoney('abc', 'KES')).toBeNull();
    expect(parseMoney('1.234', 'KES')).toBeNull();
  });

  it('starts an amount field with the amount in major units, which it reads back the same', () => {
    expect(amountText(150_050, 'KES')).toBe('1500.50');
    expect(amountText(1_500, 'UGX')).toBe('1500');
    expect(parseMoney(amountText(150_050, 'KES'), 'KES')).toBe(150_050);
  });
});
