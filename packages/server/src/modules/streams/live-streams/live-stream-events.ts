import type { EventType } from '@svc/contract';
import type { Transaction } from 'kysely';
import type { Executor } from '../../../db/database';
import type { DB } from '../../../db/schema';
import type { LiveStreamRow } from '../../../db/streams-live.schema';
import { emitEvent } from '../../../core/events/emit-event';
import type { Scope } from '../../../core/scope';
import { playbackIdRefsIn } from '../playback-ids/playback-id-rows';
import * as repo from './live-streams.repository';
import { serializeLiveStreamForEvent, type LiveStreamRelations } from './live-streams.serializer';

export type LiveStreamEventType = Extract<EventType, `streams.live_stream.${string}`>;

/** Simulcast targets and playback ids of the given streams, by stream id. */
export async function loadRelations(db: Executor, scope: Scope, ids: string[]): Promise<Map<string, LiveStreamRelations>> {
  const [targets, playbackIds] = await Promise.all([
    repo.listSimulcastTargets(db, scope, ids),
    playbackIdRefsIn(db, scope, ids),
  ]);
  return new Map<string, LiveStreamRelations>(
    ids.map((id) => [id, { targets: targets.filter((t) => t.live_stream_id === id), playbackIds: playbackIds.get(id) ?? [] }]),
  );
}

/**
 * Emits an event about a stream inside the transaction that changed it, after taking the stream's next
 * `sequence`, so the object in the event carries the number receivers order by. `previous.status` is always
 * sent (except on `created`), changed or not. The caller holds the row lock.
 */
export async function emitLiveStreamEvent(
  trx: Transaction<DB>,
  scope: Scope,
  id: string,
  type: LiveStreamEventType,
  previous?: Record<string, unknown> & { status: LiveStreamRow['status'] },
): Promise<LiveStreamRow> {
  const row = await repo.nextSequence(trx, scope, id);
  const relations = (await loadRelations(trx, scope, [id])).get(id)!;
  await emitEvent(trx, scope, {
    type,
    subject: id,
    object: serializeLiveStreamForEvent(row, relations),
    previousAttributes: previous,
  });
  return row;
}
