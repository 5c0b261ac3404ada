import { modulePart } from '../../core/modules/module-definition';
import type { EntitlementCache } from './entitlements/entitlement-cache';

/** Entitlements by customer and resource (checks and session opens), dropped on change by every process. */
export const entitlementCachePart = modulePart<EntitlementCache>('access.entitlementCache');
