import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { dataOf } from '../common/pagination';
import { LiveStreamSchema, SimulateLiveStreamSchema } from './live-streams.schemas';

const c = initContract();

/** Test helpers take a test-mode secret key only: a live key gets `403 live_mode_unavailable`. */
export const testHelperAccess = access({
  auth: 'tenant',
  credentials: ['secret'],
  scope: 'streams:write',
  product: 'streams',
  liveMode: false,
});

export const liveStreamTestHelpersContract = c.router(
  {
    simulate: {
      method: 'POST',
      path: '/v1/test_helpers/live_streams/:id/simulate',
      summary: 'Simulate the video network on a live stream',
      description:
        'Reports what a real network would, through the same state machine and events: `connected` (encoder connects → `connecting`), `active` (video flows), ' +
        '`disconnected` (encoder drops; the reconnect window starts), `idle` (broadcast ends), `unhealthy` / `recovered` (network health, no status change). ' +
        'A `stream_key` that is not the current key is refused with `409 stream_key_rejected`; a disabled stream refuses `connected` with `409 stream_disabled`; ' +
        'a move the state table does not allow answers `409 invalid_state_transition`.',
      pathParams: z.object({ id: z.string().max(255) }),
      body: SimulateLiveStreamSchema,
      responses: { 200: dataOf(LiveStreamSchema), ...errorResponses(...COMMON_ERROR_STATUSES), ...errorResponses(404, 409, 422) },
      metadata: testHelperAccess,
    },
  },
  { strictStatusCodes: true },
);
