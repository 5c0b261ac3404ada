import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { useTestServer, type TestServer } from '../harness';
import { client, eventsOf, expectError, expectStatus, typesOf, type Keys, mediaTenant } from './media-fixtures';

const MAX_BYTES = 1000;

const t = useTestServer({ SVC_SIMULATED_UPLOAD_MAX_BYTES: String(MAX_BYTES) });
let keys: Keys;
let tenantId: string;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  ({ keys, tenantId, api } = await mediaTenant(t, 'Uploads'));
});

async function createUpload(body: object = {}) {
  return expectStatus(await api.post('/v1/streams/uploads', body), 201).data as Record<string, any>;
}

/** The path and query of the one-time URL, to send to the app under test. */
const target = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};
const put = (url: string, body: Buffer | string, origin?: string) => {
  const req = t.http().put(target(url)).set('Content-Type', 'video/mp4');
  if (origin) req.set('Origin', origin);
  return req.send(body);
};

describe('POST /v1/streams/uploads', () => {
  it('returns a waiting upload with a one-time url on this server', async () => {
    const upload = await createUpload({ cors_origin: 'https://app.example.com', new_asset_settings: { playback_policy: 'public', metadata: { a: 'b' } } });
    expect(upload).toMatchObject({
      object: 'upload',
      livemode: false,
      status: 'waiting',
      cors_origin: 'https://app.example.com',
      asset: null,
      new_asset_settings: { playback_policy: 'public', metadata: { a: 'b' } },
      max_bytes: MAX_BYTES,
      provider: 'simulated',
    });
    expect(upload.id).toMatch(/^upl_/);
    expect(upload.url).toMatch(new RegExp(`^${t.ctx.config.baseUrl}/v1/streams/uploads/${upload.id}/file\\?token=[0-9A-Za-z]{40}$`));
    expect(expectStatus(await api.get(`/v1/streams/uploads/${upload.id}`), 200).data).toEqual(upload);
  });

  it('keeps the url only sealed at rest, in the upload row and in the stored idempotent answer', async () => {
    const res = await api.post('/v1/streams/uploads', {}, { 'Idempotency-Key': 'upload-sealed' });
    const upload = expectStatus(res, 201).data;
    const token = new URL(upload.url).searchParams.get('token')!;
    const row = await t.ctx.db.selectFrom('uploads').selectAll().where('id', '=', upload.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(token);
    const stored = await t.ctx.db.selectFrom('idempotency_keys').selectAll().where('key', 'like', '%"upload-sealed"]').executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  it('answers a retry with the same Idempotency-Key with the same upload, and refuses the key with another body', async () => {
    const first = await api.post('/v1/streams/uploads', { cors_origin: '*' }, { 'Idempotency-Key': 'upload-1' });
    const again = await api.post('/v1/streams/uploads', { cors_origin: '*' }, { 'Idempotency-Key': 'upload-1' });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expectError(await api.post('/v1/streams/uploads', { cors_origin: 'https://other.example.com' }, { 'Idempotency-Key': 'upload-1' }), 409, 'idempotency_key_reused');
    expect(await t.ctx.db.selectFrom('uploads').select('id').where('id', '=', first.body.data.id).execute()).toHaveLength(1);
  });

  it.each(['https://app.example.com', 'http://localhost:3000', '*'])('takes cors_origin %s', async (origin) => {
    expect((await createUpload({ cors_origin: origin })).cors_origin).toBe(origin);
  });

  it.each(['app.example.com', 'https://app.example.com/', 'https://app.example.com/upload', 'ftp://app.example.com', 'https://x'.padEnd(300, 'x')])(
    'refuses cors_origin %j',
    async (origin) => {
      expectError(await api.post('/v1/streams/uploads', { cors_origin: origin }), 422, 'validation_failed', { param: 'cors_origin' });
    },
  );

  it('refuses live mode while the operator has chosen no video network', async () => {
    expectError(await client(t, keys.live.secret).post('/v1/streams/uploads', {}), 409, 'video_network_not_configured');
  });

  it('answers 404 for unknown uploads and ids of other objects', async () => {
    expectError(await api.get('/v1/streams/uploads/upl_01h455vb4pex5vsknk084sn02q'), 404, 'resource_not_found');
    expectError(await api.get('/v1/streams/uploads/ast_01h455vb4pex5vsknk084sn02q'), 404, 'resource_not_found');
  });
});

describe('PUT to the one-time url', () => {
  it('takes the file once: the upload becomes asset_created with its asset, and a second PUT is refused', async () => {
    const upload = await createUpload({ new_asset_settings: { playback_policy: 'public', metadata: { from: 'upload' } } });
    const res = await put(upload.url, Buffer.alloc(MAX_BYTES, 1));
    const body = expectStatus(res, 200);
    expect(body.data).toMatchObject({ id: upload.id, status: 'asset_created', received_bytes: MAX_BYTES });

    const after = expectStatus(await api.get(`/v1/streams/uploads/${upload.id}`), 200).data;
    expect(after).toMatchObject({ status: 'asset_created', url: null, asset: expect.stringMatching(/^ast_/) });
    const asset = expectStatus(await api.get(`/v1/streams/assets/${after.asset}`), 200).data;
    expect(asset).toMatchObject({ source: 'upload', status: 'preparing', upload: upload.id, metadata: { from: 'upload' } });
    expect(asset.playback_ids).toEqual([{ id: expect.any(String), policy: 'public' }]);

    const events = [...(await eventsOf(t, tenantId, upload.id)), ...(await eventsOf(t, tenantId, asset.id))];
    expect(typesOf(events).sort()).toEqual(['streams.asset.created', 'streams.upload.asset_created']);
    const uploadEvent = events.find((e) => e.type === 'streams.upload.asset_created')!;
    expect(uploadEvent.data.object).toMatchObject({ id: upload.id, status: 'asset_created', asset: asset.id });
    expect(uploadEvent.data.object).not.toHaveProperty('url');
    expect(uploadEvent.data.previous_attributes).toEqual({ status: 'waiting', asset: null });
    expect(uploadEvent.request?.id).toBe(res.headers['request-id']);

    expectError(await put(upload.url, 'again'), 409, 'upload_url_used');
  });

  it('refuses a file over the size cap (413 body_too_large) and still takes one within it', async () => {
    const upload = await createUpload();
    expectError(await put(upload.url, Buffer.alloc(MAX_BYTES + 1)), 413, 'body_too_large');
    expect(expectStatus(await api.get(`/v1/streams/uploads/${upload.id}`), 200).data.status).toBe('waiting');
    expectStatus(await put(upload.url, Buffer.alloc(10)), 200);
  });

  it('stops reading a chunked body at the size cap', async () => {
    const upload = await createUpload();
    const server = t.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, method: 'PUT', path: target(upload.url), headers: { 'Transfer-Encoding': 'chunked' } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        for (let i = 0; i < 5; i++) req.write(Buffer.alloc(400));
        req.end();
      });
      expect(status).toBe(413);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    expect(expectStatus(await api.get(`/v1/streams/uploads/${upload.id}`), 200).data.status).toBe('waiting');
  });

  it('refuses an empty body', async () => {
    const upload = await createUpload();
    expectError(await put(upload.url, Buffer.alloc(0)), 400, 'invalid_request');
  });

  it('answers 404 to a wrong, missing or another upload\'s token', async () => {
    const upload = await createUpload();
    const other = await createUpload();
    const wrong = upload.url.replace(/token=.*/, `token=${'A'.repeat(40)}`);
    expectError(await put(wrong, 'x'), 404, 'resource_not_found');
    expectError(await put(upload.url.replace(/\?token=.*/, ''), 'x'), 404, 'resource_not_found');
    const swapped = upload.url.replace(/token=.*/, `token=${new URL(other.url).searchParams.get('token')}`);
    expectError(await put(swapped, 'x'), 404, 'resource_not_found');
    expectError(await put(upload.url.replace(upload.id, 'upl_01h455vb4pex5vsknk084sn02q'), 'x'), 404, 'resource_not_found');
    expect(expectStatus(await api.get(`/v1/streams/uploads/${upload.id}`), 200).data.status).toBe('waiting');
  });

  it('answers CORS for cors_origin only: preflight and PUT', async () => {
    const upload = await createUpload({ cors_origin: 'https://app.example.com' });
    const preflight = await t
      .http()
      .options(target(upload.url))
      .set('Origin', 'https://app.example.com')
      .set('Access-Control-Request-Method', 'PUT')
      .set('Access-Control-Request-Headers', 'content-type');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(preflight.headers['access-control-allow-methods']).toBe('PUT');
    expect(preflight.headers['access-control-allow-headers']).toBe('content-type');

    const refused = await t.http().options(target(upload.url)).set('Origin', 'https://evil.example.com').set('Access-Control-Request-Method', 'PUT');
    expectError(refused, 403, 'upload_origin_not_allowed');
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    expectError(await put(upload.url, 'x', 'https://evil.example.com'), 403, 'upload_origin_not_allowed');

    const ok = await put(upload.url, 'x', 'https://app.example.com');
    expectStatus(ok, 200);
    expect(ok.headers['access-control-allow-origin']).toBe('https://app.example.com');
  });

  it('allows any origin with cors_origin *, and none without cors_origin (a server without Origin still uploads)', async () => {
    const any = await createUpload({ cors_origin: '*' });
    const res = await put(any.url, 'x', 'https://anywhere.example.com');
    expectStatus(res, 200);
    expect(res.headers['access-control-allow-origin']).toBe('https://anywhere.example.com');

    const none = await createUpload();
    expectError(await put(none.url, 'x', 'https://app.example.com'), 403, 'upload_origin_not_allowed');
    expectStatus(await put(none.url, 'x'), 200);
  });

  it('never writes the url or its token to the request log', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    const app = createApp({ ...t.ctx, log: pino({ level: 'trace' }, sink) });
    const created = await supertest(app).post('/v1/streams/uploads').set('Authorization', `Bearer ${keys.test.secret}`).send({});
    const upload = expectStatus(created, 201).data;
    const token = new URL(upload.url).searchParams.get('token')!;
    expectStatus(await supertest(app).put(target(upload.url)).set('Content-Type', 'video/mp4').send(Buffer.alloc(5)), 200);
    await supertest(app).put(target(upload.url)).send(Buffer.alloc(5));
    const log = lines.join('');
    expect(log).toContain(`/v1/streams/uploads/${upload.id}/file`);
    expect(log).not.toContain(token);
  });
});

describe('isolation', () => {
  it('hides an upload from other tenants and from the live environment', async () => {
    const upload = await createUpload();
    const { keys: other } = await t.tenant('Other');
    expectError(await client(t, other.test.secret).get(`/v1/streams/uploads/${upload.id}`), 404, 'resource_not_found');
    expectError(await client(t, keys.live.secret).get(`/v1/streams/uploads/${upload.id}`), 404, 'resource_not_found');
  });
});
