import { sql, type ExpressionBuilder } from 'kysely';
import type { CursorPageQuery } from '@svc/contract';
import type { Executor } from '../../../db/database';
import type { DB } from '../../../db/schema';
import { paginate } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';

/** Events are kept, listed and fetched for this long, then purged. */
export const EVENT_RETENTION_DAYS = 30;

export interface EventFilters {
  type?: string;
  created?: { gte?: Date; lte?: Date; gt?: Date; lt?: Date };
  subject?: string;
  deliverySuccess?: boolean;
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const retained = sql<boolean>`event_log.created_at >= now() - make_interval(days => ${EVENT_RETENTION_DAYS})`;

/** An endpoint got some delivery of the event, none of which succeeded (yet). */
const undelivered = (eb: ExpressionBuilder<DB, 'event_log'>) =>
  eb.exists(
    eb
      .selectFrom('webhook_deliveries as d')
      .select('d.id')
      .whereRef('d.event_id', '=', 'event_log.id')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('webhook_deliveries as s')
              .select('s.id')
              .whereRef('s.event_id', '=', 'd.event_id')
              .whereRef('s.endpoint_id', '=', 'd.endpoint_id')
              .where('s.state', '=', 'succeeded'),
          ),
        ),
      ),
  );

export async function listEvents(db: Executor, scope: Scope, f: EventFilters, page: CursorPageQuery) {
  let q = scoped(db, scope).selectFrom('event_log').select(['event_log.id', 'event_log.envelope']).where(retained);
  if (f.type && f.type !== '*') {
    q = f.type.endsWith('.*')
      ? q.where('event_log.type', 'like', `${likeEscape(f.type.slice(0, -1))}%`)
      : q.where('event_log.type', '=', f.type);
  }
  if (f.subject) q = q.where('event_log.subject', '=', f.subject);
  if (f.created?.gte) q = q.where('event_log.created_at', '>=', f.created.gte);
  if (f.created?.gt) q = q.where('event_log.created_at', '>', f.created.gt);
  if (f.created?.lte) q = q.where('event_log.created_at', '<=', f.created.lte);
  if (f.created?.lt) q = q.where('event_log.created_at', '<', f.created.lt);
  if (f.deliverySuccess === false) q = q.where(undelivered);
  if (f.deliverySuccess === true) {
    q = q.where((eb) =>
      eb.and([eb.exists(eb.selectFrom('webhook_deliveries as d').select('d.id').whereRef('d.event_id', '=', 'event_log.id')), eb.not(undelivered(eb))]),
    );
  }
  return paginate(q, 'event_log.id', page);
}

export async function findEvent(db: Executor, scope: Scope, id: string) {
  return scoped(db, scope).selectFrom('event_log').select(['id', 'envelope']).where('id', '=', id).where(retained).executeTakeFirst();
}

/** Deletes events past retention with their deliveries and attempts; in batches, so no single statement runs long. */
export async function purgeOldEvents(db: Executor, batch = 5000): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await db
      .deleteFrom('event_log')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('event_log')
          .select('id')
          .where('created_at', '<', sql<Date>`now() - make_interval(days => ${EVENT_RETENTION_DAYS})`)
          .limit(batch),
      )
      .executeTakeFirst();
    const n = Number(result.numDeletedRows);
    total += n;
    if (n < batch) return total;
  }
}
