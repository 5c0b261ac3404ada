import type { Transaction } from 'kysely';
import type { EntitlementRow } from '../../../db/access.schema';
import type { DB } from '../../../db/schema';
import { ApiError } from '../../../core/errors';
import type { Scope } from '../../../core/scope';
import * as sessions from './sessions.repository';

/**
 * The entitlement's limits for one new session, run while the caller holds the entitlement's row lock, so
 * opens racing for the last device, view or concurrent slot are decided one after another on every process.
 * Refusals throw before anything is written, so a refused open uses no view and no device slot. On success
 * it answers which sessions the new one replaces and whether it counts as a view; `insertSession` applies
 * both with the insert.
 *
 * - The device's own active session is replaced (same `device_id` reopening) and costs no new view.
 * - `max_devices`: distinct devices that ever opened a session; a new one beyond it is refused.
 * - `max_views`: sessions opened in all.
 * - `max_concurrent_sessions`: other active sessions; `reject_new` refuses, `replace_oldest` ends the oldest.
 */
export async function admitSession(
  trx: Transaction<DB>,
  scope: Scope,
  entitlement: EntitlementRow,
  deviceId: string,
  now: Date,
): Promise<sessions.Admission> {
  const { max_devices, max_views, max_concurrent_sessions, concurrency_policy } = entitlement.limits;
  const active = await sessions.settleActiveSessionsOf(trx, scope, entitlement.id, now);
  const own = active.filter((s) => s.device_id === deviceId);
  const others = active.filter((s) => s.device_id !== deviceId);

  if (max_devices !== null) {
    const usage = await sessions.deviceUsage(trx, scope, entitlement.id, deviceId);
    if (!usage.known && usage.devices >= max_devices) {
      throw ApiError.of('device_limit_reached', {
        message: `This entitlement allows ${max_devices} device(s), all in use.`,
        details: { max_devices, entitlement: entitlement.id },
      });
    }
  }
  const countsAsView = own.length === 0;
  if (max_views !== null && countsAsView && entitlement.views_used >= max_views) {
    throw ApiError.of('view_limit_reached', {
      message: `This entitlement allows ${max_views} view(s), all used.`,
      details: { max_views, entitlement: entitlement.id },
    });
  }
  const replaced = own.map((s) => s.id);
  if (max_concurrent_sessions !== null && others.length >= max_concurrent_sessions) {
    if (concurrency_policy === 'reject_new') {
      throw ApiError.of('concurrency_limit_reached', {
        message: `This entitlement allows ${max_concurrent_sessions} session(s) at once; end one first.`,
        details: { max_concurrent_sessions, entitlement: entitlement.id },
      });
    }
    replaced.push(...others.slice(0, others.length - max_concurrent_sessions + 1).map((s) => s.id));
  }
  return { replaced, countsAsView };
}
