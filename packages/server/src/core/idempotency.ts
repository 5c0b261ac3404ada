import { createHash } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { sql } from 'kysely';
import { LIMITS } from '@svc/contract';
import type { AppContext } from './context';
import { ApiError } from './errors';
import { routeAccess } from './auth/authenticate';
import { scoped, type Scope } from './scope';

const MUTATING = new Set(['POST', 'PATCH', 'DELETE']);
/** How long a first request may run before a retry with its key may take over (a crashed process never releases it). */
const LOCK_SECONDS = 300;
/** The operator's keys live in their own scope, apart from every tenant's. */
const OPERATOR_SCOPE: Scope = { tenantId: 'operator', livemode: false };

/** JSON with sorted object keys, so `{a,b}` and `{b,a}` count as the same body. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const isStored = (status: number) => status !== 422 && status < 500;

// Stored answers can hold secrets shown once (a new API key, a webhook signing secret), so they are kept
// encrypted, bound to the tenant, environment and key they answer.
const storageContext = (scope: Scope, key: string) => `idempotency:${scope.tenantId}:${scope.livemode}:${key}`;
const sealStored = (ctx: AppContext, scope: Scope, key: string, body: unknown) =>
  ctx.secrets.encrypt(JSON.stringify(body ?? null), storageContext(scope, key));
const openStored = (ctx: AppContext, scope: Scope, key: string, stored: unknown) =>
  JSON.parse(ctx.secrets.decrypt(stored as string, storageContext(scope, key))) as unknown;

/**
 * `Idempotency-Key` on POST, PATCH and DELETE: the first result is stored for 24 hours in a row keyed by
 * tenant, environment and key, so several processes on one database agree; the primary key makes two
 * concurrent first requests impossible.
 */
export function idempotency(ctx: AppContext) {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      if (!MUTATING.has(req.method)) return next();
      const access = routeAccess(req);
      const sent = req.get('Idempotency-Key');
      if (sent === undefined) {
        if ('idempotency' in access && access.idempotency === 'required') {
          throw ApiError.of('idempotency_key_required', { param: 'Idempotency-Key' });
        }
        return next();
      }
      if (sent.length === 0 || sent.length > LIMITS.idempotency.maxKeyLength) {
        throw ApiError.of('idempotency_key_invalid', { param: 'Idempotency-Key' });
      }
      const principal = req.principal;
      const scope = principal && 'scope' in principal ? principal.scope : principal?.kind === 'operator' ? OPERATOR_SCOPE : null;
      if (!scope || !principal) return next();
      // Every viewer's browser shares the tenant's publishable key: one viewer's key must never replay
      // another's answer, so browser keys are kept per customer (or per client without a token).
      const key =
        principal.kind === 'customer' ? `customer:${principal.customer}:${sent}` : principal.kind === 'publishable' ? `client:${principal.clientId}:${sent}` : sent;

      const requestHash = createHash('sha256').update(`${req.method} ${req.path}\n${canonicalJson(req.body ?? null)}`).digest('hex');
      const claimed = await claim(ctx, scope, key, req, requestHash);
      if (!claimed) {
        const existing = await scoped(ctx.db, scope)
          .selectFrom('idempotency_keys')
          .selectAll()
          .where('key', '=', key)
          .executeTakeFirst();
        if (!existing) return next(ApiError.of('idempotency_key_in_use'));
        if (existing.request_hash !== requestHash) {
          throw ApiError.of('idempotency_key_reused', {
            message: 'This Idempotency-Key was used with a different method, path or body.',
          });
        }
        if (existing.response_status === null) throw ApiError.of('idempotency_key_in_use');
        res.setHeader('Idempotent-Replayed', 'true');
        res.status(existing.response_status).json(openStored(ctx, scope, key, existing.response_body));
        return;
      }
      holdUntilAnswered(ctx, scope, key, res);
      req.idempotencyKey = sent;
      next();
    } catch (err) {
      next(err);
    }
  };
}

/** Inserts the key's row, or takes over one that expired or whose first request died; true when this request owns it. */
async function claim(ctx: AppContext, scope: Scope, key: string, req: Request, requestHash: string): Promise<boolean> {
  const retention = `${LIMITS.idempotency.retentionHours} hours`;
  const row = await ctx.db
    .insertInto('idempotency_keys')
    .values({
      tenant_id: scope.tenantId,
      livemode: scope.livemode,
      key,
      method: req.method,
      path: req.path,
      request_hash: requestHash,
      locked_until: sql<Date>`now() + make_interval(secs => ${LOCK_SECONDS})`,
    })
    .onConflict((oc) =>
      oc
        .columns(['tenant_id', 'livemode', 'key'])
        .doUpdateSet((eb) => ({
          method: eb.ref('excluded.method'),
          path: eb.ref('excluded.path'),
          request_hash: eb.ref('excluded.request_hash'),
          response_status: null,
          response_body: null,
          locked_until: eb.ref('excluded.locked_until'),
          created_at: sql<Date>`now()`,
        }))
        .where((eb) =>
          eb.or([
            eb('idempotency_keys.created_at', '<', sql<Date>`now() - ${retention}::interval`),
            eb.and([
              eb('idempotency_keys.response_status', 'is', null),
              eb('idempotency_keys.locked_until', '<', sql<Date>`now()`),
              eb('idempotency_keys.request_hash', '=', eb.ref('excluded.request_hash')),
            ]),
          ]),
        ),
    )
    .returning('key')
    .executeTakeFirst();
  return row !== undefined;
}

/** Stores the answer before it is sent, so a retry that arrives right after sees it; releases the key when it is not stored. */
function holdUntilAnswered(ctx: AppContext, scope: Scope, key: string, res: Response): void {
  let settled = false;
  const row = () => scoped(ctx.db, scope);
  const release = () =>
    row().deleteFrom('idempotency_keys').where('key', '=', key).where('response_status', 'is', null).execute();

  const send = res.json.bind(res);
  res.json = (body: unknown) => {
    settled = true;
    const status = res.statusCode;
    const store = isStored(status)
      ? row()
          .updateTable('idempotency_keys')
          .set({ response_status: status, response_body: JSON.stringify(sealStored(ctx, scope, key, body)) })
          .where('key', '=', key)
          .execute()
      : release();
    store
      .catch((err: Error) => ctx.log.error({ err: err.message }, 'could not store the idempotent response'))
      .finally(() => send(body));
    return res;
  };
  res.on('close', () => {
    if (!settled) release().catch(() => {});
  });
}
