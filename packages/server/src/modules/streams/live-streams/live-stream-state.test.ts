import { LIVE_STREAM_STATUSES, type LiveStreamStatus } from '@svc/contract';
import { describe, expect, it } from 'vitest';
import { transition, type LiveStreamSignal } from './live-stream-state';

const move = (next: LiveStreamStatus, event: string) => ({ kind: 'move', next, event });
const unchanged = { kind: 'unchanged' };
const refused = (code: string) => ({ kind: 'refused', code });

/** Every status × every signal: the spec's table plus the decisions in docs/decisions.md. */
const TABLE: Record<LiveStreamSignal, Record<LiveStreamStatus, object>> = {
  connected: {
    idle: move('connecting', 'streams.live_stream.updated'),
    connecting: unchanged,
    active: move('connecting', 'streams.live_stream.updated'),
    disconnected: move('connecting', 'streams.live_stream.updated'),
    disabled: refused('stream_disabled'),
  },
  active: {
    idle: refused('invalid_state_transition'),
    connecting: move('active', 'streams.live_stream.active'),
    active: unchanged,
    disconnected: refused('invalid_state_transition'),
    disabled: refused('stream_disabled'),
  },
  disconnected: {
    idle: refused('invalid_state_transition'),
    connecting: refused('invalid_state_transition'),
    active: move('disconnected', 'streams.live_stream.disconnected'),
    disconnected: unchanged,
    disabled: refused('invalid_state_transition'),
  },
  idle: {
    idle: unchanged,
    connecting: move('idle', 'streams.live_stream.idle'),
    active: move('idle', 'streams.live_stream.idle'),
    disconnected: move('idle', 'streams.live_stream.idle'),
    disabled: unchanged,
  },
  disable: {
    idle: move('disabled', 'streams.live_stream.updated'),
    connecting: move('disabled', 'streams.live_stream.updated'),
    active: move('disabled', 'streams.live_stream.updated'),
    disconnected: move('disabled', 'streams.live_stream.updated'),
    disabled: unchanged,
  },
  enable: {
    idle: unchanged,
    connecting: unchanged,
    active: unchanged,
    disconnected: unchanged,
    disabled: move('idle', 'streams.live_stream.updated'),
  },
  complete: {
    idle: unchanged,
    connecting: move('idle', 'streams.live_stream.idle'),
    active: move('idle', 'streams.live_stream.idle'),
    disconnected: move('idle', 'streams.live_stream.idle'),
    disabled: unchanged,
  },
};

describe('live stream state table', () => {
  for (const [signal, row] of Object.entries(TABLE) as [LiveStreamSignal, Record<LiveStreamStatus, object>][]) {
    for (const status of LIVE_STREAM_STATUSES) {
      it(`${status} + ${signal}`, () => {
        expect(transition(status, signal)).toEqual(row[status]);
      });
    }
  }
});
