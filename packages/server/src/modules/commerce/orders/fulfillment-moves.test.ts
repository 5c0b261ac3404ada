import { describe, expect, it } from 'vitest';
import { canMove } from './fulfillment-moves';

describe('fulfilment moves', () => {
  it('follows the table: forward only, shipping for delivery orders, delivery from fulfilled for pickup', () => {
    expect(canMove('unfulfilled', 'fulfilled', 'delivery')).toBe(true);
    expect(canMove('unfulfilled', 'shipped', 'delivery')).toBe(true);
    expect(canMove('fulfilled', 'shipped', 'delivery')).toBe(true);
    expect(canMove('fulfilled', 'shipped', 'pickup')).toBe(false);
    expect(canMove('shipped', 'delivered', 'delivery')).toBe(true);
    expect(canMove('fulfilled', 'delivered', 'pickup')).toBe(true);
    expect(canMove('fulfilled', 'delivered', 'delivery')).toBe(false);
    expect(canMove('unfulfilled', 'delivered', 'pickup')).toBe(false);
    expect(canMove('shipped', 'returned', 'delivery')).toBe(true);
    expect(canMove('delivered', 'returned', 'pickup')).toBe(true);
    expect(canMove('fulfilled', 'returned', 'delivery')).toBe(false);
    expect(canMove('shipped', 'fulfilled', 'delivery')).toBe(false);
    expect(canMove('delivered', 'shipped', 'delivery')).toBe(false);
    expect(canMove('returned', 'delivered', 'delivery')).toBe(false);
  });
});
