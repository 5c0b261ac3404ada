import { createHash } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { LIMITS } from '@svc/contract';
import type { AppContext } from './context';
import { ApiError } from './errors';
import type { Principal } from './principal';
import { routeAccess } from './auth/authenticate';
import { claimKey, storeAnswer } from './idempotency-store';
import { scoped, type Scope } from './scope';

const MUTATING = new Set(['POST', 'PATCH', 'DELETE']);
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

/**
 * Keys are kept per caller, so one caller's replay never returns another's stored answer (a restricted key
 * must not read the secret a secret key's `POST /v1/keys` returned): per API key, per customer token `sub`,
 * per signed-in person, per client address for a browser without a token or a tenant header alone. As a JSON
 * list, because a customer id (any text) or an IPv6 address may itself hold the separator.
 */
export function callerKey(principal: Principal, sent: string): string {
  switch (principal.kind) {
    case 'secret':
    case 'restricted':
      return JSON.stringify(['key', principal.key.id, sent]);
    case 'customer':
      return JSON.stringify(['customer', principal.customer, sent]);
    case 'publishable':
      return JSON.stringify(['client', principal.clientId, sent]);
    case 'user':
      return JSON.stringify(['user', principal.userId, sent]);
    case 'tenant-header':
      return JSON.stringify(['tenant-header', principal.ip, sent]);
    case 'operator':
    case 'anonymous':
      return sent;
  }
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
 * concurrent first requests impossible. Claims and stored answers of concurrent requests are written in
 * batches (`idempotency-store.ts`), so a key costs a share of two statements, not two round trips.
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
      const key = callerKey(principal, sent);
      const requestHash = createHash('sha256').update(`${req.method} ${req.path}\n${canonicalJson(req.body ?? null)}`).digest('hex');
      const claimed = await claimKey(ctx.db, { scope, key, method: req.method, path: req.path, requestHash });
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
      ? storeAnswer(ctx.db, { scope, key, status, body: JSON.stringify(sealStored(ctx, scope, key, body)) })
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
