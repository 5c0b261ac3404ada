import { deliverMessage } from '../../src/modules/messaging/delivery/deliver-message';
import { messagingDeps, type MessagingDeps } from '../../src/modules/messaging/delivery/messaging-deps';
import type { TestServer } from '../harness';

/** The outbox worker's dependencies on a test server, with its clock read through the server's. */
export const outboxDeps = (t: TestServer, given: Partial<MessagingDeps> = {}): MessagingDeps => ({ ...messagingDeps(t.ctx), ...given });

/**
 * Runs the delivery job's handler for every message whose job is waiting, as pg-boss would, without a
 * polling loop: a condition tests wait for instead of time.
 */
export async function runOutbox(t: TestServer, given: Partial<MessagingDeps> = {}): Promise<number> {
  const deps = outboxDeps(t, given);
  const waiting = await t.ctx.db
    .selectFrom('messages')
    .select('id')
    .where((w) => w.or([w.and([w('status', '=', 'queued'), w('job_queued_at', 'is not', null)]), w.and([w('status', '=', 'captured'), w('livemode', '=', false)])]))
    .execute();
  for (const { id } of waiting) await deliverMessage(deps, id);
  return waiting.length;
}
