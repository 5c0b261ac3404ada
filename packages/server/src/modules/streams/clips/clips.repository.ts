import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../../db/database';
import type { ClipsTable } from '../../../db/schema';
import { scoped, type Scope } from '../../../core/scope';

export type ClipRow = Selectable<ClipsTable>;
export type ClipWithStatus = ClipRow & { status: 'preparing' | 'ready' | 'errored' };

export async function insertClip(db: Executor, scope: Scope, clip: Omit<Insertable<ClipsTable>, 'tenant_id' | 'livemode'>) {
  return scoped(db, scope).insertInto('clips', clip).returningAll().executeTakeFirstOrThrow();
}

/** The clip with its asset's status; a clip whose asset was deleted is gone too. */
export async function findClip(db: Executor, scope: Scope, id: string): Promise<ClipWithStatus | undefined> {
  return scoped(db, scope)
    .selectFrom('clips')
    .innerJoin('assets', 'assets.id', 'clips.asset_id')
    .selectAll('clips')
    .select('assets.status')
    .where('clips.id', '=', id)
    .where('assets.deleted_at', 'is', null)
    .executeTakeFirst();
}
