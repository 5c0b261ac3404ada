import type { Transaction } from 'kysely';
import type { Asset } from '@svc/contract';
import type { DB } from '../../../db/schema';
import { ApiError } from '../../../core/errors';
import type { Scope } from '../../../core/scope';
import { z } from 'zod';
import { defineJob } from '../../../jobs/job-definition';
import { jobOf, sendInTransaction } from '../../../jobs/send-in-transaction';
import type { VideoNetwork } from '../network/video-network';
import { settleMomentClips } from '../moments/moment-clips';
import * as repo from './assets.repository';
import { emitAssetEvent, type AssetRow } from './assets.serializer';
import type { MediaDeps } from './media-deps';

/** Length the simulated network gives a file it cannot measure (a URL or an upload) unless told otherwise. */
export const SIMULATED_DEFAULT_DURATION_S = 60;

export type ProcessingOutcome = { event: 'ready'; duration: number } | { event: 'errored'; error: string };

/**
 * The asset state machine's only moves: `preparing` → `ready` (`streams.asset.ready`) or `errored` with
 * `error` (`streams.asset.errored`). `row` must be locked by the caller's transaction.
 */
export async function finishProcessing(trx: Transaction<DB>, scope: Scope, row: AssetRow, outcome: ProcessingOutcome): Promise<Asset> {
  if (row.status !== 'preparing') {
    throw ApiError.of('invalid_state_transition', {
      message: `The asset is already ${row.status}; only a preparing asset can become ${outcome.event}.`,
      details: { status: row.status, event: outcome.event },
    });
  }
  const updated = await repo.updateAsset(
    trx,
    scope,
    row.id,
    outcome.event === 'ready' ? { status: 'ready', duration: outcome.duration, error: null } : { status: 'errored', error: outcome.error },
  );
  const previous: Record<string, unknown> = { status: row.status };
  if (outcome.event === 'ready' && row.duration !== outcome.duration) previous.duration = row.duration;
  if (outcome.event === 'errored') previous.error = row.error;
  const asset = await emitAssetEvent(trx, scope, outcome.event === 'ready' ? 'streams.asset.ready' : 'streams.asset.errored', updated, previous);
  await settleMomentClips(trx, scope, updated);
  return asset;
}

/** Test mode: a created asset becomes `ready` by itself `SVC_SIMULATED_ASSET_DELAY_MS` after it was made. */
export const finishSimulatedAssetJobType = defineJob({
  name: 'streams-finish-simulated-asset',
  version: 1,
  payload: z.object({ tenant_id: z.string(), livemode: z.boolean(), asset_id: z.string() }),
  retry: { limit: 2 },
  expireInSeconds: 30,
});
export type FinishSimulatedAssetJob = z.infer<typeof finishSimulatedAssetJobType.payload>;

/**
 * After creating an asset: a network that answered `ready` is followed at once; the simulated network's
 * processing is played by a delayed job (a real network reports by webhook instead).
 */
export async function afterNetworkCreated(
  trx: Transaction<DB>,
  deps: MediaDeps,
  scope: Scope,
  row: AssetRow,
  network: VideoNetwork,
  created: { status: 'preparing' | 'ready'; duration: number | null },
): Promise<Asset | null> {
  if (created.status === 'ready') {
    return finishProcessing(trx, scope, row, { event: 'ready', duration: created.duration ?? SIMULATED_DEFAULT_DURATION_S });
  }
  if (network.processingJob) {
    const data: FinishSimulatedAssetJob = { tenant_id: scope.tenantId, livemode: scope.livemode, asset_id: row.id };
    await sendInTransaction(trx, [jobOf(network.processingJob, data)]);
  }
  if (network.simulatesProcessing) {
    const data: FinishSimulatedAssetJob = { tenant_id: scope.tenantId, livemode: scope.livemode, asset_id: row.id };
    await sendInTransaction(trx, [jobOf(finishSimulatedAssetJobType, data, deps.config.SVC_SIMULATED_ASSET_DELAY_MS / 1000)]);
  }
  return null;
}

/** The job: the simulated network finished preparing. Safe to run twice; a helper or a delete may have come first. */
export async function finishSimulatedAsset(deps: Pick<MediaDeps, 'db'>, job: FinishSimulatedAssetJob): Promise<void> {
  const scope = { tenantId: job.tenant_id, livemode: job.livemode };
  await deps.db.transaction().execute(async (trx) => {
    const row = await repo.findAsset(trx, scope, job.asset_id, { forUpdate: true });
    if (!row || row.status !== 'preparing') return;
    await finishProcessing(trx, scope, row, { event: 'ready', duration: row.duration ?? SIMULATED_DEFAULT_DURATION_S });
  });
}
