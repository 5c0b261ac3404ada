import { type Kysely, sql } from 'kysely';

/**
 * One order resource, three kinds (products-api § 3.1): `kind` (existing orders are `ticket`), the event and
 * ticket type only on ticket orders, `amount_shipping` and `amount_subtotal` (kept by the database as
 * total + discount − shipping, so no writer can let them disagree), the `sub_` of a subscription order (text:
 * the subscriptions table belongs to another module), and the order's line items. A ticket order has one
 * `ticket` item whose id is the order's with `li_` for `ord_`: every existing order gets it here, so booking and
 * payment can show it without reading it back. Refunds record the units they return.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table orders
      add column kind text not null default 'ticket' check (kind in ('ticket', 'product', 'subscription')),
      alter column event_id drop not null,
      alter column ticket_type_id drop not null,
      add column amount_shipping integer not null default 0 check (amount_shipping >= 0),
      add column amount_subtotal integer generated always as (amount_total + amount_discount - amount_shipping) stored,
      add column subscription_id text,
      add constraint orders_ticket_catalogue check (kind <> 'ticket' or (event_id is not null and ticket_type_id is not null))`.execute(db);
  await sql`create index orders_scope_kind on orders (tenant_id, livemode, kind, id)`.execute(db);
  await sql`create index orders_subscription on orders (subscription_id) where subscription_id is not null`.execute(db);
  await sql`
    create table line_items (
      id text primary key,
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      order_id text not null references orders(id),
      position smallint not null default 0,
      kind text not null check (kind in ('ticket', 'product', 'subscription')),
      description text not null,
      quantity integer not null check (quantity >= 1),
      unit_amount integer not null check (unit_amount >= 0),
      amount_subtotal integer not null check (amount_subtotal >= 0),
      amount_discount integer not null default 0 check (amount_discount >= 0),
      amount_total integer not null check (amount_total >= 0),
      currency text not null,
      quantity_refunded integer not null default 0 check (quantity_refunded >= 0 and quantity_refunded <= quantity),
      ticket jsonb,
      product jsonb,
      subscription jsonb,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index line_items_order on line_items (order_id, position)`.execute(db);
  await sql`
    insert into line_items (id, tenant_id, livemode, order_id, kind, description, quantity, unit_amount, amount_subtotal,
      amount_discount, amount_total, currency, quantity_refunded, ticket, created_at, updated_at)
    select 'li_' || substr(o.id, 5), o.tenant_id, o.livemode, o.id, 'ticket', t.name, o.quantity,
      (o.amount_total + o.amount_discount) / o.quantity, o.amount_total + o.amount_discount, o.amount_discount, o.amount_total,
      o.currency, case when o.status = 'refunded' then o.quantity else 0 end,
      jsonb_build_object('event', o.event_id, 'ticket_type', o.ticket_type_id, 'event_slot', o.slot_id),
      o.created_at, o.created_at
    from orders o join ticket_types t on t.id = o.ticket_type_id`.execute(db);
  await sql`
    alter table refunds
      add column line_items jsonb not null default '[]'::jsonb,
      add column restock boolean not null default true`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table refunds drop column restock, drop column line_items`.execute(db);
  await sql`drop table line_items`.execute(db);
  await sql`drop index orders_subscription`.execute(db);
  await sql`drop index orders_scope_kind`.execute(db);
  await sql`delete from orders where kind <> 'ticket'`.execute(db);
  await sql`
    alter table orders
      drop constraint orders_ticket_catalogue,
      drop column subscription_id,
      drop column amount_subtotal,
      drop column amount_shipping,
      alter column ticket_type_id set not null,
      alter column event_id set not null,
      drop column kind`.execute(db);
}
