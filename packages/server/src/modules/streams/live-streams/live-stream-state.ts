import type { LiveStreamStatus } from '@svc/contract';
import type { LiveStreamEventType } from './live-stream-events';

/**
 * What can happen to a live stream: reports from the video network (`connected`, `active`, `disconnected`,
 * `idle`, the last one also when the reconnect window runs out) and the tenant's actions.
 */
export type LiveStreamSignal = 'connected' | 'active' | 'disconnected' | 'idle' | 'disable' | 'enable' | 'complete';

export type Transition =
  | { kind: 'move'; next: LiveStreamStatus; event: LiveStreamEventType }
  /** Already there, or nothing to do: no change, no event. */
  | { kind: 'unchanged' }
  | { kind: 'refused'; code: 'stream_disabled' | 'invalid_state_transition' };

/** The statuses of an open broadcast: the encoder is there, or may return within the reconnect window. */
export const BROADCAST_STATUSES: readonly LiveStreamStatus[] = ['connecting', 'active', 'disconnected'];
export const inBroadcast = (status: LiveStreamStatus) => BROADCAST_STATUSES.includes(status);

const move = (next: LiveStreamStatus, event: LiveStreamEventType): Transition => ({ kind: 'move', next, event });
const unchanged: Transition = { kind: 'unchanged' };
const refused = (code: 'stream_disabled' | 'invalid_state_transition'): Transition => ({ kind: 'refused', code });

/**
 * The spec's live-stream state table, with the moves it leaves open decided (docs/decisions.md). Pure, so
 * every row is tested on its own as well as through the API.
 */
export function transition(status: LiveStreamStatus, signal: LiveStreamSignal): Transition {
  switch (signal) {
    // (any) — encoder connects → connecting; a disabled stream refuses the encoder.
    case 'connected':
      if (status === 'disabled') return refused('stream_disabled');
      if (status === 'connecting') return unchanged;
      return move('connecting', 'streams.live_stream.updated');
    // connecting — video flows → active.
    case 'active':
      if (status === 'connecting') return move('active', 'streams.live_stream.active');
      if (status === 'active') return unchanged;
      return refused(status === 'disabled' ? 'stream_disabled' : 'invalid_state_transition');
    // active — encoder drops → disconnected; the broadcast stays open for the reconnect window.
    case 'disconnected':
      if (status === 'active') return move('disconnected', 'streams.live_stream.disconnected');
      if (status === 'disconnected') return unchanged;
      return refused('invalid_state_transition');
    // (broadcast) — broadcast ends → idle.
    case 'idle':
      return inBroadcast(status) ? move('idle', 'streams.live_stream.idle') : unchanged;
    // (any) — disable → disabled.
    case 'disable':
      return status === 'disabled' ? unchanged : move('disabled', 'streams.live_stream.updated');
    // disabled — enable → idle: the stream takes video again.
    case 'enable':
      return status === 'disabled' ? move('idle', 'streams.live_stream.updated') : unchanged;
    // (broadcast) — complete → idle, without waiting for the reconnect window.
    case 'complete':
      return inBroadcast(status) ? move('idle', 'streams.live_stream.idle') : unchanged;
  }
}
