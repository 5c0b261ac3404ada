import { sql } from 'kysely';
import { LIMITS, type DomainFamily, type EffectiveBranding } from '@svc/contract';
import type { ServedDomain } from '../../core/branding';
import { GroupedCache } from '../../core/grouped-cache';
import type { NotificationListener } from '../../core/notify';
import type { Database, Executor } from '../../db/database';

export const WHITELABEL_CHANNEL = 'svc_whitelabel';
const DOMAINS = 'domains';

/**
 * Per process: effective brands by tenant, environment and organization, and every active domain by hostname,
 * each kept at most 60 s. A change notifies every process in its transaction (`notifyBrandChanged`,
 * `notifyDomainsChanged`) and the changing process forgets at once, so a deleted domain stops being served at
 * once everywhere; a lost LISTEN connection clears everything.
 */
export class WhitelabelCache {
  private readonly brands: GroupedCache<EffectiveBranding>;
  private domains: { byHost: Map<string, ServedDomain>; until: number } | null = null;
  private domainGeneration = 0;
  private loading: Promise<Map<string, ServedDomain>> | null = null;

  constructor(
    private readonly db: Database,
    listener: NotificationListener,
    private readonly ttlMs = LIMITS.keyCache.maxSeconds * 1000,
  ) {
    this.brands = new GroupedCache(ttlMs, 5_000);
    listener.on(WHITELABEL_CHANNEL, (payload) => (payload === DOMAINS ? this.forgetDomains() : this.forgetBrands(payload)));
    listener.onReset(() => {
      this.forgetDomains();
      this.forgetBrands();
    });
  }

  async brand(key: string, tenantId: string, load: () => Promise<EffectiveBranding>): Promise<EffectiveBranding> {
    const kept = this.brands.get(key);
    if (kept) return kept;
    const mark = this.brands.mark();
    const value = await load();
    this.brands.keep(key, tenantId, value, mark);
    return value;
  }

  forgetBrands(tenantId?: string): void {
    this.brands.forget(tenantId);
  }

  forgetDomains(): void {
    this.domainGeneration += 1;
    this.domains = null;
    this.loading = null;
  }

  async activeDomains(): Promise<Map<string, ServedDomain>> {
    if (this.domains && this.domains.until > Date.now()) return this.domains.byHost;
    if (this.loading) return this.loading;
    const generation = this.domainGeneration;
    const load = (async () => {
      const rows = await this.db
        .selectFrom('domains')
        .select(['id', 'hostname', 'tenant_id', 'livemode', 'organization_id', 'serves', 'trusted_origin'])
        .where('status', '=', 'active')
        .execute();
      const byHost = new Map(
        rows.map((r) => [
          r.hostname,
          { id: r.id, hostname: r.hostname, tenantId: r.tenant_id, livemode: r.livemode, organizationId: r.organization_id, serves: r.serves as DomainFamily[], trustedOrigin: r.trusted_origin },
        ]),
      );
      // A read an invalidation overtook is answered but not kept.
      if (generation === this.domainGeneration) this.domains = { byHost, until: Date.now() + this.ttlMs };
      return byHost;
    })();
    this.loading = load;
    try {
      return await load;
    } finally {
      if (this.loading === load) this.loading = null;
    }
  }
}

/** Sent only if the transaction commits; the changing process also forgets at once. */
export async function notifyDomainsChanged(db: Executor): Promise<void> {
  await sql`select pg_notify(${WHITELABEL_CHANNEL}, ${DOMAINS})`.execute(db);
}

export async function notifyBrandChanged(db: Executor, tenantId: string): Promise<void> {
  await sql`select pg_notify(${WHITELABEL_CHANNEL}, ${tenantId})`.execute(db);
}
