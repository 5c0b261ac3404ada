import { type Kysely, sql } from 'kysely';

/**
 * A version of each kept list (`live_streams` for now) per tenant and environment, counted once by every
 * transaction that changes what the list shows: `VersionedPages` answers a page from memory only while the version it
 * was read at is the current one. The triggers are deferred, so the version's row is locked only while the
 * transaction commits, after its other work: writers of one tenant's streams wait for each other only there, and a
 * transaction that holds it waits for nothing else. A second change in the same transaction counts nothing more.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table list_versions (
      tenant_id text not null,
      livemode boolean not null,
      list text not null,
      version bigint not null,
      xact xid8 not null,
      primary key (tenant_id, livemode, list)
    )`.execute(db);
  await sql`
    create function count_list_version() returns trigger language plpgsql as $$
    declare
      changed record;
    begin
      if tg_op = 'DELETE' then changed := old; else changed := new; end if;
      insert into list_versions as v (tenant_id, livemode, list, version, xact)
      values (changed.tenant_id, changed.livemode, tg_argv[0], 1, pg_current_xact_id())
      on conflict (tenant_id, livemode, list) do update set version = v.version + 1, xact = excluded.xact
      where v.xact <> excluded.xact;
      return null;
    end $$`.execute(db);
  await sql`
    create constraint trigger live_streams_list_version after insert or update or delete on live_streams
    deferrable initially deferred for each row execute function count_list_version('live_streams')`.execute(db);
  await sql`
    create constraint trigger simulcast_targets_list_version after insert or update or delete on simulcast_targets
    deferrable initially deferred for each row execute function count_list_version('live_streams')`.execute(db);
  // A stream's playback ids are on its page; an asset's are not.
  await sql`
    create constraint trigger playback_ids_list_version after insert or update on playback_ids
    deferrable initially deferred for each row when (new.live_stream_id is not null)
    execute function count_list_version('live_streams')`.execute(db);
  await sql`
    create constraint trigger playback_ids_list_version_deleted after delete on playback_ids
    deferrable initially deferred for each row when (old.live_stream_id is not null)
    execute function count_list_version('live_streams')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger playback_ids_list_version_deleted on playback_ids`.execute(db);
  await sql`drop trigger playback_ids_list_version on playback_ids`.execute(db);
  await sql`drop trigger simulcast_targets_list_version on simulcast_targets`.execute(db);
  await sql`drop trigger live_streams_list_version on live_streams`.execute(db);
  await sql`drop function count_list_version()`.execute(db);
  await sql`drop table list_versions`.execute(db);
}
