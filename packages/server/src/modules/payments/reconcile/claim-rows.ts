import type { Transaction } from 'kysely';
import type { DB } from '../../../db/schema';

/** Moves the claimed rows' next check to the end of the lease (the check itself sets the real next one). */
export async function claimRows(trx: Transaction<DB>, paymentIds: string[], refundIds: string[], lease: Date): Promise<void> {
  if (paymentIds.length > 0) await trx.updateTable('payments').set({ next_check_at: lease }).where('id', 'in', paymentIds).execute();
  if (refundIds.length > 0) await trx.updateTable('refunds').set({ next_check_at: lease }).where('id', 'in', refundIds).execute();
}
