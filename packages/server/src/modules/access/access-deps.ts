import type { AppContext } from '../../core/context';
import { streamsDeps, type StreamsDeps } from '../streams';
import { entitlementCachePart } from './access-parts';
import type { EntitlementCache } from './entitlements/entitlement-cache';

/**
 * What the Access services use. It extends Streams' deps shape, so playback links are made by Streams' own
 * functions; the clock is here so tests can move time (expiry, missed heartbeats, token lifetimes).
 */
export interface AccessDeps extends StreamsDeps {
  entitlementCache: EntitlementCache;
}

export const accessDeps = (ctx: Pick<AppContext, 'db' | 'secrets' | 'parts' | 'clock'>): AccessDeps => ({
  ...streamsDeps(ctx),
  entitlementCache: entitlementCachePart.of(ctx),
});
