import express, { type Router } from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { mountRouteGroup, sharedPrefix } from './route-groups';
import { routesOf } from './unknown-route';

const route = (method: string, path: string) => ({ method, path });

const schema = {
  any: route('GET', '/v1/:kind/first'),
  things: { list: route('GET', '/v1/things'), one: route('GET', '/v1/things/:id'), first: route('GET', '/v1/things/first') },
  other: { make: route('POST', '/v1/other/stuff') },
};

/** Each route of a part answers with its pattern, as `createExpressEndpoints` would mount the contract's routes. */
function app() {
  const a = express();
  const implementation = { any: 'any', things: { list: 'list', one: 'one', first: 'first' }, other: { make: 'make' } };
  mountRouteGroup(a, 'g', schema, implementation, (router: Router, part) => {
    for (const r of routesOf(part)) router[r.method.toLowerCase() as 'get' | 'post'](r.path, (_req, res) => res.send(`${r.method} ${r.path}`));
  });
  a.use((req, res) => res.status(404).send(`unknown ${req.method}`));
  return a;
}

describe('sharedPrefix', () => {
  it('is the literal segments every route of a part starts with', () => {
    expect(sharedPrefix({ g: { things: schema.things } })).toBe('/v1/things');
    expect(sharedPrefix({ g: { any: schema.any } })).toBe('/v1');
    expect(sharedPrefix({ g: schema })).toBe('/v1');
    expect(sharedPrefix({ g: { a: route('GET', '/v1/a'), b: route('GET', '/v2/b') } })).toBe('');
    expect(sharedPrefix({ g: { a: route('GET', '/v1/a{/:id}') } })).toBe('/v1');
  });
});

describe('mountRouteGroup', () => {
  it('routes as one list of routes would: in order, ignoring case, falling through when nothing matches', async () => {
    const a = app();
    // `/v1/:kind/first`, added first, takes the path before `/v1/things/first` as it did on one router.
    expect((await request(a).get('/v1/things/first')).text).toBe('GET /v1/:kind/first');
    expect((await request(a).get('/v1/things/th_1')).text).toBe('GET /v1/things/:id');
    expect((await request(a).get('/V1/THINGS')).text).toBe('GET /v1/things');
    expect((await request(a).get('/v1/things/')).text).toBe('GET /v1/things');
    expect((await request(a).post('/v1/other/stuff')).text).toBe('POST /v1/other/stuff');
    expect((await request(a).get('/v1/other/stuff')).text).toBe('unknown GET');
    expect((await request(a).get('/v2/things')).text).toBe('unknown GET');
  });

  it('passes OPTIONS on to what follows rather than answering it with the routes it knows', async () => {
    const res = await request(app()).options('/v1/things');
    expect(res.status).toBe(404);
    expect(res.text).toBe('unknown OPTIONS');
  });
});
