import type { Transaction } from 'kysely';
import type { DB } from '../../../db/schema';
import type { EffectiveBranding } from '@svc/contract';
import { brandOf } from '../../../core/branding';
import type { AppContext } from '../../../core/context';
import type { SecretBox } from '../../../core/secret-box';
import type { Scope } from '../../../core/scope';
import { writeMessages, type NewMessage } from '../../identity';
import type { EventRow, TicketTypeRow } from '../booking/catalogue-reads';
import { openTicketSecret } from '../tickets/tickets.serializer';
import type { TicketRow } from '../tickets/ticket-rows.service';
import type { OrderRow } from './orders.repository';

const contactOf = (email: string | null, phone: string | null) =>
  email ? { channel: 'email' as const, to: email } : phone ? { channel: 'sms' as const, to: phone } : null;

/** Where a paid ticket's message goes: its attendee, else the buyer; `null` when neither can be reached. */
export const ticketMessageTo = (order: Pick<OrderRow, 'buyer_email' | 'buyer_phone'>, ticket: Pick<TicketRow, 'email' | 'phone'>) =>
  contactOf(ticket.email, ticket.phone) ?? contactOf(order.buyer_email, order.buyer_phone);

const money = (amount: number, currency: string) => `${currency} ${(amount / 100).toFixed(2)}`;

/**
 * Through the outbox, in the paying transaction and in one insert: each attendee's ticket (with its scanning secret, so the
 * message is sensitive) and the buyer's receipt. An attendee without email or phone gets theirs through the buyer.
 */
export async function writePaidOrderMessages(
  trx: Transaction<DB>,
  scope: Scope,
  ctx: Pick<AppContext, 'secrets' | 'whitelabel'>,
  order: OrderRow,
  tickets: readonly TicketRow[],
  event: EventRow,
  ticketType: TicketTypeRow,
): Promise<void> {
  const brand = await brandOf(ctx, scope, event.organization_id);
  await writeMessages(trx, scope, paidOrderMessages(ctx.secrets, order, tickets, event, ticketType, brand));
}

/** The messages of several paid orders of one scope, in one insert. */
export async function writePaidOrdersMessages(
  trx: Transaction<DB>,
  scope: Scope,
  ctx: Pick<AppContext, 'secrets' | 'whitelabel'>,
  orders: ReadonlyArray<{ order: OrderRow; tickets: readonly TicketRow[]; event: EventRow; ticketType: TicketTypeRow }>,
): Promise<void> {
  // Each organization's brand once (a batch is mostly one event's orders).
  const brands = new Map<string, Promise<EffectiveBranding>>();
  const brandOfOrg = (id: string) => brands.get(id) ?? brands.set(id, brandOf(ctx, scope, id)).get(id)!;
  const messages = await Promise.all(orders.map(async (o) => paidOrderMessages(ctx.secrets, o.order, o.tickets, o.event, o.ticketType, await brandOfOrg(o.event.organization_id))));
  await writeMessages(trx, scope, messages.flat());
}

function paidOrderMessages(
  secrets: SecretBox,
  order: OrderRow,
  tickets: readonly TicketRow[],
  event: EventRow,
  ticketType: TicketTypeRow,
  brand: EffectiveBranding,
): NewMessage[] {
  const buyer = contactOf(order.buyer_email, order.buyer_phone);
  const messages: NewMessage[] = [];
  for (const ticket of tickets) {
    const to = ticketMessageTo(order, ticket);
    if (!to) continue;
    const name = [ticket.first_name, ticket.last_name].filter(Boolean).join(' ');
    messages.push({
      ...to,
      template: 'ticket',
      subject: `Your ticket for ${event.name}`,
      body: `${name ? `${name}, here` : 'Here'} is your ${ticketType.name} ticket for ${event.name} (booking ${order.code}). Ticket code: ${openTicketSecret(secrets, ticket)}`,
      sensitive: true,
      related: [order.id, ticket.id],
      brand,
    });
  }
  if (buyer) {
    messages.push({
      ...buyer,
      template: 'order_receipt',
      subject: `Receipt for booking ${order.code}`,
      body: `Booking ${order.code}: ${order.quantity} × ${ticketType.name} for ${event.name}. Paid ${money(order.amount_paid, order.currency)}.`,
      related: [order.id],
      brand,
    });
  }
  return messages;
}
