import type { PublicEventRef } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import type { Scope } from '../../../core/scope';

export type PublicEvent = PublicEventRef;

/**
 * The organization's published ticketed events with a live stream still to come, soonest first, as ticketing's
 * public event reads show them: the public capsule's `featured.upcoming_live` and `stats.live_count`.
 * Ticketing owns those events and offers them through its `index.ts`; until that lands this answers none.
 */
export async function upcomingLiveEvents(_ctx: AppContext, _scope: Scope, _organizationId: string): Promise<PublicEvent[]> {
  return [];
}
