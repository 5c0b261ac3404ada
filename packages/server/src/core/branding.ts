import type { DomainFamily, EffectiveBranding } from '@svc/contract';

/** An active custom domain as requests on it are served: its tenant, environment and organization. */
export interface ServedDomain {
  id: string;
  hostname: string;
  tenantId: string;
  livemode: boolean;
  organizationId: string | null;
  serves: readonly DomainFamily[];
  /** Entitlements' `allowed_domains` admit this host too. */
  trustedOrigin: boolean;
}

/**
 * The slot the whitelabel module fills (`ctx.whitelabel`): every surface (pages, messages, public reads) asks it
 * for a brand and for the host of its links, so no module imports another for them and core knows no module.
 */
export interface WhitelabelSlot {
  /** Field by field the organization's branding, else the tenant's, else the neutral default. */
  brandOf(scope: { tenantId: string; livemode: boolean }, organizationId: string | null): Promise<EffectiveBranding>;
  /** The active domain with this (normalised) hostname, if any. */
  domainOfHost(hostname: string): Promise<ServedDomain | undefined>;
  /** The most specific active domain serving `family`: the organization's, else the tenant's. */
  domainFor(scope: { tenantId: string; livemode: boolean }, organizationId: string | null, family: DomainFamily): Promise<ServedDomain | undefined>;
  /** The tenant's active domains marked `trusted_origin`: entitlements' `allowed_domains` admit them too. */
  trustedHosts(scope: { tenantId: string; livemode: boolean }): Promise<readonly string[]>;
}

/** The checks of a custom domain: its TXT records, and what its check path answers over HTTPS (`null`: unreachable). */
export interface DomainProbe {
  resolveTxt(name: string): Promise<string[][]>;
  fetchCheck(hostname: string): Promise<string | null>;
}

export const NEUTRAL_COLORS = { primary: '#1f2937', accent: '#2563eb', background: '#f6f6f4', text: '#111111' } as const;

/** The brand of a deployment without the whitelabel module: neutral, named after nothing but the page's own name. */
export function neutralBrand(displayName: string, organizationId: string | null = null): EffectiveBranding {
  return {
    object: 'effective_branding',
    organization: organizationId,
    display_name: displayName,
    logo_url: null,
    icon_url: null,
    colors: { ...NEUTRAL_COLORS },
    support_email: null,
    support_phone: null,
    support_url: null,
    legal: { terms_url: null, privacy_url: null, refund_policy_url: null },
    email_sender_name: null,
    footer_text: null,
  };
}

/** The brand a page or message of this tenant and organization shows. */
export async function brandOf(ctx: { whitelabel?: WhitelabelSlot }, scope: { tenantId: string; livemode: boolean }, organizationId: string | null): Promise<EffectiveBranding> {
  return ctx.whitelabel ? ctx.whitelabel.brandOf(scope, organizationId) : neutralBrand('Checkout', organizationId);
}

/**
 * The base URL of links the service builds for this tenant and organization (checkout, capsule, sign-in): the
 * request's own custom domain when it came on one of the tenant's, else the most specific active domain
 * serving the family, else `{base_url}`.
 */
export async function linkBaseOf(
  ctx: { whitelabel?: WhitelabelSlot; config: { baseUrl: string } },
  scope: { tenantId: string; livemode: boolean },
  organizationId: string | null,
  family: DomainFamily,
  requestDomain?: ServedDomain,
): Promise<string> {
  if (requestDomain && requestDomain.tenantId === scope.tenantId && requestDomain.livemode === scope.livemode && requestDomain.serves.includes(family)) {
    return `https://${requestDomain.hostname}`;
  }
  const domain = await ctx.whitelabel?.domainFor(scope, organizationId, family);
  return domain ? `https://${domain.hostname}` : ctx.config.baseUrl.replace(/\/$/, '');
}
