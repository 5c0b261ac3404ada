import type { CreateProductOrderInput, ShippingMethod } from '@svc/contract';
import type { ShippingAddressColumn } from '../../../db/commerce.schema';
import { invalid } from '../products/product-rules';
import type { EffectiveCommerceSettings } from '../settings/commerce-settings.service';
import type { OrderPlan } from './order-lines';

export interface OrderShipping {
  method: ShippingMethod | null;
  address: ShippingAddressColumn | null;
  /** `amount_shipping`: the organization's flat fee, once, for a delivery. */
  fee: number;
}

/**
 * How an order travels (products-api § 3.3): a physical item means `delivery` (the default, with an address and
 * the flat fee) or `pickup` (when the organization allows it); a digital-only order has no shipping at all.
 */
export function shippingOf(plan: Pick<OrderPlan, 'physical'>, settings: Pick<EffectiveCommerceSettings, 'pickup_enabled' | 'shipping_fee'>, input: Pick<CreateProductOrderInput, 'shipping_method' | 'shipping_address'>): OrderShipping {
  if (!plan.physical) {
    if (input.shipping_method) throw invalid('shipping_method', 'A digital-only order is not shipped.');
    return { method: null, address: null, fee: 0 };
  }
  const method = input.shipping_method ?? 'delivery';
  if (method === 'pickup') {
    if (!settings.pickup_enabled) throw invalid('shipping_method', 'This organization does not offer pickup.');
    return { method, address: null, fee: 0 };
  }
  const a = input.shipping_address;
  if (!a) throw invalid('shipping_address', 'A delivery needs a shipping address.');
  return {
    method,
    address: {
      name: a.name,
      phone: a.phone,
      line1: a.line1,
      line2: a.line2 ?? null,
      city: a.city,
      region: a.region ?? null,
      postal_code: a.postal_code ?? null,
      country: a.country,
      instructions: a.instructions ?? null,
    },
    fee: settings.shipping_fee,
  };
}
