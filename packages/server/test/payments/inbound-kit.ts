import { applyNotification } from '../../src/modules/payments/inbound/apply-notification';
import type { TestServer } from '../harness';

/** The inbox rows of a configuration, oldest first. */
export const inboxOf = (t: TestServer, configId: string) =>
  t.ctx.db.selectFrom('payment_notifications').selectAll().where('provider_config_id', '=', configId).orderBy('id').execute();

/** Applies every row not yet applied, as the job would; returns the outcomes. */
export async function applyInbox(t: TestServer, configId: string): Promise<string[]> {
  const rows = (await inboxOf(t, configId)).filter((r) => r.applied_at === null);
  const out: string[] = [];
  for (const r of rows) out.push(await applyNotification(t.ctx, String(r.id)));
  return out;
}

export const paymentRow = (t: TestServer, id: string) => t.ctx.db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
