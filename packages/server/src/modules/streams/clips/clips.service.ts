import type { Transaction } from 'kysely';
import type { z } from 'zod';
import type { Asset, Clip, CreateClipSchema } from '@svc/contract';
import type { Executor } from '../../../db/database';
import type { DB } from '../../../db/schema';
import { emitEvent } from '../../../core/events/emit-event';
import { ApiError } from '../../../core/errors';
import { isIdOf, newId } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import { callNetwork } from '../network/video-networks';
import { addPlaybackId } from '../playback-ids/playback-id-rows';
import { afterNetworkCreated } from '../assets/asset-processing';
import { emitAssetEvent, type AssetRow } from '../assets/assets.serializer';
import { addAsset, getAssetRow } from '../assets/assets.service';
import type { MediaDeps } from '../assets/media-deps';
import * as repo from './clips.repository';
import { serializeClip } from './clips.serializer';

type CreateClipInput = z.infer<typeof CreateClipSchema>;

export interface CutInput {
  /** The network's id of what is cut: the source asset, or the recording the network reports. */
  sourceRef: string;
  startTime: number;
  endTime: number;
  playbackPolicy: 'signed' | 'public';
  generatedSubtitles: string | null;
  momentId: string | null;
}

/**
 * Cuts a clip on the network and records it: a new asset (`source: clip`) and the clip describing the cut.
 * Emits `streams.asset.created` and `streams.clip.created`, then `streams.asset.ready` when the network
 * finished at once. Shared by the clips route and the moment clip pipeline.
 */
export async function cutClip(
  trx: Transaction<DB>,
  deps: MediaDeps,
  scope: Scope,
  source: AssetRow,
  cut: CutInput,
): Promise<{ asset: Asset; assetRow: AssetRow; clip: Clip }> {
  const network = deps.networks.byProvider(source.provider);
  const created = await callNetwork(() => network.createClip({ sourceRef: cut.sourceRef, startTime: cut.startTime, endTime: cut.endTime }));
  const clipId = newId('clip');
  const row = await addAsset(trx, scope, {
    id: newId('asset'),
    status: 'preparing',
    source: 'clip',
    provider: source.provider,
    provider_asset_id: created.providerRef,
    audio_only: source.audio_only,
    playback_policy: cut.playbackPolicy,
    generated_subtitles: cut.generatedSubtitles,
    clip_id: clipId,
    metadata: '{}',
  });
  const clipRow = await repo.insertClip(trx, scope, {
    id: clipId,
    asset_id: row.id,
    source_asset_id: source.id,
    start_time: cut.startTime,
    end_time: cut.endTime,
    moment_id: cut.momentId,
  });
  await addPlaybackId(trx, scope, { asset_id: row.id, policy: cut.playbackPolicy });
  let asset = await emitAssetEvent(trx, scope, 'streams.asset.created', row);
  const clip = serializeClip({ ...clipRow, status: 'preparing' });
  await emitEvent(trx, scope, { type: 'streams.clip.created', subject: clip.id, object: clip });
  asset = (await afterNetworkCreated(trx, deps, scope, row, network, created)) ?? asset;
  return { asset, assetRow: row, clip: { ...clip, status: asset.status } };
}

/** `POST /v1/streams/assets/{id}/clips`: only from a `ready` asset, inside it, and without `aspect`. */
export async function createClip(deps: MediaDeps, scope: Scope, sourceId: string, input: CreateClipInput): Promise<Asset> {
  return deps.db.transaction().execute(async (trx) => {
    const source = await getAssetRow(trx, scope, sourceId, true);
    if (input.aspect !== undefined) {
      throw ApiError.of('aspect_not_supported', { message: `Clips with aspect ${input.aspect} are not supported yet.`, param: 'aspect' });
    }
    if (source.status !== 'ready') {
      throw ApiError.of('asset_not_ready', { message: `The asset is ${source.status}; clips are cut from ready assets only.`, details: { status: source.status } });
    }
    const duration = source.duration ?? 0;
    if (input.end_time > duration) {
      throw ApiError.of('validation_failed', {
        message: `\`end_time\` must be inside the asset (at most ${duration} seconds).`,
        param: 'end_time',
        details: { end_time: [`Must be at most the asset's duration, ${duration} seconds.`] },
      });
    }
    const { asset } = await cutClip(trx, deps, scope, source, {
      sourceRef: source.provider_asset_id ?? source.id,
      startTime: input.start_time,
      endTime: input.end_time,
      playbackPolicy: input.playback_policy ?? 'signed',
      generatedSubtitles: input.generated_subtitles ?? null,
      momentId: null,
    });
    return asset;
  });
}

export async function getClip(db: Executor, scope: Scope, id: string): Promise<Clip> {
  const row = isIdOf('clip', id) ? await repo.findClip(db, scope, id) : undefined;
  if (!row) throw ApiError.notFound('clip', id);
  return serializeClip(row);
}
