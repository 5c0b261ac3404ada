import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, useTestServer, type TestServer } from '../harness';

const t = useTestServer();

describe('smoke', () => {
  it('lists keys of a new tenant', async () => {
    const { keys } = await t.tenant();
    const res = await t.http().get('/v1/keys').set(bearer(keys.test.secret));
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(2);
    expect(res.headers['request-id']).toMatch(/^req_/);
  });
});
