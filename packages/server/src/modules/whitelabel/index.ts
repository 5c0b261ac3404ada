import type { DomainFamily } from '@svc/contract';
import type { ServedDomain, WhitelabelSlot } from '../../core/branding';
import type { AppContext } from '../../core/context';
import type { ModuleDefinition } from '../../core/modules/module-definition';
import { brandingRouter } from './branding/branding.router';
import { effectiveBrand } from './branding/branding.service';
import { checkDomainsJob } from './domains/check-domains.job';
import { ALLOW_PATH, mountDomainPages } from './domains/domain-pages';
import { CHECK_PATH } from './domains/domain-probe';
import { domainsRouter } from './domains/domains.router';
import { WhitelabelCache } from './whitelabel-cache';
import { whitelabelCachePart } from './whitelabel-parts';

/** What every surface asks: brands from the cache, and the active domains by host or by owner. */
function slotOf(ctx: AppContext, cache: WhitelabelCache): WhitelabelSlot {
  const ownedBy = async (scope: { tenantId: string; livemode: boolean }) =>
    [...(await cache.activeDomains()).values()].filter((d) => d.tenantId === scope.tenantId && d.livemode === scope.livemode);
  return {
    brandOf: (scope, organizationId) => effectiveBrand(ctx, scope, organizationId),
    domainOfHost: async (hostname) => (await cache.activeDomains()).get(hostname),
    domainFor: async (scope, organizationId, family: DomainFamily): Promise<ServedDomain | undefined> => {
      const serving = (await ownedBy(scope)).filter((d) => d.serves.includes(family));
      return (organizationId ? serving.find((d) => d.organizationId === organizationId) : undefined) ?? serving.find((d) => d.organizationId === null);
    },
    trustedHosts: async (scope) => (await ownedBy(scope)).filter((d) => d.trustedOrigin).map((d) => d.hostname),
  };
}

/**
 * Whitelabel: the tenant's and organizations' branding, and custom domains (verification, the check job, the
 * TLS proxy's question). It fills the context's whitelabel slot, through which pages and messages of every
 * module read the brand and the host of their links.
 */
export const whitelabelModule: ModuleDefinition = {
  name: 'whitelabel',
  setup: (ctx, listener) => {
    const cache = new WhitelabelCache(ctx.db, listener);
    whitelabelCachePart.set(ctx, cache);
    ctx.whitelabel = slotOf(ctx, cache);
  },
  routers: (ctx) => ({ branding: brandingRouter(ctx), domains: domainsRouter(ctx) }),
  pages: { paths: [CHECK_PATH, ALLOW_PATH], mount: mountDomainPages },
  jobs: (ctx) => [checkDomainsJob(ctx)],
};
