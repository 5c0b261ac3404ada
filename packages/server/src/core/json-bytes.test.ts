import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { JsonBytes, sendJsonBytes } from './json-bytes';

const value = { data: { name: 'Zoë "Jazz" Night', tickets: 3, revenue: 12.5, none: null, list: [1, 'two'] }, meta: { long: 'x'.repeat(1500) } };

/** The same value answered by express's own `res.json` and as kept bytes. */
function app() {
  const a = express();
  a.set('etag', false);
  sendJsonBytes(a);
  a.get('/plain', (_req, res) => void res.status(200).json(value));
  a.get('/kept', (_req, res) => void res.status(200).json(new JsonBytes(value)));
  return a;
}

const headersOf = (res: request.Response) => ({ type: res.headers['content-type'], length: res.headers['content-length'], encoding: res.headers['transfer-encoding'] });

describe('JsonBytes', () => {
  it('is sent as the bytes and headers res.json gives the value, for GET, HEAD and a conditional GET', async () => {
    const a = app();
    const plain = await request(a).get('/plain');
    const kept = await request(a).get('/kept');
    expect(kept.status).toBe(200);
    expect(kept.text).toBe(plain.text);
    expect(headersOf(kept)).toEqual(headersOf(plain));
    expect(headersOf(kept).type).toBe('application/json; charset=utf-8');

    const [plainHead, keptHead] = [await request(a).head('/plain'), await request(a).head('/kept')];
    expect([keptHead.status, headersOf(keptHead), keptHead.text]).toEqual([plainHead.status, headersOf(plainHead), plainHead.text]);
    const [plain304, kept304] = [await request(a).get('/plain').set('If-None-Match', '*'), await request(a).get('/kept').set('If-None-Match', '*')];
    expect([kept304.status, kept304.text]).toEqual([plain304.status, plain304.text]);
  });

  it('stringifies as the value it holds', () => {
    expect(JSON.stringify({ stored: new JsonBytes(value) })).toBe(JSON.stringify({ stored: value }));
  });
});
