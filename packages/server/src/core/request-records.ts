import type { NextFunction, Request, Response } from 'express';
import type { Insertable } from 'kysely';
import type { AppContext } from './context';
import type { RequestLogsTable } from '../db/schema';
import { Batcher } from './batcher';

type RouteMetadata = { metadata?: { requestLog?: 'line' | 'summary' } };

/** The row kept for a request, or `undefined` when nothing about it is kept (no tenant caller; a frequent route that succeeded). */
export function requestRecordOf(req: Request, status: number, latencyMs: number, error: unknown): Insertable<RequestLogsTable> | undefined {
  const p = req.principal;
  if (!p || !('scope' in p)) return undefined;
  const route = (req as Request & { tsRestRoute?: RouteMetadata }).tsRestRoute;
  // A heartbeat or door scan counts into the summary log line; only its failures are worth a row each.
  if (route?.metadata?.requestLog === 'summary' && status < 400) return undefined;
  return {
    id: String(req.id),
    tenant_id: p.scope.tenantId,
    livemode: p.scope.livemode,
    method: req.method,
    // Never the query string: it may carry a token.
    path: req.originalUrl.split('?')[0]!.slice(0, 500),
    status,
    api_key_id: 'key' in p ? p.key.id : null,
    user_id: p.kind === 'user' ? p.userId : null,
    latency_ms: Math.round(latencyMs),
    error: status >= 400 && error && typeof error === 'object' ? JSON.stringify(error) : null,
  };
}

/**
 * Keeps each API request of a tenant's caller in the request log when it ends: method, path, status, key or member,
 * latency and the error answered. Never a header, a body sent, or the query string. Rows go out in group commits
 * (one insert for the requests that ended meanwhile), after the answer, so a request never waits for its row.
 */
export function recordRequests(ctx: AppContext) {
  if (ctx.config.SVC_REQUEST_LOG_RETENTION_DAYS === 0) return (_req: Request, _res: Response, next: NextFunction) => next();
  const writes = new Batcher<Insertable<RequestLogsTable>, undefined>(
    async (rows) => {
      await ctx.db.insertInto('request_logs').values(rows).onConflict((oc) => oc.column('id').doNothing()).execute();
      return rows.map(() => undefined);
    },
    { maxItems: 500, maxConcurrent: 1 },
  );
  return (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    let error: unknown;
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      if (res.statusCode >= 400) error = (body as { error?: unknown } | null)?.error;
      return json(body);
    };
    res.once('close', () => {
      const row = requestRecordOf(req, res.statusCode, performance.now() - started, error);
      if (row) writes.add(row).catch((err: unknown) => ctx.log.warn({ err }, 'request log write failed'));
    });
    next();
  };
}
