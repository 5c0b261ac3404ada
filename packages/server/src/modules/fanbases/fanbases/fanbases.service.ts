import type { CursorPageQuery, Fanbase } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { isUniqueViolation } from '../../../core/db-errors';
import { ApiError } from '../../../core/errors';
import { emitEvent } from '../../../core/events/emit-event';
import { newId } from '../../../core/ids';
import type { TenantPrincipal } from '../../../core/principal';
import type { Scope } from '../../../core/scope';
import type { FanbaseRow } from '../../../db/fanbases.schema';
import { findOrganizationByHandle, getOrganizationRow } from '../../identity';
import { nowOf } from '../clock';
import { listableOrganizations, requireFanbasePermission, type FanbasesPermission } from '../fanbases-access';
import * as repo from './fanbases.repository';
import { serializeFanbase } from './fanbases.serializer';

const conflictOf = (err: unknown) => {
  if (isUniqueViolation(err, 'fanbases_organization')) return ApiError.of('fanbase_exists', { param: 'organization', message: 'The organization already has a fanbase.' });
  if (isUniqueViolation(err, 'fanbases_external_id')) return ApiError.of('external_id_taken', { param: 'external_id' });
  return err;
};

export async function presentFanbases(ctx: AppContext, rows: FanbaseRow[]): Promise<Fanbase[]> {
  const counts = await repo.countsOf(ctx.db, rows.map((r) => r.id));
  return rows.map((r) => serializeFanbase(r, counts.get(r.id)!));
}
export const presentFanbase = async (ctx: AppContext, row: FanbaseRow) => (await presentFanbases(ctx, [row]))[0]!;

/** The fanbase, once the caller may act on it: unknown is `404`, another organization's for a member `403`. */
export async function fanbaseFor(ctx: AppContext, caller: TenantPrincipal, id: string, permission: FanbasesPermission): Promise<FanbaseRow> {
  const row = await repo.findFanbase(ctx.db, caller.scope, id);
  if (!row) throw ApiError.notFound('fanbase', id);
  await requireFanbasePermission(ctx, caller, row.organization_id, permission);
  return row;
}

export interface FanbaseInput {
  organization: string;
  name: string;
  description?: string | null;
  currency?: string;
  grace_period_days?: number;
  renewal_notice_hours?: number;
  external_id?: string;
  metadata?: Record<string, string>;
}

export async function createFanbase(ctx: AppContext, caller: TenantPrincipal, input: FanbaseInput): Promise<Fanbase> {
  const org = await getOrganizationRow(ctx.db, caller.scope, input.organization);
  await requireFanbasePermission(ctx, caller, org.id, 'fanbases:write');
  const now = nowOf(ctx);
  try {
    const row = await ctx.db.transaction().execute(async (trx) => {
      const created = await repo.insertFanbase(trx, caller.scope, {
        id: newId('fanbase'),
        organization_id: org.id,
        name: input.name,
        description: input.description ?? null,
        status: 'active',
        currency: input.currency ?? org.currency,
        grace_period_days: input.grace_period_days ?? 7,
        renewal_notice_hours: input.renewal_notice_hours ?? 24,
        external_id: input.external_id ?? null,
        metadata: JSON.stringify(input.metadata ?? {}),
        created_at: now,
        updated_at: now,
      });
      await emitEvent(trx, caller.scope, { type: 'fanbases.fanbase.created', subject: created.id, object: serializeFanbase(created, { members: 0, subscribers: 0 }) });
      return created;
    });
    return presentFanbase(ctx, row);
  } catch (err) {
    throw conflictOf(err);
  }
}

export async function listFanbases(ctx: AppContext, caller: TenantPrincipal, filters: Omit<repo.FanbaseFilters, 'organizations'>, page: CursorPageQuery) {
  const organizations = await listableOrganizations(ctx, caller, 'fanbases:read');
  const result = await repo.listFanbases(ctx.db, caller.scope, { ...filters, organizations }, page);
  return { ...result, data: await presentFanbases(ctx, result.data) };
}

export async function getFanbaseByExternalId(ctx: AppContext, caller: TenantPrincipal, externalId: string) {
  const row = await repo.findByExternalId(ctx.db, caller.scope, externalId);
  if (!row) throw ApiError.notFound('fanbase', externalId);
  await requireFanbasePermission(ctx, caller, row.organization_id, 'fanbases:read');
  return presentFanbase(ctx, row);
}

export type FanbaseChanges = Partial<Omit<FanbaseInput, 'organization' | 'external_id'>> & { status?: FanbaseRow['status']; external_id?: string | null };

export async function updateFanbase(ctx: AppContext, caller: TenantPrincipal, id: string, input: FanbaseChanges): Promise<Fanbase> {
  const current = await fanbaseFor(ctx, caller, id, 'fanbases:write');
  const { metadata, ...fields } = input;
  try {
    const row = await repo.updateFanbase(ctx.db, caller.scope, current.id, {
      ...fields,
      ...(metadata !== undefined && { metadata: JSON.stringify(metadata) }),
      updated_at: nowOf(ctx),
    });
    return presentFanbase(ctx, row);
  } catch (err) {
    throw conflictOf(err);
  }
}

/** The fanbase a public route names: its `fan_` id, or its organization's handle. */
export async function findPublicFanbase(ctx: AppContext, scope: Scope, ref: string) {
  const org = ref.startsWith('fan_') ? undefined : await findOrganizationByHandle(ctx.db, scope, ref);
  const row = ref.startsWith('fan_') ? await repo.findFanbase(ctx.db, scope, ref) : org ? await repo.findByOrganization(ctx.db, scope, org.id) : undefined;
  if (!row) throw ApiError.notFound('fanbase', ref);
  return row;
}

export const findFanbaseRow = repo.findFanbase;
export const findFanbaseOfOrganization = repo.findByOrganization;
