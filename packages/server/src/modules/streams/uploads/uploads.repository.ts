import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Executor } from '../../../db/database';
import type { UploadsTable } from '../../../db/schema';
import { scoped, type Scope } from '../../../core/scope';

export type UploadRow = Selectable<UploadsTable>;

export async function insertUpload(db: Executor, scope: Scope, upload: Omit<Insertable<UploadsTable>, 'tenant_id' | 'livemode'>) {
  return scoped(db, scope).insertInto('uploads', upload).returningAll().executeTakeFirstOrThrow();
}

export async function findUpload(db: Executor, scope: Scope, id: string, opts: { forUpdate?: boolean } = {}) {
  let q = scoped(db, scope).selectFrom('uploads').selectAll().where('id', '=', id);
  if (opts.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

/**
 * The one unscoped read of an upload: a `PUT` to the one-time URL carries no API key, only the URL's token,
 * which the caller checks before using the row. The row then gives the scope.
 */
export async function findUploadForReceiving(db: Executor, id: string) {
  return db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function updateUpload(db: Executor, scope: Scope, id: string, changes: Updateable<UploadsTable>) {
  return scoped(db, scope)
    .updateTable('uploads')
    .set({ ...changes, updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
