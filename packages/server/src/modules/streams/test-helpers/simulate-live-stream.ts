import type { LiveStream, SimulateLiveStreamInput } from '@svc/contract';
import type { Transaction } from 'kysely';
import type { DB } from '../../../db/schema';
import type { LiveStreamHealthColumn, LiveStreamRow } from '../../../db/streams-live.schema';
import { secretsEqual } from '../../../core/auth/api-key-secret';
import { ApiError } from '../../../core/errors';
import type { Scope } from '../../../core/scope';
import { emitLiveStreamEvent } from '../live-streams/live-stream-events';
import { applySignal, lockLiveStream } from '../live-streams/live-stream-transitions';
import { storeLiveStreamHealth } from '../live-streams/live-stream-rows.service';
import { presentOne } from '../live-streams/live-streams.service';
import { secretContext } from '../live-streams/live-streams.serializer';
import type { StreamsDeps } from '../streams-deps';

/** An encoder presenting a key that is not the stream's current one (e.g. after a reset) is turned away. */
function checkStreamKey(deps: StreamsDeps, row: LiveStreamRow, presented: string): void {
  const current = deps.secrets.decrypt(row.stream_key_sealed, secretContext(row.id, 'stream_key'));
  if (!secretsEqual(presented, current)) {
    throw ApiError.of('stream_key_rejected', { param: 'stream_key' });
  }
}

/** Health reports change `health`, never `status`; a report of what is already so changes nothing. */
async function reportHealth(
  trx: Transaction<DB>,
  deps: StreamsDeps,
  scope: Scope,
  row: LiveStreamRow,
  healthy: boolean,
  reason: string | undefined,
): Promise<LiveStreamRow> {
  const next: LiveStreamHealthColumn = {
    status: healthy ? 'healthy' : 'unhealthy',
    network: row.provider,
    reason: healthy ? null : (reason ?? 'The simulated network reported a fault.'),
    changed_at: deps.now().toISOString(),
  };
  if (row.health.status === next.status && row.health.reason === next.reason) return row;
  await storeLiveStreamHealth(trx, scope, row.id, next);
  const type = healthy ? 'streams.live_stream.recovered' : 'streams.live_stream.unhealthy';
  return emitLiveStreamEvent(trx, scope, row.id, type, { status: row.status, health: row.health });
}

/**
 * `POST /v1/test_helpers/live_streams/{id}/simulate`: plays the video network, through the same state
 * machine and events as a real network's reports would.
 */
export async function simulateLiveStream(
  deps: StreamsDeps,
  scope: Scope,
  id: string,
  input: SimulateLiveStreamInput,
): Promise<LiveStream> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockLiveStream(trx, scope, id);
    if (input.stream_key !== undefined) checkStreamKey(deps, row, input.stream_key);
    let after: LiveStreamRow;
    if (input.event === 'unhealthy' || input.event === 'recovered') {
      after = await reportHealth(trx, deps, scope, row, input.event === 'recovered', input.reason);
    } else {
      after = await applySignal(trx, deps, scope, row, input.event);
    }
    return presentOne(deps, trx, scope, after);
  });
}
