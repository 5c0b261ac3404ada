import { describe, expect, it } from 'vitest';
import { contrastRatio, textOn } from './contrast';

describe('contrast', () => {
  it('is 21 for black on white and 1 for a colour on itself', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#123456', '#123456')).toBe(1);
  });
  it('matches the WCAG figure for a mid grey', () => {
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
  });
  it('puts white on dark colours and near-black on light ones', () => {
    expect(textOn('#1f2937')).toBe('#ffffff');
    expect(textOn('#ffe066')).toBe('#111111');
  });
});
