import { AsyncLocalStorage } from 'node:async_hooks';
import type { NextFunction, Request, Response } from 'express';

interface RequestContext {
  /** Read when needed: the idempotency middleware sets `idempotencyKey` after this context starts. */
  req: Pick<Request, 'id' | 'idempotencyKey'>;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Makes the current request reachable from code it calls (event envelopes name their causing request). */
export function requestContext() {
  return (req: Request, _res: Response, next: NextFunction) => storage.run({ req }, next);
}

/** `{id, idempotency_key}` of the request being handled, or `null` outside a request (jobs, CLI). */
export function currentRequest(): { id: string; idempotency_key: string | null } | null {
  const req = storage.getStore()?.req;
  return req ? { id: String(req.id), idempotency_key: req.idempotencyKey ?? null } : null;
}

/** Runs `fn` outside any request, e.g. background work a request starts but does not own. */
export const outsideRequest = <T>(fn: () => T): T => storage.exit(fn);
