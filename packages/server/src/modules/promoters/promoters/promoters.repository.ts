import type { CursorPageQuery } from '@svc/contract';
import type { Updateable } from 'kysely';
import { isIdOf } from '../../../core/ids';
import { paginate, whereMetadata } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { PromoterRow, PromotersTable } from '../../../db/promoters.schema';

export async function findPromoter(db: Executor, scope: Scope, id: string, opts: { forUpdate?: boolean } = {}): Promise<PromoterRow | undefined> {
  if (!isIdOf('promoter', id)) return undefined;
  let q = scoped(db, scope).selectFrom('promoters').selectAll().where('id', '=', id);
  if (opts.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export const findPromoterByExternalId = (db: Executor, scope: Scope, externalId: string) =>
  scoped(db, scope).selectFrom('promoters').selectAll().where('external_id', '=', externalId).executeTakeFirst();

export const insertPromoter = (db: Executor, scope: Scope, values: Omit<PromoterRow, 'tenant_id' | 'livemode' | 'metadata' | 'created_at' | 'updated_at'> & { metadata: string }) =>
  scoped(db, scope).insertInto('promoters', values).returningAll().executeTakeFirstOrThrow();

export const updatePromoter = (db: Executor, scope: Scope, id: string, values: Updateable<PromotersTable>) =>
  scoped(db, scope).updateTable('promoters').set({ ...values, updated_at: new Date() }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();

export interface PromoterFilters {
  organizations: string[] | null;
  organization?: string;
  status?: string;
  customer?: string;
  metadata?: Record<string, string>;
}

export async function listPromoters(db: Executor, scope: Scope, f: PromoterFilters, page: CursorPageQuery) {
  let q = scoped(db, scope).selectFrom('promoters').selectAll();
  if (f.organizations) q = q.where('organization_id', 'in', f.organizations.length ? f.organizations : ['']);
  if (f.organization) q = q.where('organization_id', '=', f.organization);
  if (f.status) q = q.where('status', '=', f.status as PromoterRow['status']);
  if (f.customer) q = q.where('customer_id', '=', f.customer);
  q = whereMetadata(q, 'promoters.metadata', f.metadata);
  return paginate(q, 'promoters.id', page);
}

/** The promoters a customer signs in as; those not linked yet whose email or phone is the customer's are linked now. */
export async function promotersOfCustomer(db: Executor, scope: Scope, customer: { id: string; email: string | null; phone: string | null }): Promise<PromoterRow[]> {
  if (customer.email || customer.phone) {
    let link = scoped(db, scope).updateTable('promoters').set({ customer_id: customer.id, updated_at: new Date() }).where('customer_id', 'is', null);
    link = link.where((eb) =>
      eb.or([
        ...(customer.email ? [eb(eb.fn('lower', ['email']), '=', customer.email.toLowerCase())] : []),
        ...(customer.phone ? [eb('phone', '=', customer.phone)] : []),
      ]),
    );
    await link.execute();
  }
  return scoped(db, scope).selectFrom('promoters').selectAll().where('customer_id', '=', customer.id).orderBy('id', 'desc').execute();
}

/** Pending and approved (not yet paid out) commission per promoter and currency. */
export async function balancesOf(db: Executor, scope: Scope, promoterIds: readonly string[]) {
  if (promoterIds.length === 0) return [];
  return scoped(db, scope)
    .selectFrom('commissions')
    .select((eb) => [
      'promoter_id',
      'currency',
      eb.fn.coalesce(eb.fn.sum<number>(eb.case().when('status', '=', 'pending').then(eb.ref('amount')).else(0).end()), eb.lit(0)).as('pending'),
      eb.fn
        .coalesce(eb.fn.sum<number>(eb.case().when(eb.and([eb('status', '=', 'approved'), eb('payout_id', 'is', null)])).then(eb.ref('amount')).else(0).end()), eb.lit(0))
        .as('approved'),
    ])
    .where('promoter_id', 'in', promoterIds)
    .where('status', 'in', ['pending', 'approved'])
    .groupBy(['promoter_id', 'currency'])
    .orderBy('currency')
    .execute();
}

export const listPromoterIds = (db: Executor, scope: Scope, organizations: readonly string[]) =>
  scoped(db, scope).selectFrom('promoters').select('id').where('organization_id', 'in', organizations.length ? [...organizations] : ['']).execute();
