import { type Kysely, sql } from 'kysely';

/**
 * What a paid order adds to the analytics' daily rollups, as one function over any number of orders:
 * `count_paid_orders(order_ids)`. Marking an order paid calls it with that order, in its transaction; orders
 * written in bulk (an import of past sales) are counted by the same statements, one call for many. Each
 * statement adds to the day's rows (`x = x + excluded.x`), so calls never lose a count and no one reads-then-writes.
 * A day is the organization's calendar day of `paid_at`; comps are left out.
 *
 * `attendee_key(email, phone)`: the person behind a ticket for repeat counting, their email trimmed and
 * lower-cased, else the digits of their phone.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function attendee_key(email text, phone text) returns text language sql immutable parallel safe as $$
      select case
        when btrim(lower(email), E' \\t\\n\\r\\f\\v') <> '' then 'e:' || btrim(lower(email), E' \\t\\n\\r\\f\\v')
        when regexp_replace(phone, '[^0-9]', '', 'g') <> '' then 'p:' || regexp_replace(phone, '[^0-9]', '', 'g')
      end
    $$`.execute(db);

  // The orders counted: paid, not comps, each on its organization's day. A coupon use still held is redeemed
  // later in the payment's transaction, so it counts as redeemed.
  await sql`
    create function counted_orders(order_ids text[]) returns table (
      id text, tenant_id text, livemode boolean, organization_id text, event_id uuid, ticket_type_id uuid, day date,
      paid_at timestamptz, seats integer, amount_paid integer, amount_discount integer, coupon_id uuid, coupon boolean,
      buyer_email text, buyer_phone text
    ) language sql stable as $$
      select o.id, o.tenant_id, o.livemode, o.organization_id, o.event_id, o.ticket_type_id,
        (o.paid_at at time zone coalesce(g.timezone, 'UTC'))::date, o.paid_at, o.seats, o.amount_paid, o.amount_discount,
        o.coupon_id, o.coupon_id is not null and o.coupon_state in ('redeemed', 'held'), o.buyer_email, o.buyer_phone
      from orders o left join organizations g on g.id = o.organization_id
      where o.id = any(order_ids) and not o.comp and o.paid_at is not null
    $$`.execute(db);

  await sql`
    create function count_paid_orders(order_ids text[]) returns void language sql as $$
      insert into event_daily_sales as s (tenant_id, livemode, organization_id, event_id, ticket_type_id, day,
        tickets_sold, orders_paid, gross, refunded, coupon_orders, coupon_discount)
      select tenant_id, livemode, organization_id, event_id, ticket_type_id, day,
        sum(seats), count(*), sum(amount_paid), 0, count(*) filter (where coupon), coalesce(sum(amount_discount) filter (where coupon), 0)
      from counted_orders(order_ids)
      group by tenant_id, livemode, organization_id, event_id, ticket_type_id, day
      on conflict (event_id, ticket_type_id, day) do update set
        tickets_sold = s.tickets_sold + excluded.tickets_sold, orders_paid = s.orders_paid + excluded.orders_paid,
        gross = s.gross + excluded.gross, refunded = s.refunded + excluded.refunded,
        coupon_orders = s.coupon_orders + excluded.coupon_orders, coupon_discount = s.coupon_discount + excluded.coupon_discount;

      insert into coupon_daily_uses as c (organization_id, event_id, coupon_id, day, uses, discount)
      select organization_id, event_id, coupon_id, day, count(*), sum(amount_discount)
      from counted_orders(order_ids) where coupon
      group by organization_id, event_id, coupon_id, day
      on conflict (coupon_id, day) do update set uses = c.uses + excluded.uses, discount = c.discount + excluded.discount;

      -- Who each order was for: its valid tickets' people, else its buyer. A person's first paid order for an
      -- event gives the day; one already counted for it stays.
      with o as (select * from counted_orders(order_ids)), t as (
        select o.id, o.organization_id, o.event_id, o.day, o.paid_at, attendee_key(t.email, t.phone) as key
        from o join tickets t on t.order_id = o.id and t.status = 'valid'
        where attendee_key(t.email, t.phone) is not null
      )
      insert into organization_attendee_events (organization_id, attendee_key, event_id, day)
      select distinct on (organization_id, key, event_id) organization_id, key, event_id, day
      from (
        select organization_id, event_id, day, paid_at, key from t
        union all
        select organization_id, event_id, day, paid_at, attendee_key(buyer_email, buyer_phone) from o
        where not exists (select 1 from t where t.id = o.id)
      ) k
      where key is not null
      order by organization_id, key, event_id, paid_at
      on conflict do nothing;
    $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function count_paid_orders(text[])`.execute(db);
  await sql`drop function counted_orders(text[])`.execute(db);
  await sql`drop function attendee_key(text, text)`.execute(db);
}
