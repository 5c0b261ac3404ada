import type { Database } from '../../../db/database';
import { moveMessage } from '../delivery/message-transitions';

/** A delivery receipt read from a provider's callback: the message by the provider's id (or ours, when it carries it). */
export interface Receipt {
  provider: string;
  providerId: string;
  messageId?: string;
  outcome: 'delivered' | 'failed';
  errorCode?: string;
  at: Date;
}

export type ReceiptOutcome = 'applied' | 'unchanged' | 'unknown';

/**
 * Applies one receipt in one transaction. Statuses only move forward (`sent` → `delivered` or `failed`), each by
 * a conditional update, so a replayed or late receipt changes nothing and emits nothing.
 */
export async function applyReceipt(db: Database, r: Receipt): Promise<ReceiptOutcome> {
  return db.transaction().execute(async (trx) => {
    let q = trx.selectFrom('messages').select(['id', 'status']).where('provider', '=', r.provider);
    q = r.messageId ? q.where((w) => w.or([w('provider_id', '=', r.providerId), w('id', '=', r.messageId!)])) : q.where('provider_id', '=', r.providerId);
    const found = await q.where('livemode', '=', true).executeTakeFirst();
    if (!found) return 'unknown';
    const moved =
      r.outcome === 'delivered'
        ? await moveMessage(trx, found.id, ['sending', 'sent'], { status: 'delivered', delivered_at: r.at, error_code: null, provider_id: r.providerId, lease_until: null })
        : await moveMessage(trx, found.id, ['sending', 'sent'], { status: 'failed', failed_at: r.at, error_code: r.errorCode ?? 'undeliverable', provider_id: r.providerId, lease_until: null });
    return moved ? 'applied' : 'unchanged';
  });
}
