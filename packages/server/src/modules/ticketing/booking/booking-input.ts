import type { BookingStoreRequest } from '@svc/contract';
import { ApiError } from '../../../core/errors';
import type { TenantPrincipal } from '../../../core/principal';
import type { Executor } from '../../../db/database';
import { findCustomer } from '../../identity';
import type { TicketTypeRow } from './catalogue-reads';

const invalid = (param: string, message: string) => ApiError.of('validation_failed', { param, message, details: { [param]: [message] } });

/** The price of one ticket: the fixed price, or the buyer's `amount` within the name-your-price bounds. */
export function unitPriceOf(tt: TicketTypeRow, amount: number | undefined): number {
  if (tt.pricing_mode === 'fixed') return tt.price ?? 0;
  const min = tt.flexipay_min_price ?? 0;
  const max = tt.flexipay_max_price;
  if (amount === undefined) throw invalid('amount', 'A name-your-price ticket needs `amount`.');
  if (amount < min || (max !== null && amount > max)) {
    throw invalid('amount', max === null ? `Must be at least ${min}.` : `Must be between ${min} and ${max}.`);
  }
  return amount;
}

/** One attendee per seat, each with the ticket type's required extra fields, in their types and options. */
export function checkAttendees(tt: TicketTypeRow, attendees: BookingStoreRequest['attendees'], seats: number): void {
  if (attendees.length !== seats) throw invalid('attendees', `Name exactly ${seats} attendees (quantity × ${tt.admits} admitted per ticket).`);
  attendees.forEach((a, i) => {
    const data = a.extra_data ?? {};
    for (const name of Object.keys(data)) {
      if (!tt.extra_fields.some((f) => f.name === name)) throw invalid(`attendees.${i}.extra_data.${name}`, 'Not a field of this ticket.');
    }
    for (const f of tt.extra_fields) {
      const value = data[f.name];
      const param = `attendees.${i}.extra_data.${f.name}`;
      const missing = value === undefined || value === null || value === '' || (f.type === 'checkbox' && value === false);
      if (missing) {
        if (f.required) throw invalid(param, 'Required.');
        continue;
      }
      if (f.type === 'checkbox' && typeof value !== 'boolean') throw invalid(param, 'Must be true or false.');
      if (f.type !== 'checkbox' && typeof value !== 'string') throw invalid(param, 'Must be text.');
      if (f.type === 'select' && !(f.options ?? []).includes(value as string)) throw invalid(param, `Must be one of: ${(f.options ?? []).join(', ')}.`);
    }
  });
}

export interface Buyer {
  name: string | null;
  email: string | null;
  phone: string | null;
  customerId: string | null;
}

/**
 * Who books: the body's buyer fields, with what a signed-in person's customer record holds filling those left
 * out. Someone must be reachable: an email or a phone.
 */
export async function buyerOf(db: Executor, principal: TenantPrincipal, body: BookingStoreRequest): Promise<Buyer> {
  const customerId = principal.kind === 'user' ? principal.customerId : null;
  const customer = customerId ? await findCustomer(db, principal.scope, customerId) : undefined;
  const buyer: Buyer = {
    name: body.buyer_name ?? customer?.name ?? null,
    email: body.buyer_email?.toLowerCase() ?? customer?.email ?? null,
    phone: body.buyer_phone ?? customer?.phone ?? null,
    customerId: customer?.id ?? null,
  };
  if (!buyer.email && !buyer.phone) throw invalid('buyer_email', 'Give `buyer_email` or `buyer_phone`.');
  if (!buyer.name && !customer) throw invalid('buyer_name', 'Required.');
  return buyer;
}

