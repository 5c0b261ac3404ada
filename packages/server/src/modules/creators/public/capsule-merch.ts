import type { PublicProduct } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import type { Scope } from '../../../core/scope';

/** The capsule's merch: up to 6 public products, or `null`, and how many the organization has published. */
export interface CapsuleMerch {
  featured: PublicProduct[] | null;
  count: number;
}

type MerchSource = (ctx: AppContext, scope: Scope, organizationId: string) => Promise<CapsuleMerch>;

const PART = 'creators.capsule-merch';

/** Called by the module that sells products when it is set up; without one a capsule has no merch. */
export function registerCapsuleMerch(ctx: Pick<AppContext, 'parts'>, source: MerchSource): void {
  ctx.parts.set(PART, source);
}

export async function capsuleMerchOf(ctx: AppContext, scope: Scope, organizationId: string): Promise<CapsuleMerch> {
  const source = ctx.parts.get(PART) as MerchSource | undefined;
  return source ? source(ctx, scope, organizationId) : { featured: null, count: 0 };
}
