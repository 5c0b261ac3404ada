import { describe, expectTypeOf, it } from 'vitest';
import type { PlaybackEvents, PlaybackSession } from '../src';

// Type-checked by `pnpm typecheck` (tsconfig.test.json), never run: the names are what is tested.
export function listen(session: PlaybackSession) {
  session.on('link', (link) => expectTypeOf(link.url).toEqualTypeOf<string>());
  session.on('ended', ({ reason }) => expectTypeOf(reason).toEqualTypeOf<string>());
  session.on('error', (error) => expectTypeOf(error.message).toEqualTypeOf<string>());
  // @ts-expect-error an unknown event name
  session.on('linkz', () => {});
  // @ts-expect-error an unknown event name, to remove
  session.off('heartbeats', () => {});
}

describe('playback session event names', () => {
  it('are the four the session emits', () => {
    expectTypeOf<keyof PlaybackEvents>().toEqualTypeOf<'link' | 'heartbeat' | 'ended' | 'error'>();
    expectTypeOf<Parameters<PlaybackSession['on']>[0]>().toEqualTypeOf<'link' | 'heartbeat' | 'ended' | 'error'>();
  });
});
