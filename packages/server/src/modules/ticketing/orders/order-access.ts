import type { OrderKind } from '@svc/contract';
import { hasScope } from '../../../core/auth/route-access-check';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { organizationsGranting, requireOrganizationPermission } from '../../identity';
import type { OrganizerCaller } from '../organizer/organizer-access';

type Level = 'read' | 'write';
const KINDS: readonly OrderKind[] = ['ticket', 'product', 'subscription'];

/** The scope area and member permission that cover each kind of order (products-api § 3.1). */
export const orderKindArea = { ticket: 'events', product: 'commerce', subscription: 'fanbases' } as const satisfies Record<OrderKind, string>;

/**
 * May the caller act on an order of this kind and organization? A secret key may; a restricted key needs the
 * kind's scope (`403 missing_scope`); a member the kind's permission in the organization (`403 missing_permission`).
 */
export async function requireOrderAccess(ctx: AppContext, caller: OrganizerCaller, order: { kind: OrderKind; organization_id: string }, level: Level): Promise<void> {
  const needed = `${orderKindArea[order.kind]}:${level}` as const;
  if (caller.kind === 'restricted' && !hasScope(caller.key.scopes ?? [], needed)) {
    throw ApiError.of('missing_scope', { message: `This key lacks the scope ${needed}.`, details: { required_scope: needed } });
  }
  if (caller.kind === 'user') await requireOrganizationPermission(ctx, caller.scope.tenantId, caller.userId, order.organization_id, needed);
}

/**
 * What of the orders a caller may list, per kind: `null` for every organization, a list of organizations, or
 * absent when the kind is not covered at all.
 */
export async function readableOrderKinds(ctx: AppContext, caller: OrganizerCaller): Promise<Map<OrderKind, string[] | null>> {
  const readable = new Map<OrderKind, string[] | null>();
  for (const kind of KINDS) {
    const needed = `${orderKindArea[kind]}:read` as const;
    if (caller.kind === 'secret') readable.set(kind, null);
    else if (caller.kind === 'restricted') {
      if (hasScope(caller.key.scopes ?? [], needed)) readable.set(kind, null);
    } else {
      const granted = await organizationsGranting(ctx, caller.scope, caller.userId, needed);
      if (granted.tenant) readable.set(kind, null);
      else if (granted.organizations.length) readable.set(kind, granted.organizations);
    }
  }
  return readable;
}
