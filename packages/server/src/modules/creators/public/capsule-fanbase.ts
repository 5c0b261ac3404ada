import type { SelectQueryBuilder } from 'kysely';
import type { AppContext } from '../../../core/context';
import { modulePart } from '../../../core/modules/module-definition';
import type { Scope } from '../../../core/scope';
import type { DB } from '../../../db/schema';

/** What the capsule shows of the organization's fanbase, for one viewer. */
export interface CapsuleFanbaseState {
  /** The organization's `fan_`, or `null`. */
  fanbase: string | null;
  active: boolean;
  hasPublishedPaidTier: boolean;
  /** Live mode: a payment configuration serves the organization (test mode: always). */
  paymentsServe: boolean;
  /** The viewer's active membership's `joined_at`. */
  joinedAt: Date | null;
  /** The tier of the viewer's subscription that is `active` or `past_due`. */
  subscribedTier: string | null;
}

/**
 * The fanbases product, as the capsule sees it: it registers itself here (creators imports no fanbases code).
 * `memberCustomers` is a query of the `customer` of every active membership of the organization's fanbase, which
 * the audience count unites with the followers.
 */
export interface CapsuleFanbaseSource {
  stateOf(ctx: AppContext, scope: Scope, organizationId: string, viewer: string | null): Promise<CapsuleFanbaseState>;
  memberCustomers(db: AppContext['db'], scope: Scope, organizationId: string): SelectQueryBuilder<DB, any, { customer: string }>;
  /** Content gates: per organization where the viewer is an active member, the tiers the membership holds now. */
  heldTiers(ctx: AppContext, scope: Scope, viewer: string, organizationIds: readonly string[]): Promise<Map<string, string[]>>;
  /** Content gates: which of `ids` are tiers of the organization's fanbase; `null` when it has no fanbase. */
  tiersOfOrganization(ctx: AppContext, scope: Scope, organizationId: string, ids: readonly string[]): Promise<Set<string> | null>;
}

export const capsuleFanbasePart = modulePart<CapsuleFanbaseSource>('creators.capsule-fanbase');

/** The registered source, or `undefined` when the fanbases module is not installed. */
export const capsuleFanbaseOf = (ctx: AppContext): CapsuleFanbaseSource | undefined =>
  ctx.parts.has('creators.capsule-fanbase') ? capsuleFanbasePart.of(ctx) : undefined;
