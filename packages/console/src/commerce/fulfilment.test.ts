import { describe, expect, it } from 'vitest';
import { fulfilmentBody, fulfilmentMoves, productOrders, type FulfillableOrder } from './fulfilment';

const order = (over: Partial<FulfillableOrder> = {}): FulfillableOrder => ({ status: 'paid', shipping_method: 'delivery', fulfillment_status: 'unfulfilled', ...over });

describe('fulfilment moves', () => {
  it('follow a delivery order forward: fulfilled or shipped, then delivered, then returned', () => {
    expect(fulfilmentMoves(order())).toEqual(['fulfilled', 'shipped']);
    expect(fulfilmentMoves(order({ fulfillment_status: 'fulfilled' }))).toEqual(['shipped']);
    expect(fulfilmentMoves(order({ fulfillment_status: 'shipped' }))).toEqual(['delivered', 'returned']);
    expect(fulfilmentMoves(order({ fulfillment_status: 'delivered' }))).toEqual(['returned']);
    expect(fulfilmentMoves(order({ fulfillment_status: 'returned' }))).toEqual([]);
  });

  it('deliver a pickup order once it is fulfilled, and never ship it', () => {
    expect(fulfilmentMoves(order({ shipping_method: 'pickup' }))).toEqual(['fulfilled']);
    expect(fulfilmentMoves(order({ shipping_method: 'pickup', fulfillment_status: 'fulfilled' }))).toEqual(['delivered']);
  });

  it('offer nothing for orders that are not paid, nor for other kinds', () => {
    for (const status of ['pending', 'refunded', 'cancelled', 'expired']) expect(fulfilmentMoves(order({ status }))).toEqual([]);
    expect(fulfilmentMoves(order({ status: 'partially_refunded' }))).toEqual(['fulfilled', 'shipped']);
    expect(fulfilmentMoves(order({ fulfillment_status: null, shipping_method: null }))).toEqual([]);
  });
});

describe('the fulfilment body', () => {
  it('sends a carrier and tracking number only with shipped, and drops blanks', () => {
    expect(fulfilmentBody('shipped', { carrier: ' G4S ', tracking_number: 'TRK-1', note: '' })).toEqual({ status: 'shipped', carrier: 'G4S', tracking_number: 'TRK-1' });
    expect(fulfilmentBody('fulfilled', { carrier: 'G4S', tracking_number: 'TRK-1', note: 'Packed' })).toEqual({ status: 'fulfilled', note: 'Packed' });
    expect(fulfilmentBody('delivered', {})).toEqual({ status: 'delivered' });
  });
});

describe('product orders', () => {
  it('keeps the product orders, with the chosen fulfilment status', () => {
    const orders = [
      { id: 'a', kind: 'ticket', fulfillment_status: null },
      { id: 'b', kind: 'product', fulfillment_status: 'unfulfilled' },
      { id: 'c', kind: 'product', fulfillment_status: 'shipped' },
      { id: 'd', kind: 'subscription', fulfillment_status: null },
    ];
    expect(productOrders(orders).map((o) => o.id)).toEqual(['b', 'c']);
    expect(productOrders(orders, 'shipped').map((o) => o.id)).toEqual(['c']);
    expect(productOrders(orders, '').map((o) => o.id)).toEqual(['b', 'c']);
  });
});
