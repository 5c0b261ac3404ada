import { type Kysely, sql } from 'kysely';

/**
 * Tells every process, when the transaction commits, of each variant whose room to order may have grown (units
 * released or restocked, stock raised) or whose plan an order reads changed (the variant's name, SKU, price, state
 * or product, the product's own row), or that went away. Orders keep the variants they last read with no unit
 * left (`SoldOutVariants`) until they hear this. Holding and selling units leave the room as it was or smaller,
 * so the condition keeps the trigger off a rush's own path. `pg_notify` sends a payload once per transaction
 * however many rows name it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function notify_variant_room_freed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('svc_commerce_variant_room', old.id);
      return null;
    end $$`.execute(db);
  await sql`
    create trigger product_variants_room_freed after update on product_variants
    for each row
    when (coalesce(new.stock - new.reserved, 2147483647) > coalesce(old.stock - old.reserved, 2147483647)
      or (new.product_id, new.name, new.sku, new.options, new.price, new.active) is distinct from (old.product_id, old.name, old.sku, old.options, old.price, old.active))
    execute function notify_variant_room_freed()`.execute(db);
  await sql`
    create trigger product_variants_gone after delete on product_variants
    for each row execute function notify_variant_room_freed()`.execute(db);
  await sql`
    create function notify_product_variants_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('svc_commerce_variant_room', v.id) from product_variants v where v.product_id = old.id;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger products_variants_changed after update or delete on products
    for each row execute function notify_product_variants_changed()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger products_variants_changed on products`.execute(db);
  await sql`drop function notify_product_variants_changed()`.execute(db);
  await sql`drop trigger product_variants_gone on product_variants`.execute(db);
  await sql`drop trigger product_variants_room_freed on product_variants`.execute(db);
  await sql`drop function notify_variant_room_freed()`.execute(db);
}
