import type { Transaction } from 'kysely';
import type { DB } from '../../../db/schema';
import type { LiveStreamRow } from '../../../db/streams-live.schema';
import { newId } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import type { VideoNetworks } from '../network/video-networks';
import { addPlaybackId } from '../playback-ids/playback-id-rows';
import { jobOf, sendInTransaction } from '../../../jobs/send-in-transaction';
import { finishProcessing } from './asset-processing';
import * as repo from './assets.repository';
import { emitAssetEvent, type AssetRow } from './assets.serializer';

/**
 * Step 1 of the moment clip pipeline: when a stream goes live its broadcast is saved as an asset
 * (`source: recording`) that notes the clock time of its first frame. Called by the live-stream state
 * machine inside the transaction that makes the stream `active`. A reconnect inside the window continues
 * the open recording, so this returns it instead of starting another.
 */
export async function startRecording(
  trx: Transaction<DB>,
  scope: Scope,
  liveStream: Pick<LiveStreamRow, 'id' | 'provider' | 'audio_only' | 'playback_policy'>,
  firstFrameAt: Date,
): Promise<AssetRow> {
  const open = await repo.findOpenRecording(trx, scope, liveStream.id, { forUpdate: true });
  if (open) return open;
  const row = await repo.insertAsset(trx, scope, {
    id: newId('asset'),
    status: 'preparing',
    source: 'recording',
    provider: liveStream.provider,
    audio_only: liveStream.audio_only,
    playback_policy: liveStream.playback_policy,
    live_stream_id: liveStream.id,
    recording_started_at: firstFrameAt,
    metadata: '{}',
  });
  await addPlaybackId(trx, scope, { asset_id: row.id, policy: liveStream.playback_policy });
  await emitAssetEvent(trx, scope, 'streams.asset.created', row);
  return row;
}

/**
 * The broadcast ended (reconnect window over, `complete`, disable or delete): the recording stops at its last
 * frame. A network that has the recording ready at once (the simulated one) makes it `ready` here; others
 * report later. Without an open recording this does nothing.
 */
export async function endRecording(
  trx: Transaction<DB>,
  networks: VideoNetworks,
  scope: Scope,
  liveStream: Pick<LiveStreamRow, 'id' | 'provider' | 'provider_ref'>,
  lastFrameAt: Date,
): Promise<AssetRow | null> {
  const open = await repo.findOpenRecording(trx, scope, liveStream.id, { forUpdate: true });
  if (!open) return null;
  const startedAt = open.recording_started_at!;
  const endedAt = lastFrameAt < startedAt ? startedAt : lastFrameAt;
  const duration = (endedAt.getTime() - startedAt.getTime()) / 1000;
  const network = networks.byProvider(open.provider);
  const recording = await network.getRecording(liveStream.provider_ref, startedAt).catch(() => null);
  let row = await repo.updateAsset(trx, scope, open.id, {
    recording_ended_at: endedAt,
    duration,
    provider_asset_id: recording?.providerRef ?? open.provider_asset_id,
  });
  if (recording?.status === 'preparing' && network.processingJob) {
    await sendInTransaction(trx, [jobOf(network.processingJob, { tenant_id: scope.tenantId, livemode: scope.livemode, asset_id: row.id })]);
  }
  if (recording?.status === 'ready' && row.status === 'preparing') {
    await finishProcessing(trx, scope, row, { event: 'ready', duration });
    row = (await repo.findAsset(trx, scope, row.id))!;
  }
  return row;
}

/** The recording a live stream is making now, if any (moments mark their place in it). */
export const openRecordingOf = (trx: Transaction<DB>, scope: Scope, liveStreamId: string) => repo.findOpenRecording(trx, scope, liveStreamId);

/** The stream's recordings that overlap the window (a moment's clip is cut from one). */
export const recordingsOverlapping = (trx: Transaction<DB>, scope: Scope, liveStreamId: string, from: Date, to: Date) =>
  repo.findRecordingsOverlapping(trx, scope, liveStreamId, from, to);
