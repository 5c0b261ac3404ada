import type { Entitlement, EntitlementSource } from '@svc/contract';
import type { Transaction } from 'kysely';
import type { EntitlementRow } from '../../../db/access.schema';
import type { DB } from '../../../db/schema';
import { emitEvent, envelopeOf, type PreparedEvent } from '../../../core/events/emit-event';
import type { Scope } from '../../../core/scope';
import { entitlementChanged } from './entitlement-cache';
import { effectiveStatus } from './entitlement-rules';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The entitlement as the API shows it, with the status a reader sees at `now`. */
export function serializeEntitlement(row: EntitlementRow, now: Date): Entitlement {
  return {
    id: row.id,
    object: 'entitlement',
    livemode: row.livemode,
    customer: row.customer,
    contact_hash: row.contact_hash,
    resource: { type: row.resource_type, id: row.resource_id },
    source: row.source as EntitlementSource,
    source_ref: row.source_ref,
    starts_at: iso(row.starts_at),
    ends_at: iso(row.ends_at),
    limits: row.limits,
    status: effectiveStatus(row, now),
    external_id: row.external_id,
    metadata: row.metadata,
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}

export type EntitlementEventType =
  | 'access.entitlement.granted'
  | 'access.entitlement.revoked'
  | 'access.entitlement.suspended'
  | 'access.entitlement.resumed'
  | 'access.entitlement.expired'
  | 'access.entitlement.extended';

/** Records an entitlement event in the transaction that made the change (and tells every process's cache); returns the entitlement as shown. */
export async function emitEntitlementEvent(
  trx: Transaction<DB>,
  scope: Scope,
  type: EntitlementEventType,
  row: EntitlementRow,
  now: Date,
  previousAttributes?: Record<string, unknown>,
): Promise<Entitlement> {
  const entitlement = serializeEntitlement(row, now);
  // Every change of an entitlement emits an event, so this is where every process hears of it.
  await emitEvent(trx, scope, { type, subject: row.id, object: entitlement, previousAttributes }, { notify: entitlementChanged(row) });
  return entitlement;
}

/** The event `emitEntitlementEvent` records, built but not recorded: for a caller that records many together. */
export function prepareEntitlementEvent(scope: Scope, type: EntitlementEventType, row: EntitlementRow, now: Date): PreparedEvent {
  const envelope = envelopeOf(scope, { type, subject: row.id, object: serializeEntitlement(row, now) });
  return { scope, envelope, notify: entitlementChanged(row) };
}
