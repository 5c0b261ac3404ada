import type { AppContext } from '../../core/context';
import type { Database } from '../../db/database';
import type { SecretBox } from '../../core/secret-box';
import type { VideoNetworks } from './network/video-networks';
import { videoNetworksPart } from './streams-parts';

/** What the live-stream, playback and signing-key services use; the clock is here so tests can move time. */
export interface StreamsDeps {
  db: Database;
  secrets: SecretBox;
  videoNetworks: VideoNetworks;
  now: () => Date;
}

/** One clock for all of Streams: `ctx.clock` when a test set one, read at each call. */
export const streamsDeps = (ctx: Pick<AppContext, 'db' | 'secrets' | 'parts' | 'clock'>): StreamsDeps => ({
  db: ctx.db,
  secrets: ctx.secrets,
  videoNetworks: videoNetworksPart.of(ctx),
  now: () => (ctx.clock ? ctx.clock() : new Date()),
});
