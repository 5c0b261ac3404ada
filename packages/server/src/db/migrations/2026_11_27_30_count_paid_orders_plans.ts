import { type Kysely, sql } from 'kysely';

/**
 * `count_paid_orders` as PL/pgSQL, with the same three statements. A `language sql` function with several
 * statements plans each of them on every call: for a batch of paid orders, planning took about three times as
 * long as running them. PL/pgSQL keeps each statement's plan for the connection (a generic one once it is as
 * good), so a payment's rollups cost their execution alone.
 */
const COUNT_PAID_ORDERS_STATEMENTS = `
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
      on conflict do nothing;`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create or replace function count_paid_orders(order_ids text[]) returns void language plpgsql as $$
    begin${sql.raw(COUNT_PAID_ORDERS_STATEMENTS)}
    end $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    create or replace function count_paid_orders(order_ids text[]) returns void language sql as $$${sql.raw(COUNT_PAID_ORDERS_STATEMENTS)}
    $$`.execute(db);
}
