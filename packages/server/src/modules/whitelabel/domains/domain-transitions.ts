import type { Transaction, Updateable } from 'kysely';
import type { EventType } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { isUniqueViolation } from '../../../core/db-errors';
import { ApiError } from '../../../core/errors';
import { emitEvent } from '../../../core/events/emit-event';
import type { Scope } from '../../../core/scope';
import type { DB } from '../../../db/schema';
import type { DomainRow, DomainsTable } from '../../../db/whitelabel.schema';
import { notifyDomainsChanged } from '../whitelabel-cache';
import { whitelabelCachePart } from '../whitelabel-parts';
import { dnsTargetOf } from './domain-probe';
import * as repo from './domains.repository';
import { serializeDomain } from './domains.serializer';

const MINUTE = 60_000;
export const GIVE_UP_MS = 72 * 60 * MINUTE;
export const ACTIVE_RECHECK_MS = 24 * 60 * MINUTE;
export const TXT_MISSES_TO_FAIL = 3;

/** Checks back off from a minute, doubling, to an hour while a domain waits for DNS or routing. */
export const backoffMs = (checks: number) => Math.min(MINUTE * 2 ** Math.min(checks, 10), 60 * MINUTE);

const EVENT_OF: Partial<Record<DomainRow['status'], EventType>> = {
  verified: 'platform.domain.verified',
  active: 'platform.domain.activated',
  failed: 'platform.domain.failed',
};

export type Move = Updateable<DomainsTable>;

export const toVerified = (now: Date): Move => ({ status: 'verified', verified_at: now, failure_reason: null, checks: 0, next_check_at: now });
export const toActive = (now: Date): Move => ({ status: 'active', activated_at: now, txt_misses: 0, checks: 0, next_check_at: new Date(now.getTime() + ACTIVE_RECHECK_MS) });
export const toFailed = (now: Date, reason: NonNullable<DomainRow['failure_reason']>): Move => ({ status: 'failed', failure_reason: reason, failed_at: now, next_check_at: null });
export const toPending = (now: Date): Move => ({
  status: 'pending_verification',
  failure_reason: null,
  failed_at: null,
  verified_at: null,
  activated_at: null,
  txt_misses: 0,
  checks: 0,
  created_at: now,
  next_check_at: now,
});

/**
 * Applies a move in the caller's transaction: the row, its event when the status changed, and the NOTIFY that
 * makes every process re-read the served domains when serving changed. A hostname verified meanwhile by another
 * tenant (the unique claim) is `409 domain_taken`, and the transaction keeps nothing.
 */
export async function applyMove(ctx: AppContext, trx: Transaction<DB>, scope: Scope, row: DomainRow, move: Move): Promise<DomainRow> {
  let updated: DomainRow;
  try {
    updated = await repo.updateDomain(trx, scope, row.id, move);
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    throw ApiError.of('domain_taken', { param: 'hostname', message: `${row.hostname} is verified by another tenant or environment.` });
  }
  const event = updated.status !== row.status ? EVENT_OF[updated.status] : undefined;
  if (event) await emitEvent(trx, scope, { type: event, subject: row.id, object: serializeDomain(updated, dnsTargetOf(ctx)), previousAttributes: { status: row.status } });
  if (row.status === 'active' || updated.status === 'active') await notifyDomainsChanged(trx);
  return updated;
}

/** After the commit: this process stops (or starts) serving at once, without waiting for its own NOTIFY. */
export function forgetServedDomains(ctx: AppContext): void {
  whitelabelCachePart.of(ctx).forgetDomains();
}
