import type { AppContext } from '../../../core/context';
import type { Executor } from '../../../db/database';
import { notifyPublicEventChanged } from './public-event-cache';
import { publicReadsOf } from './public-parts';

/**
 * Called in the transaction of every change to what the public page shows of an event (the event, its ticket
 * types, its slots): this process forgets the event at once and every process, this one included, hears of it
 * when the transaction commits. A read that the change overtook is not cached.
 */
export async function publicEventChanged(ctx: AppContext, trx: Executor, eventId: string): Promise<void> {
  publicReadsOf(ctx).events.forget(eventId);
  await notifyPublicEventChanged(trx, eventId);
}
