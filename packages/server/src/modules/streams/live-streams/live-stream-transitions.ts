import type { Transaction, Updateable } from 'kysely';
import type { DB } from '../../../db/schema';
import type { LiveStreamRow, LiveStreamsTable } from '../../../db/streams-live.schema';
import { ApiError } from '../../../core/errors';
import { isIdOf } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import { z } from 'zod';
import { defineJob } from '../../../jobs/job-definition';
import { jobOf, sendInTransaction } from '../../../jobs/send-in-transaction';
import { callNetwork } from '../network/video-networks';
import type { StreamsDeps } from '../streams-deps';
import { broadcastEnded, broadcastStarted } from './broadcast-hooks';
import { emitLiveStreamEvent } from './live-stream-events';
import { inBroadcast, transition, type LiveStreamSignal } from './live-stream-state';
import * as repo from './live-streams.repository';

/** Payload of the reconnect-window job; the job rechecks everything, so a stale one is harmless. */
const ReconnectWindowSchema = z.object({ tenantId: z.string(), livemode: z.boolean(), liveStreamId: z.string() });
export type ReconnectWindowJob = z.infer<typeof ReconnectWindowSchema>;

/** A disconnected stream's deadline; the same queue's cron runs carry no stream (`{}`) and sweep every stream. */
export const liveStreamReconnectWindow = defineJob({
  name: 'streams-live-stream-reconnect-window',
  version: 1,
  payload: ReconnectWindowSchema.partial(),
  retry: { limit: 2 },
  expireInSeconds: 60,
  schedule: '* * * * *',
});

/** The tenant's actions reach the network's edge; the network's own reports need no call back. */
async function tellNetwork(deps: StreamsDeps, row: LiveStreamRow, signal: LiveStreamSignal): Promise<void> {
  const network = deps.videoNetworks.byProvider(row.provider);
  if (signal === 'disable') await callNetwork(() => network.setLiveInputEnabled(row.provider_ref, false));
  if (signal === 'enable') await callNetwork(() => network.setLiveInputEnabled(row.provider_ref, true));
  if (signal === 'complete') await callNetwork(() => network.completeLiveInput(row.provider_ref));
}

/**
 * Applies one signal to a locked stream row: checks the state table, updates the row, schedules the
 * reconnect window, opens or closes the recording and emits the event — all in `trx`. Returns the row as it
 * is afterwards (unchanged when the table says there is nothing to do).
 */
export async function applySignal(
  trx: Transaction<DB>,
  deps: StreamsDeps,
  scope: Scope,
  row: LiveStreamRow,
  signal: LiveStreamSignal,
): Promise<LiveStreamRow> {
  const t = transition(row.status, signal);
  if (t.kind === 'unchanged') return row;
  if (t.kind === 'refused') {
    throw ApiError.of(t.code, {
      message:
        t.code === 'stream_disabled'
          ? `The live stream ${row.id} is disabled; enable it first.`
          : `A live stream that is ${row.status} cannot take \`${signal}\`.`,
      details: { status: row.status, event: signal },
    });
  }
  await tellNetwork(deps, row, signal);

  const now = deps.now();
  const wasInBroadcast = inBroadcast(row.status);
  const changes: Updateable<LiveStreamsTable> = { status: t.next };
  if (t.next !== 'disconnected') Object.assign(changes, { disconnected_at: null, reconnect_deadline: null });
  if (t.next === 'connecting' && !wasInBroadcast) changes.broadcast_started_at = null;
  if (t.next === 'active') changes.broadcast_started_at = row.broadcast_started_at ?? now;
  if (t.next === 'disconnected') {
    changes.disconnected_at = now;
    changes.reconnect_deadline = new Date(now.getTime() + row.reconnect_window * 1000);
  }
  const updated = await repo.updateLiveStream(trx, scope, row.id, changes);

  if (t.next === 'active') await broadcastStarted(trx, deps, scope, updated, updated.broadcast_started_at!);
  if (wasInBroadcast && !inBroadcast(t.next)) {
    // The last frame came when the encoder dropped, or now when the broadcast is cut short.
    await broadcastEnded(trx, deps, scope, updated, row.status === 'disconnected' ? row.disconnected_at ?? now : now);
  }
  if (t.next === 'disconnected') {
    const job: ReconnectWindowJob = { tenantId: scope.tenantId, livemode: scope.livemode, liveStreamId: row.id };
    await sendInTransaction(trx, [jobOf(liveStreamReconnectWindow, job, updated.reconnect_deadline!)]);
  }
  return emitLiveStreamEvent(trx, scope, row.id, t.event, { status: row.status });
}

/** Locks a stream for a change; `404` for another tenant's, another environment's or a deleted one. */
export async function lockLiveStream(trx: Transaction<DB>, scope: Scope, id: string): Promise<LiveStreamRow> {
  const row = isIdOf('live_stream', id) ? await repo.findLiveStream(trx, scope, id, { forUpdate: true }) : undefined;
  if (!row) throw ApiError.notFound('live stream', id);
  return row;
}

/**
 * Ends a broadcast whose reconnect window has passed. Safe to run any number of times: it acts only on a
 * stream that is still `disconnected` with its deadline behind it, so a reconnect or a later disconnect
 * (which set a new deadline) turns an earlier job into a no-op.
 */
export async function expireReconnectWindow(deps: StreamsDeps, job: ReconnectWindowJob): Promise<boolean> {
  const scope = { tenantId: job.tenantId, livemode: job.livemode };
  return deps.db.transaction().execute(async (trx) => {
    const row = await repo.findLiveStream(trx, scope, job.liveStreamId, { forUpdate: true });
    if (!row || row.status !== 'disconnected' || !row.reconnect_deadline) return false;
    if (row.reconnect_deadline.getTime() > deps.now().getTime()) return false;
    await applySignal(trx, deps, scope, row, 'idle');
    return true;
  });
}
