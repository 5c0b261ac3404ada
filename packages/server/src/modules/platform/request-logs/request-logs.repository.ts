import { sql } from 'kysely';
import type { CursorPageQuery } from '@svc/contract';
import type { Executor } from '../../../db/database';
import { paginate } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';

export interface RequestLogFilters {
  /** Inclusive status range. */
  status?: { from: number; to: number };
  pathPrefix?: string;
  method?: string;
  apiKey?: string;
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const COLUMNS = ['id', 'livemode', 'method', 'path', 'status', 'api_key_id', 'user_id', 'latency_ms', 'error', 'created_at'] as const;

/** Rows within retention only: a row the hourly purge has not reached yet is already gone for readers. */
const retained = (days: number) => sql<boolean>`request_logs.created_at >= now() - make_interval(days => ${days})`;

export async function listRequestLogs(db: Executor, scope: Scope, days: number, f: RequestLogFilters, page: CursorPageQuery) {
  let q = scoped(db, scope).selectFrom('request_logs').select(COLUMNS).where(retained(days));
  if (f.status) q = q.where('status', '>=', f.status.from).where('status', '<=', f.status.to);
  if (f.pathPrefix) q = q.where('path', 'like', `${likeEscape(f.pathPrefix)}%`);
  if (f.method) q = q.where('method', '=', f.method);
  if (f.apiKey) q = q.where('api_key_id', '=', f.apiKey);
  return paginate(q, 'request_logs.id', page);
}

export async function findRequestLog(db: Executor, scope: Scope, days: number, id: string) {
  return scoped(db, scope).selectFrom('request_logs').select(COLUMNS).where('id', '=', id).where(retained(days)).executeTakeFirst();
}

/** Deletes rows past retention in batches, so no statement runs long. */
export async function purgeRequestLogs(db: Executor, days: number, batch = 5000): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await db
      .deleteFrom('request_logs')
      .where('id', 'in', (eb) =>
        eb.selectFrom('request_logs').select('id').where('created_at', '<', sql<Date>`now() - make_interval(days => ${days})`).limit(batch),
      )
      .executeTakeFirst();
    const n = Number(result.numDeletedRows);
    total += n;
    if (n < batch) return total;
  }
}
