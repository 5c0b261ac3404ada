import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isIdOf, newId } from '../../src/core/ids';
import { MAX_INPUT_DEPTH } from '../../src/core/input-guard';
import { browser, entitled, expectError, grant, signToken } from '../access/access-fixtures';
import { bearer, useTestServer, type TestServer } from '../harness';

/**
 * One regression test per fault the bad-input sweep (`bad-input.test.ts`) found: each answered `500` before.
 */

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });
let secret: string;
beforeAll(async () => {
  secret = (await t.tenant('Hardening')).keys.test.secret;
});

/** A raw request over a socket, so the path reaches Express exactly as written. */
async function raw(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  const server: Server = t.app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as AddressInfo;
  try {
    return await new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      });
      req.on('error', reject);
      req.end(body);
    });
  } finally {
    server.close();
  }
}

describe('text holding U+0000 (PostgreSQL cannot store it)', () => {
  it('is 422 validation_failed keyed by the field, in a body', async () => {
    const res = await t.http().post('/v1/streams/live_streams').set(bearer(secret)).send({ external_id: 'a\u0000b' });
    expectError(res, 422, 'validation_failed');
    expect(res.body.error.param).toBe('external_id');
    expect(res.body.error.details).toEqual({ external_id: [expect.stringContaining('U+0000')] });
  });

  it('is 422 in a nested field and in a metadata key', async () => {
    const nested = await t.http().post('/v1/webhook_endpoints').set(bearer(secret)).send({ url: 'http://127.0.0.1:4999/h', enabled_events: ['*'], metadata: { k: 'v\u0000' } });
    expect(nested.body.error.param).toBe('metadata.k');
    const key = await t.http().post('/v1/streams/live_streams').set(bearer(secret)).send({ metadata: { 'a\u0000': 'v' } });
    expectError(key, 422, 'validation_failed');
  });

  it('is 422 in the query and in a path parameter, even one with the right prefix', async () => {
    const query = await t.http().get('/v1/streams/live_streams?external_id=%00').set(bearer(secret));
    expectError(query, 422, 'validation_failed');
    expect(query.body.error.param).toBe('external_id');
    const byExternalId = await t.http().get('/v1/keys/external/%00').set(bearer(secret));
    expectError(byExternalId, 422, 'validation_failed');
    expect(byExternalId.body.error.param).toBe('external_id');
    expectError(await t.http().post('/v1/streams/live_streams/ls_%00/enable').set(bearer(secret)), 422, 'validation_failed');
  });

  it('is refused before authentication only as it always was: an anonymous request is still 401', async () => {
    expectError(await t.http().post('/v1/streams/live_streams').send({ external_id: '\u0000' }), 401, 'api_key_missing');
  });

  it('in a cursor is 400 invalid_cursor', async () => {
    const cursor = Buffer.from(JSON.stringify(['n', '\u0000'])).toString('base64url');
    expectError(await t.http().get(`/v1/streams/live_streams?cursor=${cursor}`).set(bearer(secret)), 400, 'invalid_cursor');
    // A cursor the list did issue still pages.
    await t.http().post('/v1/streams/live_streams').set(bearer(secret)).send({});
    await t.http().post('/v1/streams/live_streams').set(bearer(secret)).send({});
    const first = await t.http().get('/v1/streams/live_streams?limit=1').set(bearer(secret));
    const next = await t.http().get(`/v1/streams/live_streams?limit=1&cursor=${first.body.meta.pagination.next_cursor}`).set(bearer(secret));
    expect(next.status).toBe(200);
    expect(next.body.data).toHaveLength(1);
  });

  it('in a customer token\'s kid or sub is 401 invalid_customer_token', async () => {
    const e = await entitled(t);
    const header = Buffer.from(JSON.stringify({ alg: 'HS256', kid: 'ctk_\u0000' })).toString('base64url');
    const forged = `${header}.${Buffer.from('{"sub":"x"}').toString('base64url')}.AAAA`;
    const body = { resource: e.stream.id, device_id: 'd' };
    expectError(await browser(t, e.pk, forged).post('/v1/access/sessions', body), 401, 'invalid_customer_token', { reason: 'unknown_key' });
    const nulSub = await signToken(t, e.key, { sub: 'viewer\u0000' });
    expectError(await browser(t, e.pk, nulSub).post('/v1/access/sessions', body), 401, 'invalid_customer_token', { reason: 'invalid_claims' });
  });

  it('in a playback token\'s kid is 401 invalid_playback_token', async () => {
    const stream = (await t.http().post('/v1/streams/live_streams').set(bearer(secret)).send({})).body.data;
    const header = Buffer.from(JSON.stringify({ alg: 'RS256', kid: 'psk_\u0000' })).toString('base64url');
    const token = `${header}.${Buffer.from('{"sub":"x"}').toString('base64url')}.AAAA`;
    const res = await t.http().get(`/v1/streams/playback/${stream.playback_ids[0].id}.m3u8?token=${token}`);
    expectError(res, 401, 'invalid_playback_token', { reason: 'unknown_key' });
  });
});

describe('text that is not well-formed Unicode (a lone surrogate)', () => {
  // Raw JSON: `JSON.stringify` would write the escape, but superagent re-encodes strings, so send the text as is.
  const post = (path: string, json: string) => t.http().post(path).set(bearer(secret)).set('content-type', 'application/json').send(json);

  it.each([
    ['/v1/streams/live_streams', '{"metadata": {"k": "\\ud800"}}', 'metadata.k'],
    ['/v1/streams/live_streams', '{"metadata": {"\\udfff": "v"}}', 'metadata.\udfff'],
    ['/v1/streams/live_streams', '{"external_id": "a\\ud800b"}', 'external_id'],
    ['/v1/webhook_endpoints', '{"url": "http://127.0.0.1:4999/h", "enabled_events": ["*"], "description": "\\udc00"}', 'description'],
    ['/v1/access/entitlements', '{"customer": "viewer-\\ud83d", "resource": {"type": "ls", "id": "ls_01jdzzzzzzzzzzzzzzzzzzzzzz"}, "source": "tenant_grant"}', 'customer'],
    ['/v1/keys', '{"type": "publishable", "name": "n\\ud800"}', 'name'],
  ])('POST %s with %s is 422 validation_failed at %s', async (path, json, param) => {
    const res = await post(path, json);
    expectError(res, 422, 'validation_failed');
    expect(res.body.error.param).toBe(param);
    expect(res.body.error.details[param]).toEqual([expect.stringContaining('well-formed')]);
  });

  it('keeps a proper surrogate pair (an emoji) as text', async () => {
    const res = await post('/v1/streams/live_streams', '{"metadata": {"k": "\\ud83c\\udfa5"}}');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.metadata).toEqual({ k: '🎥' });
  });

  it('is one check, the contract\'s: its shared string schema and the server\'s guard agree', async () => {
    const { isWellFormedText, TextSchema, ExternalIdSchema } = await import('@svc/contract');
    for (const bad of ['\ud800', 'a\udfffb', '\ud83d']) {
      expect(isWellFormedText(bad)).toBe(false);
      expect(TextSchema.safeParse(bad).success).toBe(false);
      expect(ExternalIdSchema.safeParse(bad).success).toBe(false);
    }
    expect(isWellFormedText('🎥 日本語')).toBe(true);
    // A URL cannot carry one: the UTF-8 bytes of a surrogate do not decode, so the query is never 5xx.
    const query = await t.http().get('/v1/streams/live_streams?external_id=%ED%A0%80').set(bearer(secret));
    expect(query.status).toBeLessThan(500);
  });
});

describe('metadata keys that name the prototype chain', () => {
  it.each(['__proto__', 'constructor', 'prototype'])('%s is 422 validation_failed, never dropped', async (key) => {
    for (const path of ['/v1/streams/live_streams', '/v1/webhook_endpoints']) {
      const base = path === '/v1/webhook_endpoints' ? '"url": "http://127.0.0.1:4999/h", "enabled_events": ["*"], ' : '';
      const res = await t.http().post(path).set(bearer(secret)).set('content-type', 'application/json')
        .send(`{${base}"metadata": {"${key}": {"polluted": "yes"}, "ok": "v"}}`);
      expectError(res, 422, 'validation_failed');
      expect(res.body.error.param).toBe(`metadata.${key}`);
    }
    const asText = await t.http().post('/v1/streams/live_streams').set(bearer(secret)).set('content-type', 'application/json').send(`{"metadata": {"${key}": "v"}}`);
    expectError(asText, 422, 'validation_failed');
    expect(asText.body.error.param).toBe(`metadata.${key}`);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('IDs', () => {
  it('are recognised only when well-formed, so odd ones never reach a query', () => {
    const id = newId('live_stream');
    expect(isIdOf('live_stream', id)).toBe(true);
    expect(isIdOf('asset', id)).toBe(false);
    for (const bad of ['ls_', 'ls_\u0000', `${id}x`, id.toUpperCase(), `ls_${'0'.repeat(300)}`, `ls_8${'0'.repeat(25)}`, 'ls_abc']) {
      expect(isIdOf('live_stream', bad), bad).toBe(false);
    }
  });
});

describe('deeply nested bodies', () => {
  const deep = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

  it('are 400 invalid_request, with or without an Idempotency-Key (whose canonical form used to overflow the stack)', async () => {
    for (const headers of [{ 'Idempotency-Key': 'deep-1' }, {}]) {
      const res = await t.http().post('/v1/streams/live_streams').set(bearer(secret)).set(headers).set('content-type', 'application/json').send(deep(20_000));
      expectError(res, 400, 'invalid_request');
      expect(res.body.error.param).toBe('body');
    }
  });

  it('are read up to the limit (the unknown field is then ignored)', async () => {
    const res = await t.http().post('/v1/streams/live_streams').set(bearer(secret)).set('content-type', 'application/json').send(deep(MAX_INPUT_DEPTH));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });
});

describe('input Express cannot read', () => {
  it('a path segment that is not valid percent-encoding is 400 invalid_request', async () => {
    for (const path of ['/v1/keys/%E0%A4%A', '/v1/keys/%', '/v1/streams/uploads/%/file?token=x']) {
      const res = await raw(path.includes('file') ? 'PUT' : 'GET', path, bearer(secret), path.includes('file') ? 'bytes' : undefined);
      expect(res.status, path).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', type: 'invalid_request_error' });
    }
  });

  it('a body that does not match its Content-Encoding is 400 invalid_request', async () => {
    const res = await raw('POST', '/v1/streams/live_streams', { ...bearer(secret), 'content-type': 'application/json', 'content-encoding': 'gzip' }, 'not gzip');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'body' });
  });
});

describe('idempotency keys of viewers whose ids hold the separator', () => {
  it('never replay one viewer\'s session to another', async () => {
    const e = await entitled(t);
    // Viewer `a` and viewer `a:b`: with keys joined by `:`, `a` + `b:k` and `a:b` + `k` were the same stored key.
    await grant(t, e.sk, { customer: 'a', resource: { type: 'ls', id: e.stream.id } });
    await grant(t, e.sk, { customer: 'a:b', resource: { type: 'ls', id: e.stream.id } });
    const body = { resource: e.stream.id, device_id: 'device' };
    const victim = await browser(t, e.pk, await signToken(t, e.key, { sub: 'a:b' })).post('/v1/access/sessions', body).set('Idempotency-Key', 'k');
    expect(victim.status).toBe(201);
    const other = await browser(t, e.pk, await signToken(t, e.key, { sub: 'a' })).post('/v1/access/sessions', body).set('Idempotency-Key', 'b:k');
    expect(other.status).toBe(201);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(other.body.data.customer).toBe('a');
    expect(other.body.data.id).not.toBe(victim.body.data.id);
  });
});
