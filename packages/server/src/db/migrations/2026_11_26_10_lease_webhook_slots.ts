import { type Kysely, sql } from 'kysely';

/**
 * `lease_webhook_slots(delivery_ids, endpoint_ids, slot_limit, lease_seconds)`: takes free concurrency slots of
 * the deliveries' endpoints (each has `slot_limit`), in the order given, and answers the deliveries that got
 * one. `endpoint_ids[i]` is the endpoint of `delivery_ids[i]`. One statement, so a lease is one round trip.
 *
 * Locking the endpoints' rows in id order makes the count and the take one step across processes, and two
 * callers cannot deadlock; NO KEY UPDATE does not wait for transactions adding deliveries to those endpoints
 * (their foreign keys hold KEY SHARE locks). A lease lost in a crash only means the delivery is tried again
 * later, so its commit does not wait for the disk. Call it in a transaction of its own.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function lease_webhook_slots(delivery_ids text[], endpoint_ids text[], slot_limit integer, lease_seconds integer)
    returns setof text language plpgsql as $$
    begin
      perform set_config('synchronous_commit', 'off', true);
      perform 1 from webhook_endpoints where id = any(endpoint_ids) order by id for no key update;
      return query
        with wanted as (
          select w.id, w.endpoint_id, row_number() over (partition by w.endpoint_id order by w.ord) as n
          from unnest(delivery_ids, endpoint_ids) with ordinality as w(id, endpoint_id, ord)
        ),
        held as (
          select d.endpoint_id, count(*)::int as held from webhook_deliveries d
          where d.endpoint_id = any(endpoint_ids) and d.leased_until > now()
          group by d.endpoint_id
        ),
        taken as (
          update webhook_deliveries d set leased_until = now() + make_interval(secs => lease_seconds)
          from wanted w left join held h on h.endpoint_id = w.endpoint_id
          where d.id = w.id and w.n <= slot_limit - coalesce(h.held, 0)
            and d.state = 'queued' and (d.leased_until is null or d.leased_until <= now())
          returning d.id
        )
        select taken.id from taken;
    end $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function lease_webhook_slots(text[], text[], integer, integer)`.execute(db);
}
