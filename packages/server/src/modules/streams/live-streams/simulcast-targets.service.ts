import type { SimulcastTarget } from '@svc/contract';
import { LIVE_STREAM_LIMITS } from '@svc/contract';
import type { Transaction } from 'kysely';
import type { DB } from '../../../db/schema';
import type { LiveStreamRow } from '../../../db/streams-live.schema';
import { ApiError } from '../../../core/errors';
import { isIdOf, newId } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import { callNetwork } from '../network/video-networks';
import type { SimulcastTargetInput, VideoNetwork } from '../network/video-network';
import type { StreamsDeps } from '../streams-deps';
import { emitLiveStreamEvent } from './live-stream-events';
import { lockLiveStream } from './live-stream-transitions';
import * as repo from './live-streams.repository';
import { serializeSimulcastTarget } from './live-streams.serializer';

/** The target's own stream key, sealed and bound to the target. */
export const targetKeyContext = (targetId: string) => `${targetId}:stream_key`;

/**
 * Asks the network to add the target and stores it whatever the answer: a rejected target is kept with
 * `status: errored` and the network's reason, and the stream goes on without it.
 */
export async function addTargetInTransaction(
  trx: Transaction<DB>,
  deps: StreamsDeps,
  scope: Scope,
  stream: Pick<LiveStreamRow, 'id' | 'provider_ref'>,
  network: VideoNetwork,
  target: { url: string; stream_key: string },
) {
  const input: SimulcastTargetInput = { url: target.url, streamKey: target.stream_key };
  const result = await callNetwork(() => network.addSimulcastTarget(stream.provider_ref, input));
  const id = newId('simulcast_target');
  return repo.insertSimulcastTarget(trx, scope, {
    id,
    live_stream_id: stream.id,
    url: target.url,
    stream_key_sealed: deps.secrets.encrypt(target.stream_key, targetKeyContext(id)),
    status: result.status,
    error: result.status === 'errored' ? result.error : null,
    provider_ref: result.providerRef,
    created_at: deps.now(),
  });
}

export async function addSimulcastTarget(
  deps: StreamsDeps,
  scope: Scope,
  liveStreamId: string,
  target: { url: string; stream_key: string },
): Promise<SimulcastTarget> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockLiveStream(trx, scope, liveStreamId);
    const existing = await repo.listSimulcastTargets(trx, scope, [row.id]);
    const max = LIVE_STREAM_LIMITS.maxSimulcastTargets;
    if (existing.length >= max) {
      throw ApiError.of('validation_failed', {
        message: `A live stream has at most ${max} simulcast targets; remove one first.`,
        param: 'simulcast_targets',
        details: { simulcast_targets: [`At most ${max} simulcast targets per stream.`] },
      });
    }
    const network = deps.videoNetworks.byProvider(row.provider);
    const created = await addTargetInTransaction(trx, deps, scope, row, network, target);
    await emitLiveStreamEvent(trx, scope, row.id, 'streams.live_stream.updated', {
      status: row.status,
      simulcast_targets: existing.map(serializeSimulcastTarget),
    });
    return serializeSimulcastTarget(created);
  });
}

export async function removeSimulcastTarget(
  deps: StreamsDeps,
  scope: Scope,
  liveStreamId: string,
  targetId: string,
): Promise<SimulcastTarget> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockLiveStream(trx, scope, liveStreamId);
    const target = isIdOf('simulcast_target', targetId) ? await repo.findSimulcastTarget(trx, scope, row.id, targetId) : undefined;
    if (!target) throw ApiError.notFound('simulcast target', targetId);
    const before = await repo.listSimulcastTargets(trx, scope, [row.id]);
    if (target.provider_ref) {
      const network = deps.videoNetworks.byProvider(row.provider);
      await callNetwork(() => network.removeSimulcastTarget(row.provider_ref, target.provider_ref!));
    }
    await repo.deleteSimulcastTargets(trx, scope, row.id, [target.id]);
    await emitLiveStreamEvent(trx, scope, row.id, 'streams.live_stream.updated', {
      status: row.status,
      simulcast_targets: before.map(serializeSimulcastTarget),
    });
    return serializeSimulcastTarget(target);
  });
}
