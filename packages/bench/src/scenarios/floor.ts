import { type Scenario } from './types';

/**
 * `GET /v1/status`: a route that does no work, through the same Express, ts-rest and middleware as every
 * other. What it costs against the bare Express ceiling is the request path's own share of each figure below.
 */
export const floor: Scenario = {
  name: 'floor',
  run: async (_ctx, measure) => {
    const result = await measure(() => ({ method: 'GET', path: '/v1/status' }));
    return { results: [{ name: 'floor: Svc GET /v1/status (no work)', result }] };
  },
};
