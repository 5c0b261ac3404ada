import type { CursorPageQuery, Order } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import type { UserPrincipal } from '../../../core/principal';
import { requireOrganizationPermission } from '../../identity';
import { findOrderBy } from '../orders/order-rows.service';
import { presentOrder } from '../orders/orders.serializer';
import { ticketsOfCustomer } from './tickets.repository';
import { serializeTicket } from './tickets.serializer';

/** The signed-in person's tickets, with their secrets: theirs as attendee, and those they bought. */
export async function attendeeTickets(ctx: AppContext, principal: UserPrincipal, page: CursorPageQuery) {
  if (!principal.customerId) return { data: [], meta: { pagination: { limit: page.limit, has_more: false, next_cursor: null, prev_cursor: null } } };
  const result = await ticketsOfCustomer(ctx.db, principal.scope, principal.customerId, page);
  return { ...result, data: result.data.map((row) => serializeTicket(row, row.order_code, ctx.secrets)) };
}

/**
 * A booking by its code, for its signed-in buyer or a member of the event's organization (any role there, or
 * tenant staff). Anyone else gets `404`, as for a code that does not exist, so codes cannot be probed.
 */
export async function creatorBooking(ctx: AppContext, principal: UserPrincipal, code: string): Promise<Order> {
  const order = await findOrderBy(ctx.db, principal.scope, 'code', code.toUpperCase());
  const notFound = ApiError.notFound('booking', code);
  if (!order) throw notFound;
  if (!(principal.customerId && order.customer_id === principal.customerId)) {
    try {
      await requireOrganizationPermission(ctx, principal.scope.tenantId, principal.userId, order.organization_id, 'events:read');
    } catch {
      throw notFound;
    }
  }
  return presentOrder(ctx.db, principal.scope, order);
}
