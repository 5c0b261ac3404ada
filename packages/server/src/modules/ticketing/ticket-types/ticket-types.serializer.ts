import type { Selectable } from 'kysely';
import type { TicketTypesTable } from '../../../db/ticketing.schema';

export type TicketTypeRow = Selectable<TicketTypesTable>;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function serializeTicketType(row: TicketTypeRow) {
  return {
    id: row.id,
    object: 'ticket_type' as const,
    livemode: row.livemode,
    event: row.event_id,
    name: row.name,
    description: row.description,
    pricing_mode: row.pricing_mode,
    price: row.price,
    flexipay_min_price: row.flexipay_min_price,
    flexipay_max_price: row.flexipay_max_price,
    quantity: row.quantity,
    min_per_order: row.min_per_order,
    max_per_order: row.max_per_order,
    sale_starts_at: iso(row.sale_starts_at),
    sale_ends_at: iso(row.sale_ends_at),
    allow_pay_later: row.allow_pay_later,
    requires_approval: row.requires_approval,
    admits: row.admits,
    extra_fields: row.extra_fields,
    stream_limits: row.stream_limits,
    status: row.status,
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}
