import type { AppContext } from '../../core/context';
import type { StreamsDeps } from '../streams/streams-deps';
import type { EntitlementCache } from './entitlements/entitlement-cache';

/**
 * What the Access services use. It extends Streams' deps shape, so playback links are made by Streams' own
 * functions; the clock is here so tests can move time (expiry, missed heartbeats, token lifetimes).
 */
export interface AccessDeps extends StreamsDeps {
  entitlementCache: EntitlementCache;
}

export const accessDeps = (ctx: Pick<AppContext, 'db' | 'secrets' | 'videoNetworks' | 'clock' | 'entitlementCache'>): AccessDeps => ({
  db: ctx.db,
  secrets: ctx.secrets,
  videoNetworks: ctx.videoNetworks,
  entitlementCache: ctx.entitlementCache,
  now: () => (ctx.clock ? ctx.clock() : new Date()),
});
