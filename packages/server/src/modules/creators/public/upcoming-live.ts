import type { PublicEventRef } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import type { Scope } from '../../../core/scope';
import { upcomingLiveEvents as ticketingUpcomingLive } from '../../ticketing';

export type PublicEvent = PublicEventRef;

/**
 * The organization's published ticketed events with a live stream not over yet, soonest first, as ticketing's
 * public event reads show them: the public capsule's `featured.upcoming_live` and `stats.live_count`.
 */
export async function upcomingLiveEvents(ctx: AppContext, scope: Scope, organizationId: string): Promise<PublicEvent[]> {
  return ticketingUpcomingLive(ctx, scope, organizationId);
}
