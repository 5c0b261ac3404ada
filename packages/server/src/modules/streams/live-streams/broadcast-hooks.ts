import type { Transaction } from 'kysely';
import type { DB } from '../../../db/schema';
import type { LiveStreamRow } from '../../../db/streams-live.schema';
import type { Scope } from '../../../core/scope';
import type { StreamsDeps } from '../streams-deps';
import { endRecording, startRecording } from '../assets/recordings.service';

/**
 * Where a broadcast's start and end reach the recordings (moments and clips are cut from them). Both run in
 * the transaction that changes the stream's status, so a recording exists exactly when the move commits.
 */
export async function broadcastStarted(
  trx: Transaction<DB>,
  _deps: StreamsDeps,
  scope: Scope,
  stream: LiveStreamRow,
  firstFrameAt: Date,
): Promise<void> {
  await startRecording(trx, scope, stream, firstFrameAt);
}

/** `lastFrameAt`: when the encoder dropped, or now when the broadcast is cut short. */
export async function broadcastEnded(
  trx: Transaction<DB>,
  deps: StreamsDeps,
  scope: Scope,
  stream: LiveStreamRow,
  lastFrameAt: Date,
): Promise<void> {
  await endRecording(trx, deps.videoNetworks, scope, stream, lastFrameAt);
}
