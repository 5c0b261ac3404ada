import { accessCheck, entitlementGrant, sessionOpen } from './access';
import { analyticsAtScale } from './analytics';
import { attributionRush } from './attribution';
import { attendeeExport } from './attendee-export';
import { consoleFirstLoad } from './console';
import { doorScans } from './door-scans';
import { floor } from './floor';
import { heartbeat } from './heartbeat';
import { hostile } from './hostile';
import { listLiveStreams } from './streams';
import { rateLimits } from './rate-limits';
import { mpesaCallback } from './mpesa-callback';
import { paymentConfirmations, ticketRush } from './ticketing';
import { publicEventPage, signedInRead } from './ticketing-reads';
import type { Scenario } from './types';
import { viewers10k } from './viewers';
import { webhookFanOut } from './webhooks';
import { merchRush } from './commerce';
import { renewals } from './renewals';

export type { Context, Scenario } from './types';

/** In the order they run; the webhook fan-out goes last so its endpoints receive no other scenario's events. */
export const SCENARIOS: Scenario[] = [
  floor,
  heartbeat,
  sessionOpen,
  accessCheck,
  entitlementGrant,
  listLiveStreams,
  ticketRush,
  attributionRush,
  paymentConfirmations,
  mpesaCallback,
  merchRush,
  renewals,
  publicEventPage,
  signedInRead,
  doorScans,
  analyticsAtScale,
  attendeeExport,
  rateLimits,
  hostile,
  consoleFirstLoad,
  viewers10k,
  webhookFanOut,
];
