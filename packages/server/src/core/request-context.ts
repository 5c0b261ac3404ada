import type { Request } from 'express';

/** The API request acting in a scope, read when an event is built (`idempotencyKey` is set after authentication). */
export type RequestRef = Pick<Request, 'id' | 'idempotencyKey'>;

/** `{id, idempotency_key}` of a request, or `null` for work no request caused (jobs, the CLI). */
export function eventRequestOf(req: RequestRef | null | undefined): { id: string; idempotency_key: string | null } | null {
  return req ? { id: String(req.id), idempotency_key: req.idempotencyKey ?? null } : null;
}
