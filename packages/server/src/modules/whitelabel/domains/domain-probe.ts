import { resolveTxt } from 'node:dns/promises';
import type { DomainProbe } from '../../../core/branding';
import type { AppContext } from '../../../core/context';

export const CHECK_PATH = '/.well-known/svc-domain-check';

/** The system's DNS and HTTPS: a name without TXT records reads as none; a host that does not answer, as `null`. */
export const systemProbe: DomainProbe = {
  async resolveTxt(name) {
    try {
      return await resolveTxt(name);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOTFOUND' || code === 'ENODATA' || code === 'ESERVFAIL' || code === 'ETIMEOUT') return [];
      throw err;
    }
  },
  async fetchCheck(hostname) {
    try {
      const res = await fetch(`https://${hostname}${CHECK_PATH}`, { redirect: 'error', signal: AbortSignal.timeout(5_000) });
      return res.ok ? (await res.text()).trim().slice(0, 200) : null;
    } catch {
      return null;
    }
  },
};

export const probeOf = (ctx: Pick<AppContext, 'domainProbe'>): DomainProbe => ctx.domainProbe ?? systemProbe;

/** The host tenants point their domains at. */
export const dnsTargetOf = (ctx: Pick<AppContext, 'config'>) => ctx.config.SVC_DOMAIN_TARGET ?? new URL(ctx.config.baseUrl).hostname;
