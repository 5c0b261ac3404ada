import {
  sql,
  type DeleteQueryBuilder,
  type DeleteResult,
  type Insertable,
  type Kysely,
  type SelectQueryBuilder,
  type UpdateQueryBuilder,
  type UpdateResult,
} from 'kysely';
import type { DB } from '../db/schema';
import type { Executor } from '../db/database';
import type { RequestRef } from './request-context';

/** The tenant and environment every tenant-owned row belongs to. Every repository function takes one. */
export interface Scope {
  tenantId: string;
  livemode: boolean;
  /** The organization a signed-in member acts for, when the route works inside one; rows are still keyed by tenant. */
  organizationId?: string | null;
  /** The member permissions of a signed-in person (from the identity module); API keys use scopes instead. */
  permissions?: readonly string[];
  /**
   * The API request acting in this scope, when one is: events emitted in the scope name it. Set once per request
   * (`withRequest`); scopes built from rows by background work have none.
   */
  request?: RequestRef;
}

/** The scope with the request that acts in it, so its events name the request. */
export const withRequest = (scope: Scope, request: RequestRef | undefined): Scope => (request ? { ...scope, request } : scope);

/** Tables whose rows belong to a tenant and an environment. */
export type ScopedTable = {
  [K in keyof DB]: DB[K] extends { tenant_id: string; livemode: boolean } ? K : never;
}[keyof DB];

/**
 * The one place tenant and environment scoping is applied: queries built from here cannot reach
 * another tenant's or environment's rows, so a handler cannot forget the filter.
 */
export function scoped(executor: Executor, scope: Scope) {
  // A Transaction is a Kysely; one type keeps the builders' overloads callable.
  const db = executor as Kysely<DB>;
  const inScope = (table: ScopedTable) =>
    sql<boolean>`${sql.ref(`${table}.tenant_id`)} = ${scope.tenantId} and ${sql.ref(`${table}.livemode`)} = ${scope.livemode}`;
  return {
    selectFrom<T extends ScopedTable>(table: T) {
      return (db.selectFrom(table) as unknown as SelectQueryBuilder<DB, T, {}>).where(inScope(table));
    },
    updateTable<T extends ScopedTable>(table: T) {
      return (db.updateTable(table) as unknown as UpdateQueryBuilder<DB, T, T, UpdateResult>).where(inScope(table));
    },
    deleteFrom<T extends ScopedTable>(table: T) {
      return (db.deleteFrom(table) as unknown as DeleteQueryBuilder<DB, T, DeleteResult>).where(inScope(table));
    },
    insertInto<T extends ScopedTable>(table: T, values: Omit<Insertable<DB[T]>, 'tenant_id' | 'livemode'>) {
      return db
        .insertInto(table)
        .values({ ...values, tenant_id: scope.tenantId, livemode: scope.livemode } as unknown as Insertable<DB[T]>);
    },
  };
}
