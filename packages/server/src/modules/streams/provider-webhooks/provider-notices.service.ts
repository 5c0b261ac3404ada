import type { Transaction } from 'kysely';
import type { AppContext } from '../../../core/context';
import type { DB } from '../../../db/schema';
import type { ProviderConfigRow } from '../../../db/provider-configs.schema';
import type { LiveStreamRow } from '../../../db/streams-live.schema';
import { ApiError } from '../../../core/errors';
import { isIdOf } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import { finishProcessing } from '../assets/asset-processing';
import { mediaDeps } from '../assets/media-deps';
import { applySignal } from '../live-streams/live-stream-transitions';
import type { LiveStreamSignal } from '../live-streams/live-stream-state';
import type { InboundNotice } from '../network/external/inbound-notices';
import { receiveUpload } from '../uploads/uploads.service';
import { streamsDeps, type StreamsDeps } from '../streams-deps';
import * as repo from './provider-notices.repository';

export type NoticeOutcome = 'applied' | 'duplicate' | 'unchanged';

/**
 * What a live-input notice does to the stream, as the simulated network's helpers would: an encoder that
 * connects is sending video (`connected`, then `active`); one that drops, or whose feed the account refuses
 * (outside the account's constraints), leaves the stream `disconnected` for its reconnect window.
 */
const SIGNALS: Record<'connected' | 'disconnected' | 'errored', LiveStreamSignal[]> = {
  connected: ['connected', 'active'],
  disconnected: ['disconnected'],
  errored: ['disconnected'],
};

/** A move the state table refuses (a report arriving late or out of order) changes nothing and is not an error. */
async function signal(trx: Transaction<DB>, deps: StreamsDeps, scope: Scope, row: LiveStreamRow, s: LiveStreamSignal) {
  try {
    return { row: await applySignal(trx, deps, scope, row, s), moved: true };
  } catch (err) {
    if (err instanceof ApiError && (err.code === 'invalid_state_transition' || err.code === 'stream_disabled')) return { row, moved: false };
    throw err;
  }
}

async function applyLiveInput(trx: Transaction<DB>, deps: StreamsDeps, scope: Scope, provider: string, n: Extract<InboundNotice, { kind: 'live_input' }>) {
  let row = await repo.lockStreamByRef(trx, scope, provider, n.inputRef);
  if (!row) throw ApiError.notFound('live stream');
  let moved = false;
  for (const s of SIGNALS[n.event]) {
    const step = await signal(trx, deps, scope, row, s);
    row = step.row;
    moved ||= step.moved;
  }
  return moved;
}

async function applyVideo(trx: Transaction<DB>, scope: Scope, provider: string, n: Extract<InboundNotice, { kind: 'video' }>) {
  let asset = await repo.lockAssetByRef(trx, scope, provider, n.videoRef);
  if (!asset && n.liveInputRef) {
    const recording = await repo.lockUnmatchedRecording(trx, scope, provider, n.liveInputRef);
    if (recording) {
      await trx.updateTable('assets').set({ provider_asset_id: n.videoRef }).where('id', '=', recording.id).execute();
      asset = { ...recording, provider_asset_id: n.videoRef };
    }
  }
  if (!asset) throw ApiError.notFound('asset');
  if (asset.status !== 'preparing' || n.state === 'processing') return false;
  await finishProcessing(
    trx,
    scope,
    asset,
    n.state === 'ready' ? { event: 'ready', duration: n.duration ?? asset.duration ?? 0 } : { event: 'errored', error: n.error ?? 'Processing failed.' },
  );
  return true;
}

/**
 * Takes one verified notice: recorded by the provider's id and applied in one transaction, so a replay finds
 * the record and changes nothing, and a refusal (an object this tenant and environment does not own) leaves
 * no record. A direct upload's file arriving makes its asset first, as the upload receiver does.
 */
export async function applyNotice(ctx: AppContext, config: ProviderConfigRow, n: InboundNotice): Promise<NoticeOutcome> {
  const scope = { tenantId: config.tenant_id, livemode: config.livemode };
  const deps = streamsDeps(ctx);
  if (n.kind === 'video' && n.state !== 'processing') {
    const upload = await repo.findWaitingUpload(ctx.db, scope, config.provider, n.videoRef);
    if (upload) await receiveUpload(mediaDeps(ctx), upload, n.size ?? 0).catch(ignoreUsedUpload);
  }
  return ctx.db.transaction().execute(async (trx) => {
    const subject = n.kind === 'video' ? n.videoRef : n.inputRef;
    if (!(await repo.recordNotice(trx, config.id, n.id, n.kind, subject))) return 'duplicate';
    const moved = n.kind === 'live_input' ? await applyLiveInput(trx, deps, scope, config.provider, n) : await applyVideo(trx, scope, config.provider, n);
    return moved ? 'applied' : 'unchanged';
  });
}

/** Two deliveries about one upload at once: the second finds the file already taken. */
function ignoreUsedUpload(err: unknown): void {
  if (!(err instanceof ApiError && err.code === 'upload_url_used')) throw err;
}

/** The configuration an inbound address names, on the provider the address names; anything else is `404`. */
export async function configForInbound(ctx: AppContext, provider: string, id: string): Promise<ProviderConfigRow> {
  const row = isIdOf('provider_configuration', id)
    ? await ctx.db.selectFrom('provider_configs').selectAll().where('id', '=', id).executeTakeFirst()
    : undefined;
  if (!row || row.provider !== provider) throw ApiError.notFound('provider configuration', id);
  return row;
}
