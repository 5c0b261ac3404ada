import qs from 'qs';
import { describe, expect, it } from 'vitest';
import { bearer, useTestServer } from '../harness';
import { expectStatus } from '../kit/expect';

const t = useTestServer();

describe('the query string', () => {
  it('is parsed once a request, however many parts of the request path read it', async () => {
    const { keys } = await t.tenant();
    let parses = 0;
    t.app.set('query parser', (query: string) => {
      parses++;
      return qs.parse(query, { depth: 2, arrayLimit: 100, parameterLimit: 200 });
    });
    for (const path of ['/v1/streams/live_streams?limit=2&metadata[tier]=gold', '/v1/status']) {
      parses = 0;
      expectStatus(await t.http().get(path).set(bearer(keys.test.secret)), 200);
      expect(parses).toBe(1);
    }
    // What is parsed is what the route reads: the bracketed metadata filter still applies.
    await t.http().post('/v1/streams/live_streams').set(bearer(keys.test.secret)).send({ metadata: { tier: 'gold' } });
    await t.http().post('/v1/streams/live_streams').set(bearer(keys.test.secret)).send({ metadata: { tier: 'silver' } });
    const page = expectStatus(await t.http().get('/v1/streams/live_streams?metadata[tier]=gold').set(bearer(keys.test.secret)), 200);
    expect(page.data.map((s: { metadata: { tier: string } }) => s.metadata.tier)).toEqual(['gold']);
  });
});
