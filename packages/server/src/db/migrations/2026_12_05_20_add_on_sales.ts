import { type Kysely, sql } from 'kysely';

/**
 * A booking's add-ons apart from its tickets in the organizer analytics (products-api § 3.1): `gross` and
 * `refunded` of `event_daily_sales` count the ticket line alone; `add_ons_gross` and `add_ons_refunded` the
 * product lines and their shipping (`orders.amount_add_ons`), and an order keeps what of its refunds went back for
 * its add-ons (`amount_add_ons_refunded`). `counted_orders` gains each order's add-ons so `count_paid_orders`
 * splits what was paid. The sales counted before are split the same way: a paid order's add-ons, and each
 * succeeded refund's share of them (the paid share of the product units it named, at most its amount; for an
 * amount alone, the add-ons' part of what the order paid).
 */
const COUNTED_ORDERS = (addOns: boolean) => `
    create function counted_orders(order_ids text[]) returns table (
      id text, tenant_id text, livemode boolean, organization_id text, event_id uuid, ticket_type_id uuid, day date,
      paid_at timestamptz, seats integer, amount_paid integer, amount_discount integer, coupon_id uuid, coupon boolean,
      buyer_email text, buyer_phone text${addOns ? ', amount_add_ons integer' : ''}
    ) language sql stable as $$
      select o.id, o.tenant_id, o.livemode, o.organization_id, o.event_id, o.ticket_type_id,
        (o.paid_at at time zone coalesce(g.timezone, 'UTC'))::date, o.paid_at, o.seats, o.amount_paid, o.amount_discount,
        o.coupon_id, o.coupon_id is not null and o.coupon_state in ('redeemed', 'held'), o.buyer_email, o.buyer_phone${
          addOns ? `,
        least(coalesce(o.amount_add_ons, 0), o.amount_paid)` : ''
        }
      from orders o left join organizations g on g.id = o.organization_id
      where o.id = any(order_ids) and not o.comp and o.paid_at is not null
    $$`;

const COUNT_PAID_ORDERS = (addOns: boolean) => `
    create or replace function count_paid_orders(order_ids text[]) returns void language plpgsql as $$
    begin
      insert into event_daily_sales as s (tenant_id, livemode, organization_id, event_id, ticket_type_id, day,
        tickets_sold, orders_paid, gross, refunded, coupon_orders, coupon_discount${addOns ? ', add_ons_gross' : ''})
      select tenant_id, livemode, organization_id, event_id, ticket_type_id, day,
        sum(seats), count(*), ${addOns ? 'sum(amount_paid - amount_add_ons)' : 'sum(amount_paid)'}, 0, count(*) filter (where coupon),
        coalesce(sum(amount_discount) filter (where coupon), 0)${addOns ? ', sum(amount_add_ons)' : ''}
      from counted_orders(order_ids)
      group by tenant_id, livemode, organization_id, event_id, ticket_type_id, day
      on conflict (event_id, ticket_type_id, day) do update set
        tickets_sold = s.tickets_sold + excluded.tickets_sold, orders_paid = s.orders_paid + excluded.orders_paid,
        gross = s.gross + excluded.gross, refunded = s.refunded + excluded.refunded,
        coupon_orders = s.coupon_orders + excluded.coupon_orders, coupon_discount = s.coupon_discount + excluded.coupon_discount${
          addOns ? `,
        add_ons_gross = s.add_ons_gross + excluded.add_ons_gross` : ''
        };

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
    end $$`;

/** Each succeeded refund of an order with add-ons, with its share of them, as counted before this migration. */
const REFUND_SHARES = sql`
  select o.id as order_id, o.event_id, o.ticket_type_id, o.organization_id, r.created_at,
    case when jsonb_array_length(r.line_items) > 0 then least(r.amount, (
      select coalesce(sum(floor(li.amount_total::numeric * (n.value->>'quantity')::int / li.quantity)), 0)
      from jsonb_array_elements(r.line_items) n join line_items li on li.id = n.value->>'line_item' and li.kind = 'product'
    ))
    else round(r.amount::numeric * least(o.amount_add_ons, o.amount_paid) / o.amount_paid) end as share
  from orders o join refunds r on r.order_id = o.id and r.status = 'succeeded'
  where o.kind = 'ticket' and o.amount_add_ons > 0 and o.amount_paid > 0 and not o.comp`;

/** Each day's add-on money already counted in `gross` and `refunded`: `sign` 1 moves it out, -1 back in. */
const moveCounted = (sign: 1 | -1) => {
  const by = sql.raw(sign === 1 ? '' : '-');
  return sql`
  with day_of as (
    select o.id, coalesce((select timezone from organizations g where g.id = o.organization_id), 'UTC') as timezone from orders o
    where o.kind = 'ticket' and o.amount_add_ons > 0 and o.paid_at is not null and not o.comp
  ), amounts as (
    select o.event_id, o.ticket_type_id, (o.paid_at at time zone d.timezone)::date as day, least(o.amount_add_ons, o.amount_paid) as paid, 0 as refunded
    from orders o join day_of d on d.id = o.id
    union all
    select r.event_id, r.ticket_type_id, (r.created_at at time zone d.timezone)::date, 0, r.share
    from (${REFUND_SHARES}) r join day_of d on d.id = r.order_id
  ), days as (
    select event_id, ticket_type_id, day, sum(paid) as paid, sum(refunded) as refunded from amounts group by 1, 2, 3
  )
  update event_daily_sales s set
    gross = s.gross - ${by}d.paid, add_ons_gross = s.add_ons_gross + ${by}d.paid,
    refunded = s.refunded - ${by}d.refunded, add_ons_refunded = s.add_ons_refunded + ${by}d.refunded
  from days d where s.event_id = d.event_id and s.ticket_type_id = d.ticket_type_id and s.day = d.day`;
};

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table event_daily_sales
      add column add_ons_gross bigint not null default 0,
      add column add_ons_refunded bigint not null default 0`.execute(db);
  await sql`alter table orders add column amount_add_ons_refunded integer not null default 0 check (amount_add_ons_refunded >= 0)`.execute(db);
  await sql`
    update orders o set amount_add_ons_refunded = least(r.shares, o.amount_add_ons, o.amount_paid)
    from (select order_id, sum(share) as shares from (${REFUND_SHARES}) s group by order_id) r where o.id = r.order_id`.execute(db);
  // Its result gains a column: a function's result type cannot be replaced in place.
  await sql`drop function counted_orders(text[])`.execute(db);
  await sql.raw(COUNTED_ORDERS(true)).execute(db);
  await sql.raw(COUNT_PAID_ORDERS(true)).execute(db);
  await moveCounted(1).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await moveCounted(-1).execute(db);
  await sql`drop function counted_orders(text[])`.execute(db);
  await sql.raw(COUNTED_ORDERS(false)).execute(db);
  await sql.raw(COUNT_PAID_ORDERS(false)).execute(db);
  await sql`alter table orders drop column amount_add_ons_refunded`.execute(db);
  await sql`alter table event_daily_sales drop column add_ons_refunded, drop column add_ons_gross`.execute(db);
}
