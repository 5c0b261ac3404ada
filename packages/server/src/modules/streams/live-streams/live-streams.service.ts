import type { CreateLiveStreamInput, CursorPageQuery, LiveStream, UpdateLiveStreamInput } from '@svc/contract';
import { LIVE_STREAM_LIMITS } from '@svc/contract';
import type { Transaction } from 'kysely';
import type { Executor } from '../../../db/database';
import type { DB } from '../../../db/schema';
import type { LiveStreamRow } from '../../../db/streams-live.schema';
import { isUniqueViolation } from '../../../core/db-errors';
import { ApiError } from '../../../core/errors';
import { expand } from '../../../core/expand';
import { isIdOf, newId } from '../../../core/ids';
import { asBody } from '../../../core/json-bytes';
import type { CursorPage } from '../../../core/pagination';
import type { Scope } from '../../../core/scope';
import type { VersionedPages } from '../../../core/versioned-pages';
import { callNetwork } from '../network/video-networks';
import type { VideoNetwork } from '../network/video-network';
import { addPlaybackId, removePlaybackIdsOf } from '../playback-ids/playback-id-rows';
import type { StreamsDeps } from '../streams-deps';
import { broadcastEnded } from './broadcast-hooks';
import { emitLiveStreamEvent, loadRelations } from './live-stream-events';
import { inBroadcast } from './live-stream-state';
import { lockLiveStream } from './live-stream-transitions';
import { useReplacedInput } from './replaced-live-input';
import * as repo from './live-streams.repository';
import { secretContext, serializeLiveStream } from './live-streams.serializer';
import { addTargetInTransaction } from './simulcast-targets.service';

const externalIdTaken = (err: unknown) =>
  isUniqueViolation(err, 'live_streams_external_id') ? ApiError.of('external_id_taken', { param: 'external_id' }) : err;

/** Streams as their own API responses show them (with the stream key), relations loaded in one go. */
export async function present(deps: Pick<StreamsDeps, 'secrets'>, db: Executor, scope: Scope, rows: LiveStreamRow[]): Promise<LiveStream[]> {
  const relations = await loadRelations(db, scope, rows.map((r) => r.id));
  return rows.map((r) => serializeLiveStream(r, relations.get(r.id)!, deps.secrets));
}

export const presentOne = async (deps: Pick<StreamsDeps, 'secrets'>, db: Executor, scope: Scope, row: LiveStreamRow) =>
  (await present(deps, db, scope, [row]))[0]!;

type LiveStreamPage = CursorPage<LiveStream>;

/** Live streams have no expandable fields yet: any `expand[]` path answers `400 invalid_expand_path`. */
const checkExpand = (paths: string[] | undefined) => expand([], paths, {});

export async function getLiveStream(deps: StreamsDeps, scope: Scope, id: string, expandPaths?: string[]): Promise<LiveStream> {
  await checkExpand(expandPaths);
  const row = isIdOf('live_stream', id) ? await repo.findLiveStream(deps.db, scope, id) : undefined;
  if (!row) throw ApiError.notFound('live stream', id);
  return presentOne(deps, deps.db, scope, row);
}

export async function getLiveStreamByExternalId(deps: StreamsDeps, scope: Scope, externalId: string, expandPaths?: string[]) {
  await checkExpand(expandPaths);
  const row = await repo.findLiveStreamByExternalId(deps.db, scope, externalId);
  if (!row) throw ApiError.notFound('live stream with external_id', externalId);
  return presentOne(deps, deps.db, scope, row);
}

/**
 * A page of streams, as its bytes: kept while the tenant's streams in this environment are unchanged (see
 * `VersionedPages`), since a dashboard asks for the same page again and again and a page is the costliest read of
 * Streams (a statement that builds each stream's JSON, its secrets opened, 20 KB written).
 */
export async function listLiveStreams(
  deps: StreamsDeps,
  pages: VersionedPages,
  scope: Scope,
  filters: { external_id?: string; metadata?: Record<string, string>; expand?: string[] },
  page: CursorPageQuery,
): Promise<LiveStreamPage> {
  await checkExpand(filters.expand);
  const metadata = filters.metadata && Object.entries(filters.metadata).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const query = [filters.external_id ?? null, metadata ?? null, page.limit, page.cursor ?? null, page.starting_after ?? null, page.ending_before ?? null];
  const bytes = await pages.read(scope, query, async () => {
    const result = await repo.listLiveStreams(deps.db, scope, filters, page);
    const data = result.data.map((r) => serializeLiveStream(r, { targets: r.shown_targets, playbackIds: r.shown_playback_ids }, deps.secrets));
    return { ...result, data };
  });
  return asBody<LiveStreamPage>(bytes);
}

/**
 * The network makes the live input first (a refusal creates nothing); the stream, its playback id and its
 * simulcast targets are then written with `streams.live_stream.created` in one transaction. If that fails the
 * live input is deleted again.
 */
export async function createLiveStream(deps: StreamsDeps, scope: Scope, input: CreateLiveStreamInput): Promise<LiveStream> {
  const network = await deps.videoNetworks.forNewObject(deps.db, scope);
  const settings = {
    latencyMode: input.latency_mode ?? 'low',
    reconnectWindow: input.reconnect_window ?? LIVE_STREAM_LIMITS.reconnectWindow.default,
    audioOnly: input.audio_only ?? false,
  };
  const liveInput = await callNetwork(() => network.createLiveInput(settings));
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const id = newId('live_stream');
      const now = deps.now();
      await repo.insertLiveStream(trx, scope, {
        id,
        status: 'idle',
        provider: network.provider,
        provider_ref: liveInput.providerRef,
        latency_mode: settings.latencyMode,
        reconnect_window: settings.reconnectWindow,
        audio_only: settings.audioOnly,
        playback_policy: input.playback_policy ?? 'signed',
        stream_key_sealed: deps.secrets.encrypt(liveInput.streamKey, secretContext(id, 'stream_key')),
        srt_passphrase_sealed: liveInput.srtPassphrase
          ? deps.secrets.encrypt(liveInput.srtPassphrase, secretContext(id, 'srt_passphrase'))
          : null,
        ingest: JSON.stringify(liveInput.ingest),
        health: JSON.stringify({ status: 'healthy', network: network.provider, reason: null, changed_at: now.toISOString() }),
        external_id: input.external_id ?? null,
        metadata: JSON.stringify(input.metadata ?? {}),
        created_at: now,
        updated_at: now,
      });
      await addPlaybackId(trx, scope, { live_stream_id: id, policy: input.playback_policy ?? 'signed' });
      for (const target of input.simulcast_targets ?? []) {
        await addTargetInTransaction(trx, deps, scope, { id, provider_ref: liveInput.providerRef }, network, target);
      }
      const row = await emitLiveStreamEvent(trx, scope, id, 'streams.live_stream.created');
      return presentOne(deps, trx, scope, row);
    });
  } catch (err) {
    await network.deleteLiveInput(liveInput.providerRef).catch(() => {});
    throw externalIdTaken(err);
  }
}

/** Only fields that really change are written and reported in `previous_attributes`. */
export async function updateLiveStream(deps: StreamsDeps, scope: Scope, id: string, input: UpdateLiveStreamInput): Promise<LiveStream> {
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const row = await lockLiveStream(trx, scope, id);
      const changed: Partial<Pick<LiveStreamRow, 'latency_mode' | 'reconnect_window' | 'metadata' | 'external_id'>> = {};
      if (input.latency_mode !== undefined && input.latency_mode !== row.latency_mode) changed.latency_mode = input.latency_mode;
      if (input.reconnect_window !== undefined && input.reconnect_window !== row.reconnect_window) changed.reconnect_window = input.reconnect_window;
      if (input.metadata !== undefined && JSON.stringify(input.metadata) !== JSON.stringify(row.metadata)) changed.metadata = input.metadata;
      if (input.external_id !== undefined && input.external_id !== row.external_id) changed.external_id = input.external_id;
      if (Object.keys(changed).length === 0) return presentOne(deps, trx, scope, row);

      if (changed.latency_mode !== undefined || changed.reconnect_window !== undefined) {
        const network = deps.videoNetworks.byProvider(row.provider);
        await callNetwork(() =>
          network.updateLiveInput(row.provider_ref, {
            latencyMode: changed.latency_mode ?? row.latency_mode,
            reconnectWindow: changed.reconnect_window ?? row.reconnect_window,
            audioOnly: row.audio_only,
          }),
        );
      }
      const { metadata, ...columns } = changed;
      await repo.updateLiveStream(trx, scope, row.id, {
        ...columns,
        ...(metadata !== undefined && { metadata: JSON.stringify(metadata) }),
      });
      const previous = Object.fromEntries(Object.keys(changed).map((k) => [k, row[k as keyof typeof changed]]));
      const updated = await emitLiveStreamEvent(trx, scope, row.id, 'streams.live_stream.updated', { ...previous, status: row.status });
      return presentOne(deps, trx, scope, updated);
    });
  } catch (err) {
    throw externalIdTaken(err);
  }
}

/** The new key works at once and the old one stops: the encoder check reads the sealed key of this row. */
export async function resetStreamKey(deps: StreamsDeps, scope: Scope, id: string): Promise<LiveStream> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockLiveStream(trx, scope, id);
    const network = deps.videoNetworks.byProvider(row.provider);
    const fresh = await callNetwork(() => network.resetStreamKey(row.provider_ref));
    await repo.updateLiveStream(trx, scope, row.id, {
      stream_key_sealed: deps.secrets.encrypt(fresh.streamKey, secretContext(row.id, 'stream_key')),
      srt_passphrase_sealed: fresh.srtPassphrase
        ? deps.secrets.encrypt(fresh.srtPassphrase, secretContext(row.id, 'srt_passphrase'))
        : null,
    });
    if (fresh.replacement) await useReplacedInput(trx, scope, row.id, fresh.replacement);
    const updated = await emitLiveStreamEvent(trx, scope, row.id, 'streams.live_stream.updated', { status: row.status });
    return presentOne(deps, trx, scope, updated);
  });
}

/**
 * Ends any broadcast, deletes the live input at the network, removes the playback ids (links stop) and
 * simulcast targets, and marks the row deleted; `streams.live_stream.deleted` carries the stream as it was.
 */
export async function deleteLiveStream(deps: StreamsDeps, scope: Scope, id: string): Promise<LiveStream> {
  return deps.db.transaction().execute(async (trx: Transaction<DB>) => {
    const row = await lockLiveStream(trx, scope, id);
    const now = deps.now();
    if (inBroadcast(row.status)) {
      await broadcastEnded(trx, deps, scope, row, row.status === 'disconnected' ? row.disconnected_at ?? now : now);
    }
    const shown = await presentOne(deps, trx, scope, row);
    const last = await emitLiveStreamEvent(trx, scope, row.id, 'streams.live_stream.deleted', { status: row.status });
    await removePlaybackIdsOf(trx, scope, { liveStreamId: row.id });
    await repo.deleteSimulcastTargets(trx, scope, row.id);
    await repo.updateLiveStream(trx, scope, row.id, { deleted_at: now, reconnect_deadline: null });
    // Last, so a network that fails rolls the whole deletion back.
    const network: VideoNetwork = deps.videoNetworks.byProvider(row.provider);
    await callNetwork(() => network.deleteLiveInput(row.provider_ref));
    return { ...shown, sequence: Number(last.sequence) };
  });
}
