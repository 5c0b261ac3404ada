import type { CursorPageQuery, EntitlementStatus } from '@svc/contract';
import { sql, type Updateable } from 'kysely';
import type { Executor } from '../../../db/database';
import type { EntitlementRow, EntitlementsTable } from '../../../db/access.schema';
import { paginate, whereMetadata } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';
import { literal } from '../../../db/literal';

/** Who an entitlement is for: exactly one of the two is set. */
export interface Subject {
  customer: string | null;
  contact_hash: string | null;
}

/** The fields a repeat grant is recognised by. */
export interface GrantIdentity extends Subject {
  source: string;
  source_ref: string | null;
  resource_type: 'ls' | 'ast';
  resource_id: string;
}

const GRANT_COLUMNS = ['tenant_id', 'livemode', 'source', 'source_ref', 'customer', 'contact_hash', 'resource_type', 'resource_id'] as const;

/**
 * Inserts new grants in one statement, skipping those whose grant exists (or is being inserted by another
 * transaction right now). Answers the ids inserted. Rows go in grant order, so two such statements wait for
 * each other's rows in the same order.
 */
export async function insertEntitlementsIfNew(db: Executor, rows: readonly EntitlementRow[]): Promise<Set<string>> {
  const key = (r: EntitlementRow) => GRANT_COLUMNS.map((c) => String(r[c])).join('\u0000');
  const sorted = [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const { rows: inserted } = await sql<{ id: string }>`
    insert into entitlements (id, tenant_id, livemode, customer, contact_hash, resource_type, resource_id, source, source_ref,
      starts_at, ends_at, limits, status, external_id, metadata, created_at, updated_at)
    select id, tenant_id, livemode, customer, contact_hash, resource_type, resource_id, source, source_ref,
      starts_at, ends_at, limits, status, external_id, metadata, created_at, updated_at
    from jsonb_populate_recordset(null::entitlements, ${JSON.stringify(sorted)}::jsonb)
    on conflict (tenant_id, livemode, source, source_ref, customer, contact_hash, resource_type, resource_id) do nothing
    returning id`.execute(db);
  return new Set(inserted.map((r) => r.id));
}

/** Equality where `null` matches `null`, as the grant index compares. */
const same = <K extends 'source_ref' | 'customer' | 'contact_hash'>(column: K, value: string | null) =>
  [column, value === null ? 'is' : '=', value] as const;

export async function findEntitlementByGrant(db: Executor, scope: Scope, g: GrantIdentity, opts: { forUpdate?: boolean } = {}) {
  let q = scoped(db, scope)
    .selectFrom('entitlements')
    .selectAll()
    .where('source', '=', g.source)
    .where(...same('source_ref', g.source_ref))
    .where(...same('customer', g.customer))
    .where(...same('contact_hash', g.contact_hash))
    .where('resource_type', '=', g.resource_type)
    .where('resource_id', '=', g.resource_id);
  if (opts.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function findEntitlement(db: Executor, scope: Scope, id: string, opts: { forUpdate?: boolean } = {}) {
  let q = scoped(db, scope).selectFrom('entitlements').selectAll().where('id', '=', id);
  if (opts.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function findEntitlementByExternalId(db: Executor, scope: Scope, externalId: string) {
  return scoped(db, scope).selectFrom('entitlements').selectAll().where('external_id', '=', externalId).executeTakeFirst();
}

/** Every entitlement of one customer (or contact hash) to one resource. */
export async function findEntitlementsFor(db: Executor, scope: Scope, subject: Subject, resource: { type: 'ls' | 'ast'; id: string }) {
  let q = scoped(db, scope)
    .selectFrom('entitlements')
    .selectAll()
    .where('resource_id', '=', resource.id)
    .where('resource_type', '=', resource.type);
  q = subject.customer !== null ? q.where('customer', '=', subject.customer) : q.where('contact_hash', '=', subject.contact_hash!);
  return q.execute();
}

export interface EntitlementFilters {
  customer?: string;
  contact_hash?: string;
  resource?: string;
  /** Matched as readers see it: `expired` includes active rows past their end. */
  status?: EntitlementStatus;
  metadata?: Record<string, string>;
}

export async function listEntitlements(db: Executor, scope: Scope, filters: EntitlementFilters, now: Date, page: CursorPageQuery) {
  let q = scoped(db, scope).selectFrom('entitlements').selectAll();
  if (filters.customer) q = q.where('customer', '=', filters.customer);
  if (filters.contact_hash) q = q.where('contact_hash', '=', filters.contact_hash.toLowerCase());
  if (filters.resource) q = q.where('resource_id', '=', filters.resource);
  if (filters.status === 'active') {
    q = q.where('status', '=', 'active').where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', now)]));
  } else if (filters.status === 'expired') {
    q = q.where((eb) => eb.or([eb('status', '=', 'expired'), eb.and([eb('status', '=', 'active'), eb('ends_at', '<=', now)])]));
  } else if (filters.status) {
    q = q.where('status', '=', filters.status);
  }
  q = whereMetadata(q, 'entitlements.metadata', filters.metadata);
  return paginate(q, 'entitlements.id', page);
}

export async function updateEntitlement(db: Executor, scope: Scope, id: string, changes: Updateable<EntitlementsTable>, now: Date) {
  return scoped(db, scope)
    .updateTable('entitlements')
    .set({ ...changes, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Active entitlements whose end has passed, across tenants (the expiry sweep's work list). */
export async function findDueExpiries(db: Executor, now: Date, limit = 500) {
  return db
    .selectFrom('entitlements')
    .select(['id', 'tenant_id', 'livemode'])
    .where('status', '=', literal('active'))
    .where('ends_at', 'is not', null)
    .where('ends_at', '<=', now)
    .orderBy('ends_at')
    .limit(limit)
    .execute();
}
