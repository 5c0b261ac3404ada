import { describe, expect, it } from 'vitest';
import { emptyTierForm, tierBody, tierGrantsOf, tierPrice } from './tiers';

describe('a membership tier form', () => {
  it('makes a free tier without an interval, and a paid one with it', () => {
    expect(tierBody({ ...emptyTierForm(), name: ' Fans ' }, 'KES')).toEqual({
      name: 'Fans',
      description: null,
      price: 0,
      interval: null,
      benefits: [],
      grants: [],
      max_members: null,
      status: 'draft',
    });
    const gold = tierBody({ ...emptyTierForm(), name: 'Gold', price: '500', interval: 'month', benefits: 'Every show\n\n Clips ', grants: 'ls_1\ncnt_2', maxMembers: '100', status: 'published' }, 'KES');
    expect(gold).toMatchObject({ price: 50_000, interval: 'month', benefits: ['Every show', 'Clips'], grants: [{ type: 'ls', id: 'ls_1' }, { type: 'cnt', id: 'cnt_2' }], max_members: 100 });
  });

  it('says what is wrong before anything is sent', () => {
    expect(tierBody({ ...emptyTierForm(), price: '500' }, 'KES')).toMatchObject({ invalid: expect.stringContaining('interval') });
    expect(tierBody({ ...emptyTierForm(), interval: 'month' }, 'KES')).toMatchObject({ invalid: expect.stringContaining('free tier') });
    expect(tierBody({ ...emptyTierForm(), price: 'five' }, 'KES')).toMatchObject({ invalid: expect.stringContaining('price') });
    expect(tierBody({ ...emptyTierForm(), maxMembers: '0' }, 'KES')).toMatchObject({ invalid: expect.stringContaining('most members') });
    expect(tierGrantsOf('prd_1')).toMatchObject({ invalid: expect.stringContaining('prd_1') });
  });

  it('reads a price with its interval', () => {
    const f = (m: number, c: string) => `${c} ${m / 100}`;
    expect(tierPrice({ price: 0, currency: 'KES', interval: null }, f)).toBe('Free');
    expect(tierPrice({ price: 50_000, currency: 'KES', interval: 'month' }, f)).toBe('KES 500 a month');
    expect(tierPrice({ price: 50_000, currency: 'KES', interval: 'one_time' }, f)).toBe('KES 500 once');
  });
});
