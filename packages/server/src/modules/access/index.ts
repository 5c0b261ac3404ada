import type { ModuleDefinition } from '../../core/modules/module-definition';
import { accessDeps } from './access-deps';
import { accessJobs } from './access-jobs';
import { entitlementCachePart } from './access-parts';
import { accessRouter } from './access.router';
import { EntitlementCache } from './entitlements/entitlement-cache';

/** Access: entitlements and checks, viewing sessions, customer token keys. Uses Streams for playback. */
export const accessModule: ModuleDefinition = {
  name: 'access',
  setup: (ctx, listener) => entitlementCachePart.set(ctx, new EntitlementCache(listener)),
  routers: (ctx) => ({ access: accessRouter(ctx) }),
  jobs: (ctx) => accessJobs(accessDeps(ctx)),
};

export { accessDeps, type AccessDeps } from './access-deps';
export { entitlementCachePart } from './access-parts';
// Identity revokes a deleted customer's entitlements through these.
export { listEntitlements, revokeEntitlement } from './entitlements/entitlements.service';
// Ticketing grants a paid ticket's stream, and revokes it, inside its own transaction.
export {
  grantEntitlementInTransaction,
  grantEntitlementsInTransaction,
  revokeEntitlementInTransaction,
  revokeEntitlementsBySource,
  revokeEntitlementsBySourceFor,
  passEntitlementsBySource,
  type TransactionalGrant,
} from './entitlements/transactional-grants';
// Fanbases keeps the entitlements of memberships and subscriptions in step with them, in its own transactions.
export { syncHoldingEntitlements, type Holding } from './entitlements/holding-grants';
