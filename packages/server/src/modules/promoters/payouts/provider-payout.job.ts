import { z } from 'zod';
import { defineJob, schedulePayload } from '../../../jobs/job-definition';

const HOUR = 3_600_000;
/** A B2C result comes within minutes; a payout without one is first asked about after an hour, then hourly. */
export const PAYOUT_CHECK_AFTER_MS = HOUR;
/** Three days of silence, with Transaction Status asked hourly, means no answer will come. */
export const PAYOUT_GIVE_UP_AFTER_MS = 72 * HOUR;

/** Sends one payout's B2C request after the payout committed. */
export const sendPayoutJobType = defineJob({
  name: 'promoters-send-payout',
  version: 1,
  payload: z.object({ tenant_id: z.string(), livemode: z.boolean(), payout_id: z.string() }),
  retry: { limit: 3, delaySeconds: 5 },
});

/** Every five minutes: provider payouts whose check is due (sent again if never sent, else Transaction Status). */
export const checkPayoutsJobType = defineJob({
  name: 'promoters-check-payouts',
  version: 1,
  payload: schedulePayload(),
  retry: { limit: 1 },
  expireInSeconds: 300,
  schedule: '*/5 * * * *',
});
