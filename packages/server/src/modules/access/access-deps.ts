import type { AppContext } from '../../core/context';
import type { StreamsDeps } from '../streams/streams-deps';

/**
 * What the Access services use. It is Streams' deps shape, so playback links are made by Streams' own
 * functions; the clock is here so tests can move time (expiry, missed heartbeats, token lifetimes).
 */
export type AccessDeps = StreamsDeps;

export const accessDeps = (ctx: Pick<AppContext, 'db' | 'secrets' | 'videoNetworks' | 'clock'>): AccessDeps => ({
  db: ctx.db,
  secrets: ctx.secrets,
  videoNetworks: ctx.videoNetworks,
  now: () => (ctx.clock ? ctx.clock() : new Date()),
});
