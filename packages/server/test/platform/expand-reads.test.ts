import type { AppRoute } from '@ts-rest/core';
import { contract, type RouteAccess } from '@svc/contract';
import { describe, expect, it } from 'vitest';
import { routesOf } from '../../src/core/unknown-route';
import { bearer, useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';

const t = useTestServer();

const accessOf = (route: AppRoute) => (route.metadata as { access?: RouteAccess } | undefined)?.access;
/** Every read a secret key or the operator may make: the ones an `expand[]` path can be sent to. */
const reads = routesOf(contract).filter((r) => {
  const a = accessOf(r);
  return r.method === 'GET' && (a?.auth === 'operator' || (a?.auth === 'tenant' && a.credentials.includes('secret')));
});
/** A path parameter that names nothing: the path must be refused before anything is loaded. */
const concrete = (path: string) => path.replace(/:([A-Za-z_]+)/g, (_m, name: string) => (name === 'external_id' ? 'ext-1' : 'abc_01jdzzzzzzzzzzzzzzzzzzzzzz'));

describe('expand[] on every read', () => {
  it('covers single reads and lists alike', () => {
    expect(reads.some((r) => /:[a-z_]+$/.test(r.path))).toBe(true);
    expect(reads.some((r) => !/:[a-z_]+$/.test(r.path))).toBe(true);
  });

  it.each(reads.map((r) => [r.path, r] as const))('GET %s refuses an unknown path with 400 invalid_expand_path', async (_path, route) => {
    const { keys } = await t.tenant('Expand');
    const auth = accessOf(route)?.auth === 'operator' ? t.operator : bearer(keys.test.secret);
    for (const query of ['expand[]=bogus.deeper', 'expand[0]=bogus.deeper', 'expand=bogus.deeper']) {
      const res = await t.http().get(`${concrete(route.path)}?${query}`).set(auth);
      expectError(res, 400, 'invalid_expand_path', { type: 'invalid_request_error', param: 'bogus.deeper' });
    }
  });

  it('still expands a path a read knows', async () => {
    const { keys } = await t.tenant('Expand known');
    const created = await t.http().post('/v1/keys').set(bearer(keys.test.secret)).send({ type: 'restricted', name: 'r', scopes: ['streams:read'] });
    const { data } = expectStatus(created, 201);
    const res = await t.http().get(`/v1/keys/${data.id}?expand[]=created_by`).set(bearer(keys.test.secret));
    expect(typeof expectStatus(res, 200).data.created_by).toBe('object');
  });
});
