import { type Kysely, sql } from 'kysely';

/**
 * `access_open_sessions(opens)` again, with one rule fewer: whether an entitlement lets a viewer in (status,
 * start and end) is decided only by `entitlement-rules.ts`. Each open now carries `entitlement`, the status,
 * `starts_at` and `ends_at` the caller decided with (beside `limits`), and the function answers
 * `entitlement_changed` when the locked row differs from them, as it already did for `limits`; the caller then
 * reads the entitlement again and decides with the same rules. The rest is migration 006 unchanged.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create or replace function access_open_sessions(p_opens jsonb)
    returns table (item integer, refusal text)
    language plpgsql
    as $$
    declare
      o record;
      s access_sessions;
      p_now timestamptz;
      e entitlements;
      own text[];
      others text[];
      devices integer;
      known boolean;
      replaced text[];
      counts_as_view boolean;
      max_concurrent integer;
      d jsonb;
    begin
      for o in
        select x.value, x.ordinality from jsonb_array_elements(p_opens) with ordinality as x
        order by x.value->'session'->>'entitlement_id', x.ordinality
      loop
        item := o.ordinality;
        refusal := null;
        s := jsonb_populate_record(null::access_sessions, o.value->'session');
        p_now := (o.value->>'now')::timestamptz;
        d := o.value->'entitlement';

        select * into e from entitlements
          where tenant_id = s.tenant_id and livemode = s.livemode and id = s.entitlement_id
          for update;
        -- Whether the entitlement lets the viewer in was decided by the caller (entitlement-rules.ts); here it
        -- only has to be the entitlement the caller decided with.
        if not found or e.status is distinct from d->>'status' or e.limits <> o.value->'limits'
           or date_trunc('milliseconds', e.starts_at) is distinct from (d->>'starts_at')::timestamptz
           or date_trunc('milliseconds', e.ends_at) is distinct from (d->>'ends_at')::timestamptz then
          refusal := 'entitlement_changed';
          return next;
          continue;
        end if;

        update access_sessions set state = 'ended', ended_reason = 'missed_heartbeats', ended_at = expires_at
          where tenant_id = s.tenant_id and livemode = s.livemode and entitlement_id = e.id
            and state = 'active' and expires_at <= p_now;

        select coalesce(array_agg(id order by created_at, id) filter (where device_id = s.device_id), '{}'),
               coalesce(array_agg(id order by created_at, id) filter (where device_id <> s.device_id), '{}')
          into own, others
          from access_sessions
          where tenant_id = s.tenant_id and livemode = s.livemode and entitlement_id = e.id and state = 'active';

        if e.limits->>'max_devices' is not null then
          select count(distinct device_id), bool_or(device_id = s.device_id) into devices, known
            from access_sessions
            where tenant_id = s.tenant_id and livemode = s.livemode and entitlement_id = e.id;
          if not coalesce(known, false) and devices >= (e.limits->>'max_devices')::integer then
            refusal := 'device_limit_reached';
            return next;
            continue;
          end if;
        end if;

        counts_as_view := cardinality(own) = 0;
        if counts_as_view and e.limits->>'max_views' is not null and e.views_used >= (e.limits->>'max_views')::integer then
          refusal := 'view_limit_reached';
          return next;
          continue;
        end if;

        replaced := own;
        max_concurrent := (e.limits->>'max_concurrent_sessions')::integer;
        if max_concurrent is not null and cardinality(others) >= max_concurrent then
          if e.limits->>'concurrency_policy' = 'reject_new' then
            refusal := 'concurrency_limit_reached';
            return next;
            continue;
          end if;
          replaced := replaced || others[1 : cardinality(others) - max_concurrent + 1];
        end if;

        if cardinality(replaced) > 0 then
          update access_sessions set state = 'ended', ended_reason = 'replaced_by_newer_session', ended_at = p_now
            where tenant_id = s.tenant_id and livemode = s.livemode and id = any(replaced) and state = 'active';
        end if;
        if counts_as_view then
          update entitlements set views_used = views_used + 1
            where tenant_id = s.tenant_id and livemode = s.livemode and id = e.id;
        end if;
        insert into access_sessions select (s).*;
        return next;
      end loop;
    end
    $$
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  // Back to 006's function.
  const { up: upOf006 } = await import('./2026_11_22_006_access_open_session');
  await sql`drop function access_open_sessions(jsonb)`.execute(db);
  await upOf006(db);
}
