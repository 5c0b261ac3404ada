import { describe, expect, it } from 'vitest';
import { normalizeMpesaPhone } from './mpesa-phone';

describe('normalizeMpesaPhone', () => {
  it.each([
    ['0712345678', '254712345678'],
    ['0112345678', '254112345678'],
    ['+254712345678', '254712345678'],
    ['254712345678', '254712345678'],
    ['+254112345678', '254112345678'],
    ['254112345678', '254112345678'],
    [' 0712 345 678 ', '254712345678'],
    ['+254-711-000-000', '254711000000'],
  ])('takes %j as %s', (input, expected) => {
    expect(normalizeMpesaPhone(input)).toBe(expected);
  });

  it.each([
    '',
    '712345678',
    '071234567',
    '07123456789',
    '0212345678',
    '+254212345678',
    '+255712345678',
    '+1 415 555 0100',
    '2540712345678',
    '+25471234567a',
    '00254712345678',
    '0712345678; DROP',
  ])('refuses %j', (input) => {
    expect(normalizeMpesaPhone(input)).toBeNull();
  });
});
