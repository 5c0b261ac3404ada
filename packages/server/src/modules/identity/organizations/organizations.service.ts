import type { CursorPageQuery } from '@svc/contract';
import { isUniqueViolation } from '../../../core/db-errors';
import { ApiError } from '../../../core/errors';
import { isIdOf, newId } from '../../../core/ids';
import { paginate } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { OrganizationRow } from '../../../db/identity.schema';

export const ORGANIZATION_DEFAULTS = { timezone: 'Africa/Nairobi', currency: 'KES' };

export function serializeOrganization(row: OrganizationRow) {
  return {
    id: row.id,
    object: 'organization' as const,
    livemode: row.livemode,
    name: row.name,
    handle: row.handle,
    kind: row.kind,
    timezone: row.timezone,
    currency: row.currency,
    external_id: row.external_id,
    metadata: row.metadata,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

function conflict(err: unknown): unknown {
  if (isUniqueViolation(err, 'organizations_handle')) return ApiError.of('handle_taken', { param: 'handle' });
  if (isUniqueViolation(err, 'organizations_external_id')) return ApiError.of('external_id_taken', { param: 'external_id' });
  return err;
}

export interface OrganizationInput {
  name?: string;
  handle?: string;
  kind?: OrganizationRow['kind'];
  timezone?: string;
  currency?: string;
  external_id?: string | null;
  metadata?: Record<string, string>;
}

export async function createOrganization(db: Executor, scope: Scope, input: OrganizationInput & { name: string; handle: string; kind: OrganizationRow['kind'] }) {
  try {
    const row = await scoped(db, scope)
      .insertInto('organizations', {
        id: newId('organization'),
        name: input.name,
        handle: input.handle,
        kind: input.kind,
        timezone: input.timezone ?? ORGANIZATION_DEFAULTS.timezone,
        currency: input.currency ?? ORGANIZATION_DEFAULTS.currency,
        external_id: input.external_id ?? null,
        metadata: JSON.stringify(input.metadata ?? {}),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return serializeOrganization(row);
  } catch (err) {
    throw conflict(err);
  }
}

export async function getOrganizationRow(db: Executor, scope: Scope, id: string): Promise<OrganizationRow> {
  const row = isIdOf('organization', id) ? await scoped(db, scope).selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst() : undefined;
  if (!row) throw ApiError.notFound('organization', id);
  return row;
}

export async function listOrganizations(db: Executor, scope: Scope, page: CursorPageQuery) {
  const result = await paginate(scoped(db, scope).selectFrom('organizations').selectAll(), 'organizations.id', page);
  return { ...result, data: result.data.map(serializeOrganization) };
}

export async function updateOrganization(db: Executor, scope: Scope, id: string, input: OrganizationInput) {
  await getOrganizationRow(db, scope, id);
  try {
    const row = await scoped(db, scope)
      .updateTable('organizations')
      .set({
        ...(input.name !== undefined && { name: input.name }),
        ...(input.handle !== undefined && { handle: input.handle }),
        ...(input.kind !== undefined && { kind: input.kind }),
        ...(input.timezone !== undefined && { timezone: input.timezone }),
        ...(input.currency !== undefined && { currency: input.currency }),
        ...(input.external_id !== undefined && { external_id: input.external_id }),
        ...(input.metadata !== undefined && { metadata: JSON.stringify(input.metadata) }),
        updated_at: new Date(),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return serializeOrganization(row);
  } catch (err) {
    throw conflict(err);
  }
}
