import { type Kysely, sql } from 'kysely';

/**
 * `access_open_sessions(opens)`: session opens decided and written in one call (docs/decisions.md, "Limits,
 * decided under a row lock, in one database call"). `opens` is a JSON array of `{session, limits, now}`: the
 * new `access_sessions` row, the entitlement's limits the caller decided access with, and the moment of the
 * open. Answers one row per open: its position in the array (from 1) and `refusal`, `null` when the session
 * was inserted as given.
 *
 * The opens run in the order of their entitlements (so two calls take the row locks in the same order), each
 * under its entitlement's row lock, held until the call's transaction ends; each statement sees what the ones
 * before it wrote, the earlier opens of the same call included. For each open:
 * 1. The entitlement must still be active within its dates with the same limits, else `entitlement_changed`
 *    (the caller reads it again and answers why, or opens again with what changed).
 * 2. Its sessions whose heartbeats stopped end as `missed_heartbeats`, as of their lapse.
 * 3. `max_devices`: distinct devices that ever opened a session; a new one beyond it is refused.
 * 4. The device's own active session is replaced and costs no new view; otherwise `max_views` counts it.
 * 5. `max_concurrent_sessions`, over the other active sessions: `reject_new` refuses, `replace_oldest` ends the
 *    oldest.
 * A refused open writes nothing but step 2 (which only records what already happened).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function access_open_sessions(p_opens jsonb)
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
    begin
      for o in
        select x.value, x.ordinality from jsonb_array_elements(p_opens) with ordinality as x
        order by x.value->'session'->>'entitlement_id', x.ordinality
      loop
        item := o.ordinality;
        refusal := null;
        s := jsonb_populate_record(null::access_sessions, o.value->'session');
        p_now := (o.value->>'now')::timestamptz;

        select * into e from entitlements
          where tenant_id = s.tenant_id and livemode = s.livemode and id = s.entitlement_id
          for update;
        if not found or e.status <> 'active' or e.limits <> o.value->'limits'
           or (e.starts_at is not null and e.starts_at > p_now) or (e.ends_at is not null and e.ends_at <= p_now) then
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
  await sql`drop function access_open_sessions(jsonb)`.execute(db);
}
