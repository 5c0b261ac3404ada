import type { Transaction } from 'kysely';
import type { DB } from '../../../db/schema';
import { scoped, type Scope } from '../../../core/scope';
import type { ReplacedLiveInput } from '../network/video-network';
import * as repo from './live-streams.repository';

/** The stream now lives on the live input its network made in place of the old one (a key reset). */
export async function useReplacedInput(trx: Transaction<DB>, scope: Scope, liveStreamId: string, replaced: ReplacedLiveInput): Promise<void> {
  await repo.updateLiveStream(trx, scope, liveStreamId, { provider_ref: replaced.providerRef, ingest: JSON.stringify(replaced.ingest) });
  for (const [before, after] of Object.entries(replaced.simulcastRefs)) {
    await scoped(trx, scope)
      .updateTable('simulcast_targets')
      .set({ provider_ref: after })
      .where('live_stream_id', '=', liveStreamId)
      .where('provider_ref', '=', before)
      .execute();
  }
}
