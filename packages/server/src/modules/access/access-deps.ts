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
  /** Whether the host is an active custom domain of the scope's tenant that it marked `trusted_origin` (in memory). */
  trustedHost?: (scope: { tenantId: string; livemode: boolean }, host: string) => Promise<boolean>;
}

export const accessDeps = (ctx: Pick<AppContext, 'db' | 'secrets' | 'parts' | 'clock' | 'whitelabel'>): AccessDeps => ({
  ...streamsDeps(ctx),
  entitlementCache: entitlementCachePart.of(ctx),
  trustedHost: async (scope, host) => {
    const domain = await ctx.whitelabel?.domainOfHost(host.replace(/:\d+$/, ''));
    return Boolean(domain?.trustedOrigin && domain.tenantId === scope.tenantId && domain.livemode === scope.livemode);
  },
});
