import type { Ticket } from '@svc/contract';
import type { SecretBox } from '../../../core/secret-box';
import type { TicketRow } from './tickets.repository';

const iso = (d: Date | string) => new Date(d).toISOString();

/** The ticket as its holder sees it: with `secret` when a secret box is given to open it, else `null`. */
export function serializeTicket(row: TicketRow, orderCode: string, secrets?: SecretBox): Ticket {
  return {
    id: row.id,
    object: 'ticket',
    livemode: row.livemode,
    order: row.order_id,
    order_code: orderCode,
    event: row.event_id,
    ticket_type: row.ticket_type_id,
    event_slot: row.slot_id,
    status: row.status,
    attendee: { first_name: row.first_name, last_name: row.last_name, email: row.email, phone: row.phone, extra_data: row.extra_data },
    customer: row.customer_id,
    secret: secrets ? openTicketSecret(secrets, row) : null,
    created_at: iso(row.created_at),
  };
}

/** The sealed secret is bound to the ticket's id, so it cannot be copied onto another ticket. */
export const openTicketSecret = (secrets: SecretBox, row: Pick<TicketRow, 'id' | 'secret_sealed'>) => secrets.decrypt(row.secret_sealed, row.id);
