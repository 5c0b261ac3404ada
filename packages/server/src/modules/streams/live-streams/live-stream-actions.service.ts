import type { LiveStream } from '@svc/contract';
import type { Scope } from '../../../core/scope';
import type { StreamsDeps } from '../streams-deps';
import type { LiveStreamSignal } from './live-stream-state';
import { applySignal, lockLiveStream } from './live-stream-transitions';
import { presentOne } from './live-streams.service';

/** `disable`, `enable` and `complete`: the tenant's moves through the state table (see `live-stream-state.ts`). */
export async function signalLiveStream(
  deps: StreamsDeps,
  scope: Scope,
  id: string,
  signal: Extract<LiveStreamSignal, 'disable' | 'enable' | 'complete'>,
): Promise<LiveStream> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockLiveStream(trx, scope, id);
    return presentOne(deps, trx, scope, await applySignal(trx, deps, scope, row, signal));
  });
}
