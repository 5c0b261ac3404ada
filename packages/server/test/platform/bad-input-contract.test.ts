import { describe, expect, it } from 'vitest';
import { contract } from '@svc/contract';
import { routesOf } from '../../src/core/unknown-route';
import { sweep, useBadInputServer } from './bad-input-fixture';
import { requestsFor, sweepRoutes } from './bad-input-requests';

/**
 * A sweep of bad input over every route of the contract: whatever arrives, the answer is a 2xx or the spec's error
 * shape with a catalogued code, never a 5xx and never a stack trace. `bad-input-outside-contract.test.ts` does the
 * same for the routes beside the contract.
 */

useBadInputServer();

const routes = sweepRoutes;

describe('every contract route answers bad input with a 2xx or the error shape', () => {
  it('covers every route of the contract', () => {
    expect(routes.length).toBe(routesOf(contract).length);
    expect(routes.length).toBeGreaterThan(50);
  });

  for (const route of routes) {
    it(`${route.method} ${route.path}`, async () => {
      expect(await sweep(requestsFor(route))).toEqual([]);
    });
  }
});
