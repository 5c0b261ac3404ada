import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { scoped } from '../../../core/scope';
import { brandOf } from '../../../core/branding';
import { writeMessage } from '../../identity';
import { findEventById } from '../booking/catalogue-reads';
import { nowOf } from '../orders/order-transitions';
import type { OrganizerCaller } from '../organizer/organizer-access';
import { openTicketSecret } from '../tickets/tickets.serializer';
import { TICKET_TEMPLATE } from './delivery-statuses';
import { underLocks } from './review.service';

/** How long after a resend the next one is refused. */
export const RESEND_INTERVAL_MS = 5 * 60_000;

const refused = (message: string) => ApiError.of('VALIDATION_ERROR', { message });

/**
 * `POST …/resend`: the ticket message again, to the attendee's email, through the outbox (the same template as
 * payment's, so its delivery moves `ticket_delivery_status`). At most one resend per attendee every 5 minutes.
 */
export async function resendTicket(ctx: AppContext, caller: OrganizerCaller, ref: string, attendeeId: string) {
  const { scope } = caller;
  return underLocks(ctx, caller, ref, attendeeId, async (trx, row, order) => {
    if (!row.email) throw refused('This attendee has no email address.');
    if (row.status === 'cancelled') throw refused('This attendee\'s ticket is cancelled.');
    if (row.status === 'pending') {
      throw refused(order.status === 'pending' ? 'This attendee has not paid yet.' : 'This attendee is still pending approval.');
    }
    const now = nowOf(ctx);
    if (row.resent_at) {
      const wait = new Date(row.resent_at).getTime() + RESEND_INTERVAL_MS - now.getTime();
      if (wait > 0) {
        throw ApiError.of('TOO_MANY_REQUESTS', {
          message: 'This ticket was resent moments ago; try again later.',
          headers: { 'Retry-After': String(Math.ceil(wait / 1000)) },
        });
      }
    }
    const ticket = await scoped(trx, scope).selectFrom('tickets').select(['id', 'secret_sealed']).where('id', '=', row.id).executeTakeFirstOrThrow();
    const event = (await findEventById(trx, scope, order.event_id!))!;
    const name = [row.first_name, row.last_name].filter(Boolean).join(' ');
    await writeMessage(trx, scope, {
      channel: 'email',
      to: row.email,
      template: TICKET_TEMPLATE,
      subject: `Your ticket for ${event.name}`,
      body: `${name ? `${name}, here` : 'Here'} is your ${row.ticket_type_name} ticket for ${event.name} (booking ${order.code}). Ticket code: ${openTicketSecret(ctx.secrets, ticket)}`,
      sensitive: true,
      related: [order.id, row.id],
      brand: await brandOf(ctx, scope, event.organization_id),
    });
    await scoped(trx, scope).updateTable('tickets').set({ resent_at: now, ticket_delivery_status: 'queued' }).where('id', '=', row.id).execute();
    return { data: { sent: true }, message: `The ticket was sent again to ${row.email}.` };
  });
}
