import { sql } from 'kysely';
import type { Response } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, type ErrorCode } from '@svc/contract';
import { newId } from '../../src/core/ids';
import { bearer, useTestServer, type TestServer } from '../harness';

const t = useTestServer();
let secret: string;
beforeAll(async () => {
  secret = (await t.tenant('Errors')).keys.test.secret;
});

/** The spec's error shape: every field present, `request_id` the response's own, `doc_url` the code's entry. */
/** The whole error object of a catalogued code: type, message, request id, doc link, param. */
function expectCatalogued(res: Response, status: number, code: ErrorCode) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const error = res.body.error;
  expect(error).toMatchObject({ type: ERROR_CATALOGUE[code].type, code });
  expect(typeof error.message).toBe('string');
  expect(error.message.length).toBeGreaterThan(0);
  expect(error.request_id).toMatch(/^req_[0-9a-z]{26}$/);
  expect(error.request_id).toBe(res.headers['request-id']);
  expect(error.doc_url).toBe(`${t.ctx.config.baseUrl}/docs/errors#${code}`);
  expect(error).toHaveProperty('param');
  expect(error).toHaveProperty('details');
  return error as { param: string | null; details: Record<string, unknown> | null; message: string; doc_url: string };
}

describe('error body', () => {
  it('has type, code, message, param, details, request_id and doc_url on an authentication error', async () => {
    const res = await t.http().get('/v1/keys');
    expectCatalogued(res, 401, 'api_key_missing');
  });

  it('links doc_url to an entry that the errors page has', async () => {
    const res = await t.http().get('/v1/nowhere');
    const error = expectCatalogued(res, 404, 'route_not_found');
    const page = await t.http().get(new URL(error.doc_url).pathname);
    expect(page.status).toBe(200);
    expect(page.text).toContain('id="route_not_found"');
  });
});

describe('validation', () => {
  it('answers 422 validation_failed with details keyed by dotted path', async () => {
    const res = await t
      .http()
      .post('/v1/operator/tenants')
      .set(t.operator)
      .send({ name: '', rate_limits: { secret: 0 } });
    const error = expectCatalogued(res, 422, 'validation_failed');
    expect(Object.keys(error.details!).sort()).toEqual(['name', 'rate_limits.secret']);
    for (const messages of Object.values(error.details!)) {
      expect(Array.isArray(messages)).toBe(true);
      expect((messages as unknown[]).length).toBeGreaterThan(0);
    }
    expect(['name', 'rate_limits.secret']).toContain(error.param);
  });

  it('keys metadata violations by the metadata key', async () => {
    const res = await t
      .http()
      .post('/v1/operator/tenants')
      .set(t.operator)
      .send({ name: 'Meta', metadata: { colour: 'x'.repeat(501) } });
    const error = expectCatalogued(res, 422, 'validation_failed');
    expect(Object.keys(error.details!)).toEqual(['metadata.colour']);
  });

  it('keys query violations by the parameter name', async () => {
    const res = await t.http().get('/v1/keys?per_page=0').set(bearer(secret));
    const error = expectCatalogued(res, 422, 'validation_failed');
    expect(Object.keys(error.details!)).toEqual(['per_page']);
  });

  it('answers 422 when a JSON body is not an object', async () => {
    const res = await t.http().post('/v1/operator/tenants').set(t.operator).set('content-type', 'application/json').send('[1,2]');
    expectCatalogued(res, 422, 'validation_failed');
  });
});

describe('request framing', () => {
  it('answers malformed JSON with 400 malformed_json', async () => {
    const res = await t
      .http()
      .post('/v1/operator/tenants')
      .set(t.operator)
      .set('content-type', 'application/json')
      .send('{"name": "unterminated');
    expectCatalogued(res, 400, 'malformed_json');
  });

  it('answers a body over 1 MB with 413 body_too_large', async () => {
    const res = await t
      .http()
      .post('/v1/operator/tenants')
      .set(t.operator)
      .set('content-type', 'application/json')
      .send(JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 1) }));
    expectCatalogued(res, 413, 'body_too_large');
  });

  it('reads a body just under 1 MB (and then validates it)', async () => {
    const res = await t
      .http()
      .post('/v1/operator/tenants')
      .set(t.operator)
      .set('content-type', 'application/json')
      .send(JSON.stringify({ name: 'x'.repeat(1000 * 1000) }));
    const error = expectCatalogued(res, 422, 'validation_failed');
    expect(Object.keys(error.details!)).toEqual(['name']);
  });

  it('answers a JSON body in an unsupported charset with 415 unsupported_media_type', async () => {
    const res = await t
      .http()
      .post('/v1/operator/tenants')
      .set(t.operator)
      .set('content-type', 'application/json; charset=latin1')
      .send('{"name":"x"}');
    expectCatalogued(res, 415, 'unsupported_media_type');
  });

  it('answers a body that is not JSON with 415 unsupported_media_type', async () => {
    const res = await t.http().post('/v1/operator/tenants').set(t.operator).set('content-type', 'text/plain').send('name=x');
    expectCatalogued(res, 415, 'unsupported_media_type');
  });
});

describe('routing', () => {
  it('answers an unknown path with 404 route_not_found', async () => {
    const res = await t.http().get('/v1/no-such-thing').set(bearer(secret));
    const error = expectCatalogued(res, 404, 'route_not_found');
    expect(error.message).toContain('/v1/no-such-thing');
  });

  it('answers an unknown path under a known prefix with 404 route_not_found', async () => {
    expectCatalogued(await t.http().get('/v1/keys/key_x/roll/extra'), 404, 'route_not_found');
    expectCatalogued(await t.http().get('/docs/assets/no-such-file.js'), 404, 'route_not_found');
  });

  it('answers a wrong method on an existing path with 405 and an Allow header', async () => {
    const res = await t.http().put('/v1/keys').set(bearer(secret)).send({});
    expectCatalogued(res, 405, 'method_not_allowed');
    expect(res.headers.allow!.split(', ').sort()).toEqual(['GET', 'POST']);
  });

  it('lists the methods of a parameterised path in Allow', async () => {
    const res = await t.http().put('/v1/keys/key_abc').set(bearer(secret));
    expectCatalogued(res, 405, 'method_not_allowed');
    expect(res.headers.allow!.split(', ').sort()).toEqual(['DELETE', 'GET']);

    const roll = await t.http().get('/v1/keys/key_abc/roll').set(bearer(secret));
    expectCatalogued(roll, 405, 'method_not_allowed');
    expect(roll.headers.allow).toBe('POST');
  });

  it('answers an ID with another prefix with 404 resource_not_found', async () => {
    const res = await t.http().get('/v1/operator/tenants/ls_abc').set(t.operator);
    const error = expectCatalogued(res, 404, 'resource_not_found');
    expect(error.param).toBe('id');
    expect(error.message).toContain('ls_abc');
  });

  it('answers an unknown ID of the right prefix with 404 resource_not_found', async () => {
    const res = await t.http().get(`/v1/operator/tenants/${newId('tenant')}`).set(t.operator);
    expectCatalogued(res, 404, 'resource_not_found');
  });
});

describe('unexpected failures', () => {
  it('answers 500 internal_error without a stack or the underlying message', async () => {
    const { tenant } = await t.tenant('Broken');
    await sql`alter table tenants rename to tenants_moved_away`.execute(t.ctx.db);
    let res: Response;
    try {
      res = await t.http().get(`/v1/operator/tenants/${tenant.id}`).set(t.operator);
    } finally {
      await sql`alter table tenants_moved_away rename to tenants`.execute(t.ctx.db);
    }
    const error = expectCatalogued(res, 500, 'internal_error');
    expect(error).not.toHaveProperty('stack');
    const text = JSON.stringify(res.body);
    expect(text).not.toMatch(/\bat \S+ \(|\.ts:\d+|node_modules/);
    expect(text).not.toContain('tenants');
    expect(text).not.toContain('relation');
    expect(Object.keys(res.body)).toEqual(['error']);

    // The table is back, and so is the route.
    expect((await t.http().get(`/v1/operator/tenants/${tenant.id}`).set(t.operator)).status).toBe(200);
  });

  it('answers 500 when the database fails while resolving an API key', async () => {
    const { keys } = await t.tenant('Broken keys');
    await sql`alter table api_keys rename to api_keys_moved_away`.execute(t.ctx.db);
    let res: Response;
    try {
      res = await t.http().get('/v1/keys').set(bearer(keys.test.secret));
    } finally {
      await sql`alter table api_keys_moved_away rename to api_keys`.execute(t.ctx.db);
    }
    expectCatalogued(res, 500, 'internal_error');
    expect(JSON.stringify(res.body)).not.toContain('api_keys');
  });
});

describe('Request-Id header', () => {
  it('is on every response, success or error, and differs per request', async () => {
    const responses = await Promise.all([
      t.http().get('/v1/status'),
      t.http().get('/build-info'),
      t.http().get('/openapi.json'),
      t.http().get('/docs'),
      t.http().get('/docs/errors'),
      t.http().get('/v1/keys').set(bearer(secret)),
      t.http().get('/v1/keys'),
      t.http().get('/nowhere'),
      t.http().delete('/v1/status'),
      t.http().post('/v1/operator/tenants').set('content-type', 'application/json').send('{'),
    ]);
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200, 401, 404, 405, 400]);
    const ids = responses.map((r) => r.headers['request-id']);
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-z]{26}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
