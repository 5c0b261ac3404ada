import type { z } from 'zod';
import type { Asset, CreateAssetSchema, CursorPageQuery, SimulateAssetSchema, UpdateAssetSchema } from '@svc/contract';
import type { Executor } from '../../../db/database';
import { isUniqueViolation } from '../../../core/db-errors';
import { ApiError } from '../../../core/errors';
import { isIdOf, newId } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import { callNetwork } from '../network/video-networks';
import { addPlaybackId } from '../playback-ids/playback-id-rows';
import { afterNetworkCreated, finishProcessing, SIMULATED_DEFAULT_DURATION_S } from './asset-processing';
import * as repo from './assets.repository';
import { emitAssetEvent, presentAsset, presentAssets, type AssetRow } from './assets.serializer';
import type { MediaDeps } from './media-deps';

type CreateAssetInput = z.infer<typeof CreateAssetSchema>;
type UpdateAssetInput = z.infer<typeof UpdateAssetSchema>;
type SimulateAssetInput = z.infer<typeof SimulateAssetSchema>;

export const externalIdTaken = (err: unknown) =>
  isUniqueViolation(err, 'assets_external_id') ? ApiError.of('external_id_taken', { param: 'external_id' }) : err;

/** The asset, or `404` for another tenant's, another environment's, a deleted one or an id that is not an asset's. */
export async function getAssetRow(db: Executor, scope: Scope, id: string, forUpdate = false): Promise<AssetRow> {
  const row = isIdOf('asset', id) ? await repo.findAsset(db, scope, id, { forUpdate }) : undefined;
  if (!row) throw ApiError.notFound('asset', id);
  return row;
}

/** Playback refuses an asset that is not `ready`. */
export function assertAssetPlayable(row: Pick<AssetRow, 'id' | 'status'>): void {
  if (row.status !== 'ready') {
    throw ApiError.of('asset_not_ready', { message: `The asset ${row.id} is ${row.status}, not ready to play.`, details: { status: row.status } });
  }
}

export async function getAsset(db: Executor, scope: Scope, id: string): Promise<Asset> {
  return presentAsset(db, scope, await getAssetRow(db, scope, id));
}

export async function getAssetByExternalId(db: Executor, scope: Scope, externalId: string): Promise<Asset> {
  const row = await repo.findAssetByExternalId(db, scope, externalId);
  if (!row) throw ApiError.notFound('asset with external_id', externalId);
  return presentAsset(db, scope, row);
}

export async function listAssets(db: Executor, scope: Scope, filters: repo.AssetFilters, page: CursorPageQuery) {
  const result = await repo.listAssets(db, scope, filters, page);
  return { ...result, data: await presentAssets(db, scope, result.data) };
}

/** The network fetches the file; the asset is `preparing` until it reports (in test mode, a delayed job plays the network). */
export async function createAsset(deps: MediaDeps, scope: Scope, input: CreateAssetInput): Promise<Asset> {
  const network = await deps.networks.forNewObject(deps.db, scope);
  if (input.external_id && (await repo.findAssetByExternalId(deps.db, scope, input.external_id))) {
    throw ApiError.of('external_id_taken', { param: 'external_id' });
  }
  const policy = input.playback_policy ?? 'signed';
  const created = await callNetwork(() =>
    network.createAssetFromUrl({ url: input.url, playbackPolicy: policy, generatedSubtitles: input.generated_subtitles ?? null }),
  );
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const row = await repo.insertAsset(trx, scope, {
        id: newId('asset'),
        status: 'preparing',
        source: 'url',
        provider: network.provider,
        provider_asset_id: created.providerRef,
        source_url: input.url,
        playback_policy: policy,
        generated_subtitles: input.generated_subtitles ?? null,
        external_id: input.external_id ?? null,
        metadata: JSON.stringify(input.metadata ?? {}),
      });
      await addPlaybackId(trx, scope, { asset_id: row.id, policy });
      const asset = await emitAssetEvent(trx, scope, 'streams.asset.created', row);
      return (await afterNetworkCreated(trx, deps, scope, row, network, created)) ?? asset;
    });
  } catch (err) {
    // The network made an asset the service could not record (a racing external_id): do not leave it stored there.
    await network.deleteAsset(created.providerRef).catch(() => {});
    throw externalIdTaken(err);
  }
}

export async function updateAsset(deps: MediaDeps, scope: Scope, id: string, input: UpdateAssetInput): Promise<Asset> {
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const row = await getAssetRow(trx, scope, id, true);
      const changes: repo.AssetChanges = {};
      const previous: Record<string, unknown> = {};
      if (input.metadata !== undefined) {
        const metadata = input.metadata ?? {};
        if (JSON.stringify(metadata) !== JSON.stringify(row.metadata)) {
          changes.metadata = JSON.stringify(metadata);
          previous.metadata = row.metadata;
        }
      }
      if (input.external_id !== undefined && input.external_id !== row.external_id) {
        changes.external_id = input.external_id;
        previous.external_id = row.external_id;
      }
      if (Object.keys(changes).length === 0) return presentAsset(trx, scope, row);
      const updated = await repo.updateAsset(trx, scope, id, changes);
      return emitAssetEvent(trx, scope, 'streams.asset.updated', updated, previous);
    });
  } catch (err) {
    throw externalIdTaken(err);
  }
}

/** Deletes the media on the network first (its stored minutes are released at once), then hides the asset. */
export async function deleteAsset(deps: MediaDeps, scope: Scope, id: string): Promise<Asset> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await getAssetRow(trx, scope, id, true);
    if (row.provider_asset_id) {
      const network = deps.networks.byProvider(row.provider);
      await callNetwork(() => network.deleteAsset(row.provider_asset_id!));
    }
    const deleted = await repo.updateAsset(trx, scope, id, { deleted_at: deps.now() });
    return emitAssetEvent(trx, scope, 'streams.asset.deleted', deleted);
  });
}

/** Test helper: finishes simulated processing now, through the same state machine and events as the network. */
export async function simulateAsset(deps: MediaDeps, scope: Scope, id: string, input: SimulateAssetInput): Promise<Asset> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await getAssetRow(trx, scope, id, true);
    if (row.source === 'recording' && row.recording_ended_at === null && row.status === 'preparing') {
      throw ApiError.of('invalid_state_transition', {
        message: 'The recording is still growing; its broadcast must end before it can be finished.',
        details: { status: row.status, event: input.event },
      });
    }
    return finishProcessing(
      trx,
      scope,
      row,
      input.event === 'ready'
        ? { event: 'ready', duration: input.duration ?? row.duration ?? SIMULATED_DEFAULT_DURATION_S }
        : { event: 'errored', error: input.error ?? 'The simulated network could not process the file.' },
    );
  });
}

/** Inserts an asset another Streams resource makes (a clip, an upload's file), in the caller's transaction. */
export const addAsset = (trx: Executor, scope: Scope, row: Parameters<typeof repo.insertAsset>[2]) => repo.insertAsset(trx, scope, row);
