import { request as httpRequest, type ClientRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandler } from '../../src/core/error-handler';
import { MAX_INPUT_DEPTH } from '../../src/core/input-guard';
import { DepthScanner, jsonBody } from '../../src/core/json-body';
import pino from 'pino';
import { createTestDatabase, databaseUrl, dropTestDatabase } from '../databases';
import { ENCRYPTION_KEY, OPERATOR_TOKEN, bearer, useTestServer } from '../harness';
import { runServerProcess, type ServerProcess } from '../process';

/** `[[[…]]]` of about `bytes` bytes: the body that took the server down (499,000 levels in 1 MB). */
const nested = (bytes: number) => '['.repeat(bytes / 2) + ']'.repeat(bytes / 2);

interface Answer {
  status: number;
  body: any;
}

/** A raw POST over its own connection; resolves with the answer even when the server stops reading early. */
function post(url: string, path: string, body: string | undefined, headers: Record<string, string> = {}): { req: ClientRequest; answer: Promise<Answer> } {
  const { hostname, port } = new URL(url);
  let req!: ClientRequest;
  const answer = new Promise<Answer>((resolve, reject) => {
    req = httpRequest({ host: hostname, port, method: 'POST', path, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
  });
  if (body !== undefined) req.end(body);
  return { req, answer };
}

describe('depth on the raw bytes', () => {
  const depthOk = (text: string, max: number, split = 1) => {
    const s = new DepthScanner(max);
    const bytes = Buffer.from(text);
    for (let i = 0; i < bytes.length; i += split) if (!s.scan(bytes.subarray(i, i + split))) return false;
    return true;
  };

  it('counts arrays and objects, not brackets inside strings, across any chunking', () => {
    expect(depthOk('{"a":[1,{"b":2}]}', 3)).toBe(true);
    expect(depthOk('{"a":[1,{"b":[2]}]}', 3)).toBe(false);
    expect(depthOk('{"a":"[[[[{{{{"}', 1)).toBe(true);
    expect(depthOk('{"a":"\\"[[[[","b":"\\\\"}', 1)).toBe(true);
    expect(depthOk('{"a":"\\\\"}' + '[[', 1)).toBe(false);
    expect(depthOk('{"é🎥":"[日本]"}', 1, 1)).toBe(true);
    expect(depthOk('[]'.repeat(1000), 1)).toBe(true);
    expect(depthOk(nested(1000), 32, 7)).toBe(false);
  });
});

describe('the JSON body parser', () => {
  const t = useTestServer();
  let url: string;
  let close: () => void;
  beforeAll(async () => {
    const server = t.app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());

  it('refuses a body nested too deep before authentication (400, not 401), and takes the limit itself', async () => {
    const deep = '{"a":'.repeat(MAX_INPUT_DEPTH + 1) + '1' + '}'.repeat(MAX_INPUT_DEPTH + 1);
    const anonymous = await post(url, '/v1/streams/live_streams', deep).answer;
    expect(anonymous.status).toBe(400);
    expect(anonymous.body.error).toMatchObject({ code: 'invalid_request', param: 'body' });
    const { keys } = await t.tenant('Hostile');
    const atLimit = '{"a":'.repeat(MAX_INPUT_DEPTH - 1) + '1' + '}'.repeat(MAX_INPUT_DEPTH - 1);
    const ok = await post(url, '/v1/streams/live_streams', `{"metadata":{},"x":${atLimit}}`, bearer(keys.test.secret)).answer;
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
  });

  it('refuses a body over 1 MB by its declared length, unread, and by its bytes when chunked', async () => {
    const declared = post(url, '/v1/status', undefined, { 'content-length': String(50 * 1024 * 1024) });
    declared.req.write('{"a":"');
    const res = await declared.answer;
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('body_too_large');
    const chunked = await post(url, '/v1/status', `{"a":"${'x'.repeat(1024 * 1024)}"}`, { 'transfer-encoding': 'chunked' }).answer;
    expect(chunked.status).toBe(413);
  });

  it('answers the finding\'s 1 MB bodies, many at once, with 400 and goes on serving', async () => {
    const body = nested(1024 * 1024);
    const answers = await Promise.all(Array.from({ length: 48 }, () => post(url, '/v1/status', body).answer));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 400));
    const status = await fetch(`${url}/v1/status`);
    expect(status.status).toBe(200);
  });
});

describe('bodies read at once per client IP', () => {
  it('are bounded: one more waits its turn, and a full queue is refused with 429', async () => {
    const app = express();
    app.use(jsonBody({ perIp: 1, queuePerIp: 1 }));
    app.post('/', (req, res) => void res.json({ got: req.body }));
    app.use(errorHandler(pino({ level: 'silent' }), 'http://127.0.0.1'));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const slow = post(url, '/', undefined, { 'transfer-encoding': 'chunked' });
      slow.req.write('{"n":');
      await new Promise((r) => setTimeout(r, 100));
      let waitingDone = false;
      const waiting = post(url, '/', '{"n":2}').answer.then((a) => ((waitingDone = true), a));
      await new Promise((r) => setTimeout(r, 100));
      const refused = await post(url, '/', '{"n":3}').answer;
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('rate_limited');
      expect(waitingDone).toBe(false);
      slow.req.end('1}');
      expect(await slow.answer).toMatchObject({ status: 200, body: { got: { n: 1 } } });
      expect(await waiting).toMatchObject({ status: 200, body: { got: { n: 2 } } });
    } finally {
      server.close();
    }
  });
});

describe('the server process under the finding\'s attack', () => {
  let name: string;
  let server: ServerProcess | undefined;
  afterAll(async () => {
    server?.child.kill('SIGKILL');
    if (name) await dropTestDatabase(name);
  });

  it('survives concurrent deep-nested 1 MB bodies with the 512 MB heap of `pnpm start`: 400s, no crash', async () => {
    name = await createTestDatabase();
    server = runServerProcess({
      DATABASE_URL: databaseUrl(name),
      SVC_OPERATOR_TOKEN: OPERATOR_TOKEN,
      SVC_ENCRYPTION_KEY: ENCRYPTION_KEY,
      NODE_OPTIONS: '--max-old-space-size=512',
    });
    const url = await server.url;
    const body = nested(1024 * 1024);
    for (let round = 0; round < 2; round++) {
      const answers = await Promise.all(Array.from({ length: 32 }, () => post(url, '/v1/status', body).answer));
      expect(answers.every((a) => a.status === 400 && a.body.error.code === 'invalid_request')).toBe(true);
    }
    expect(server.child.exitCode).toBeNull();
    expect((await fetch(`${url}/v1/status`)).status).toBe(200);
  }, 60_000);
});
