import type { CursorPageQuery, Entitlement } from '@svc/contract';
import type { Transaction } from 'kysely';
import type { EntitlementRow } from '../../../db/access.schema';
import type { Executor } from '../../../db/database';
import type { DB } from '../../../db/schema';
import { ApiError } from '../../../core/errors';
import { isIdOf } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import type { AccessDeps } from '../access-deps';
import { endSessionsOf } from '../sessions/session-rows.service';
import { effectiveStatus } from './entitlement-rules';
import * as repo from './entitlements.repository';
import { emitEntitlementEvent, serializeEntitlement } from './entitlements.serializer';

async function getRow(db: Executor, scope: Scope, id: string, forUpdate = false): Promise<EntitlementRow> {
  const row = isIdOf('entitlement', id) ? await repo.findEntitlement(db, scope, id, { forUpdate }) : undefined;
  if (!row) throw ApiError.notFound('entitlement', id);
  return row;
}

export async function getEntitlement(deps: AccessDeps, scope: Scope, id: string): Promise<Entitlement> {
  return serializeEntitlement(await getRow(deps.db, scope, id), deps.now());
}

export async function getEntitlementByExternalId(deps: AccessDeps, scope: Scope, externalId: string): Promise<Entitlement> {
  const row = await repo.findEntitlementByExternalId(deps.db, scope, externalId);
  if (!row) throw ApiError.notFound('entitlement with external_id', externalId);
  return serializeEntitlement(row, deps.now());
}

export async function listEntitlements(deps: AccessDeps, scope: Scope, filters: repo.EntitlementFilters, page: CursorPageQuery) {
  const now = deps.now();
  const result = await repo.listEntitlements(deps.db, scope, filters, now, page);
  return { ...result, data: result.data.map((row) => serializeEntitlement(row, now)) };
}

type Action = 'revoke' | 'suspend' | 'resume';

const refused = (row: EntitlementRow, status: string, action: Action) =>
  ApiError.of('invalid_state_transition', {
    message: `A ${status} entitlement cannot be ${action === 'resume' ? 'resumed' : `${action}ed`}.`,
    details: { status, action },
  });

/** Locks the entitlement, applies one of the tenant's actions, and ends its sessions when access stops. */
async function act(
  deps: AccessDeps,
  scope: Scope,
  id: string,
  change: (trx: Transaction<DB>, row: EntitlementRow, status: ReturnType<typeof effectiveStatus>, now: Date) => Promise<Entitlement | null>,
): Promise<Entitlement> {
  const now = deps.now();
  const entitlement = await deps.db.transaction().execute(async (trx) => {
    const row = await getRow(trx, scope, id, true);
    return (await change(trx, row, effectiveStatus(row, now), now)) ?? serializeEntitlement(row, now);
  });
  deps.entitlementCache.changed(scope, entitlement);
  return entitlement;
}

/** Revoking is final and allowed from every status; revoking again answers the revoked entitlement. */
export function revokeEntitlement(deps: AccessDeps, scope: Scope, id: string) {
  return act(deps, scope, id, async (trx, row, status, now) => {
    if (status === 'revoked') return null;
    const updated = await repo.updateEntitlement(trx, scope, row.id, { status: 'revoked' }, now);
    await endSessionsOf(trx, scope, row.id, 'entitlement_inactive', now);
    return emitEntitlementEvent(trx, scope, 'access.entitlement.revoked', updated, now, { status });
  });
}

export function suspendEntitlement(deps: AccessDeps, scope: Scope, id: string) {
  return act(deps, scope, id, async (trx, row, status, now) => {
    if (status === 'suspended') return null;
    if (status !== 'active') throw refused(row, status, 'suspend');
    const updated = await repo.updateEntitlement(trx, scope, row.id, { status: 'suspended' }, now);
    await endSessionsOf(trx, scope, row.id, 'entitlement_inactive', now);
    return emitEntitlementEvent(trx, scope, 'access.entitlement.suspended', updated, now, { status });
  });
}

/** Back to `active`; an entitlement whose end passed while suspended becomes `expired` instead. */
export function resumeEntitlement(deps: AccessDeps, scope: Scope, id: string) {
  return act(deps, scope, id, async (trx, row, status, now) => {
    if (status === 'active') return null;
    if (status !== 'suspended') throw refused(row, status, 'resume');
    const ended = row.ends_at !== null && row.ends_at.getTime() <= now.getTime();
    const updated = await repo.updateEntitlement(trx, scope, row.id, { status: ended ? 'expired' : 'active' }, now);
    const type = ended ? 'access.entitlement.expired' : 'access.entitlement.resumed';
    return emitEntitlementEvent(trx, scope, type, updated, now, { status });
  });
}
