import type { AppContext } from '../../../core/context';
import type { Executor } from '../../../db/database';
import { notifyPublicEventChanged } from './public-event-cache';
import { publicReadsOf } from './public-parts';

/**
 * Called in the transaction of every change to what the public page shows of an event (the event, its ticket
 * types, its slots): this process forgets the event, and its bookings' sold-out targets, at once, and every
 * process, this one included, hears of it when the transaction commits. A read that the change overtook is not
 * cached.
 */
export async function publicEventChanged(ctx: AppContext, trx: Executor, eventId: string): Promise<void> {
  const reads = publicReadsOf(ctx);
  reads.events.forget(eventId);
  reads.soldOut.forget(eventId);
  await notifyPublicEventChanged(trx, eventId);
}

/**
 * Called in the transaction that gives seats of the event back: this process reads its bookings' targets again at
 * once; every process hears of it when the transaction commits (a trigger on `capacity_buckets`).
 */
export function seatsFreed(ctx: Pick<AppContext, 'parts'>, eventId: string): void {
  publicReadsOf(ctx).soldOut.forget(eventId);
}
