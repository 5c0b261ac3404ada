import type { EventEnvelope, ListEventLogQuerySchema } from '@svc/contract';
import type { z } from 'zod';
import { ApiError } from '../../../core/errors';
import { isIdOf } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import * as repo from './event-log.repository';

type ListQuery = z.infer<typeof ListEventLogQuerySchema>;

/** `created[...]` takes ISO 8601 or Unix seconds. */
const instant = (v: string | undefined) => (v === undefined ? undefined : /^\d+$/.test(v) ? new Date(Number(v) * 1000) : new Date(v));

const parse = (row: { envelope: string }) => JSON.parse(row.envelope) as EventEnvelope;

export async function listEvents(db: Executor, scope: Scope, query: ListQuery) {
  const { type, created, subject, delivery_success, ...page } = query;
  const result = await repo.listEvents(
    db,
    scope,
    {
      type,
      subject,
      created: created && { gte: instant(created.gte), lte: instant(created.lte), gt: instant(created.gt), lt: instant(created.lt) },
      deliverySuccess: delivery_success === undefined ? undefined : delivery_success === 'true',
    },
    page,
  );
  return { ...result, data: result.data.map(parse) };
}

/** An `evt_` id reads the event log; anything else is not an event of the log. */
export async function getEvent(db: Executor, scope: Scope, id: string) {
  const row = isIdOf('event', id) ? await repo.findEvent(db, scope, id) : undefined;
  if (!row) throw ApiError.notFound('event', id);
  return parse(row);
}
