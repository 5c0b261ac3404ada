import { type Kysely, sql } from 'kysely';

/**
 * What commerce keeps of a product order beside ticketing's order row: its shipping, its fulfilment, and where
 * its stock stands (`held` by the pending order, `sold` once paid, `released` when it expired or was cancelled),
 * so a late payment, a retried hook or a refund moves each unit once; and its units per variant, which the nightly
 * check of `reserved` sums. The row is written just before its order, in the same transaction (the foreign key
 * is checked at commit).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table product_orders (
      order_id text primary key references orders(id) deferrable initially deferred,
      tenant_id text not null references tenants(id),
      livemode boolean not null,
      organization_id text not null,
      stock_state text not null default 'held' check (stock_state in ('held', 'sold', 'released')),
      -- [{variant, quantity}], summed per variant: what the order holds, sells and gives back.
      lines jsonb not null,
      shipping_method text check (shipping_method in ('delivery', 'pickup')),
      shipping_address jsonb,
      fulfillment_status text not null default 'unfulfilled'
        check (fulfillment_status in ('unfulfilled', 'fulfilled', 'shipped', 'delivered', 'returned')),
      carrier text,
      tracking_number text,
      tracking_url text,
      note text,
      fulfilled_at timestamptz,
      shipped_at timestamptz,
      delivered_at timestamptz,
      returned_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index product_orders_held on product_orders (order_id) where stock_state = 'held'`.execute(db);
  await sql`create index product_orders_to_pack on product_orders (tenant_id, livemode, organization_id, fulfillment_status, order_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table product_orders`.execute(db);
}
