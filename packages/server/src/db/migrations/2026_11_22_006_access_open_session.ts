import { type Kysely, sql } from 'kysely';

/**
 * `access_open_session(session, limits, now)`: a session open's whole transaction in one call, so the
 * entitlement's row lock is held for one round trip instead of six (docs/decisions.md, "A session open is one
 * database call"). `session` is the new `access_sessions` row as JSON; `limits` the entitlement's limits the
 * caller decided access with.
 *
 * Under the entitlement's lock, in this order (each statement sees what the ones before it wrote):
 * 1. The entitlement must still be active within its dates with the same limits, else `entitlement_changed`
 *    (the caller reads it again and answers why, or opens again with what changed).
 * 2. Its sessions whose heartbeats stopped end as `missed_heartbeats`, as of their lapse.
 * 3. `max_devices`: distinct devices that ever opened a session; a new one beyond it is refused.
 * 4. The device's own active session is replaced and costs no new view; otherwise `max_views` counts it.
 * 5. `max_concurrent_sessions`, over the other active sessions: `reject_new` refuses, `replace_oldest` ends the
 *    oldest.
 * Refusals raise SQLSTATE `SV001` with the refusal as the message, before anything is written.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function access_open_session(p_session jsonb, p_limits jsonb, p_now timestamptz)
    returns setof access_sessions
    language plpgsql
    as $$
    declare
      s access_sessions := jsonb_populate_record(null::access_sessions, p_session);
      e entitlements;
      own text[];
      others text[];
      devices integer;
      known boolean;
      replaced text[];
      counts_as_view boolean;
      max_concurrent integer;
    begin
      select * into e from entitlements
        where tenant_id = s.tenant_id and livemode = s.livemode and id = s.entitlement_id
        for update;
      if not found or e.status <> 'active' or e.limits <> p_limits
         or (e.starts_at is not null and e.starts_at > p_now) or (e.ends_at is not null and e.ends_at <= p_now) then
        raise exception using errcode = 'SV001', message = 'entitlement_changed';
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
          raise exception using errcode = 'SV001', message = 'device_limit_reached';
        end if;
      end if;

      counts_as_view := cardinality(own) = 0;
      if counts_as_view and e.limits->>'max_views' is not null and e.views_used >= (e.limits->>'max_views')::integer then
        raise exception using errcode = 'SV001', message = 'view_limit_reached';
      end if;

      replaced := own;
      max_concurrent := (e.limits->>'max_concurrent_sessions')::integer;
      if max_concurrent is not null and cardinality(others) >= max_concurrent then
        if e.limits->>'concurrency_policy' = 'reject_new' then
          raise exception using errcode = 'SV001', message = 'concurrency_limit_reached';
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
      return query insert into access_sessions select (s).* returning *;
    end
    $$
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function access_open_session(jsonb, jsonb, timestamptz)`.execute(db);
}
