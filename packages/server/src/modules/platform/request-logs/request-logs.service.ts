import type { ListRequestLogsQuerySchema, RequestLog } from '@svc/contract';
import type { z } from 'zod';
import { ApiError } from '../../../core/errors';
import type { Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import * as repo from './request-logs.repository';

type ListQuery = z.infer<typeof ListRequestLogsQuerySchema>;
type Row = NonNullable<Awaited<ReturnType<typeof repo.findRequestLog>>>;

/** `404`, `4xx` or `errors` as an inclusive range of statuses. */
export function statusRange(status: string | undefined): { from: number; to: number } | undefined {
  if (status === undefined) return undefined;
  if (status === 'errors') return { from: 400, to: 599 };
  if (status.endsWith('xx')) {
    const from = Number(status[0]) * 100;
    return { from, to: from + 99 };
  }
  return { from: Number(status), to: Number(status) };
}

const serialize = (row: Row): RequestLog => ({
  id: row.id,
  object: 'request_log',
  livemode: row.livemode,
  method: row.method,
  path: row.path,
  status: row.status,
  api_key: row.api_key_id,
  user: row.user_id,
  latency_ms: row.latency_ms,
  error: (row.error as RequestLog['error']) ?? null,
  created_at: new Date(row.created_at).toISOString(),
});

export async function listRequestLogs(db: Executor, scope: Scope, days: number, query: ListQuery) {
  const { status, path, method, api_key, ...page } = query;
  const result = await repo.listRequestLogs(db, scope, days, { status: statusRange(status), pathPrefix: path, method, apiKey: api_key }, page);
  return { ...result, data: result.data.map(serialize) };
}

export async function getRequestLog(db: Executor, scope: Scope, days: number, id: string) {
  const row = await repo.findRequestLog(db, scope, days, id);
  if (!row) throw ApiError.notFound('request_log', id);
  return serialize(row);
}
