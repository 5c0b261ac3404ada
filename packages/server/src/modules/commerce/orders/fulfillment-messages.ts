import type { EffectiveBranding } from '@svc/contract';
import type { NewMessage } from '../../messaging';
import type { FulfillmentTarget } from './fulfillment-moves';

export interface FulfillmentNotice {
  orderId: string;
  code: string;
  buyerEmail: string | null;
  buyerPhone: string | null;
  status: FulfillmentTarget;
  pickup: boolean;
  pickupInstructions: string | null;
  carrier: string | null;
  trackingNumber: string | null;
  trackingUrl: string | null;
  note: string | null;
}

function text(n: FulfillmentNotice): { subject: string; body: string } {
  switch (n.status) {
    case 'fulfilled':
      return n.pickup
        ? { subject: `Order ${n.code} is ready for pickup`, body: `Your order ${n.code} is ready for pickup.${n.pickupInstructions ? ` ${n.pickupInstructions}` : ''}` }
        : { subject: `Order ${n.code} is packed`, body: `Your order ${n.code} is packed and will be on its way soon.` };
    case 'shipped': {
      const by = n.carrier ? ` with ${n.carrier}` : '';
      const tracking = n.trackingNumber ? ` Tracking number: ${n.trackingNumber}.` : '';
      const link = n.trackingUrl ? ` Track it at ${n.trackingUrl}` : '';
      return { subject: `Order ${n.code} has shipped`, body: `Your order ${n.code} has shipped${by}.${tracking}${link}` };
    }
    case 'delivered':
      return { subject: `Order ${n.code} was delivered`, body: `Your order ${n.code} was delivered. Enjoy it!` };
    case 'returned':
      return { subject: `Order ${n.code} came back`, body: `Your order ${n.code} was returned to the seller.` };
  }
}

/** The buyer's message about a fulfilment step, by email or else SMS; `null` when the buyer cannot be reached. */
export function fulfillmentMessage(n: FulfillmentNotice, brand: EffectiveBranding | null): NewMessage | null {
  const to = n.buyerEmail ? { channel: 'email' as const, to: n.buyerEmail } : n.buyerPhone ? { channel: 'sms' as const, to: n.buyerPhone } : null;
  if (!to) return null;
  const { subject, body } = text(n);
  return { ...to, template: 'order_fulfillment', subject, body: n.note ? `${body}\n${n.note}` : body, related: [n.orderId], brand };
}
