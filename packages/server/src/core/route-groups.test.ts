import express, { type Router } from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { RouteTable, sharedPrefix } from './route-groups';
import { routesOf } from './unknown-route';

const route = (method: string, path: string) => ({ method, path });

const schema = {
  any: route('GET', '/v1/:kind/first'),
  things: { list: route('GET', '/v1/things'), one: route('GET', '/v1/things/:id'), first: route('GET', '/v1/things/first') },
  other: { make: route('POST', '/v1/other/stuff') },
};

const implementation = { any: 'any', things: { list: 'list', one: 'one', first: 'first' }, other: { make: 'make' } };

const other = {
  late: { one: route('GET', '/v1/things/:id/late'), boom: route('GET', '/v1/boom') },
  anywhere: route('GET', '/:kind'),
};
const otherImplementation = { late: { one: 'one', boom: 'boom' }, anywhere: 'anywhere' };

type Group = [name: string, schema: Record<string, object>, implementation: Record<string, unknown>];

/**
 * The groups on one table, each route answering with its method and pattern, as `createExpressEndpoints` would
 * mount the contract's routes, with its error handler after them (`/v1/boom` fails instead); then an unknown-route
 * answer and an error handler. `entered` gets the routes of each part whose router a request ran.
 */
function appOf(groups: Group[], entered: string[] = [], table = new RouteTable(), matched = { count: 0 }) {
  const a = express();
  for (const [name, schema, impl] of groups) {
    table.addGroup(name, schema, impl, (router: Router, part) => {
      const routes = routesOf(part);
      for (const r of routes) {
        router[r.method.toLowerCase() as 'get' | 'post'](r.path, (_req, res, next) =>
          r.path === '/v1/boom' ? next(new Error('boom')) : res.send(`${r.method} ${r.path}`),
        );
      }
      router.use((err: unknown, _req: express.Request, _res: express.Response, next: express.NextFunction) => next(err));
      for (const layer of (router as unknown as { stack: Array<{ match(path: string): unknown }> }).stack) {
        const match = layer.match.bind(layer);
        layer.match = (path) => (matched.count++, match(path));
      }
      // A router, called as a function, runs its `handle`: the instance's own is the one called.
      type Handle = (req: express.Request, res: express.Response, next: express.NextFunction) => void;
      const routed = router as unknown as { handle: Handle };
      const handle = routed.handle.bind(router);
      routed.handle = (req, res, next) => {
        entered.push(routes.map((r) => r.path).join(','));
        handle(req, res, next);
      };
    });
  }
  a.use(table.handler());
  a.use((req, res) => res.status(404).send(`unknown ${req.method}`));
  a.use((err: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => res.status(500).send(err.message));
  return a;
}

const app = () => appOf([['g', schema, implementation]]);

/** Each request whose answer is not the one expected, as `method path: answer` (none when all are). */
async function answersOf(a: express.Express, cases: Array<[method: 'GET' | 'POST', path: string, expected: string]>): Promise<string[]> {
  const wrong: string[] = [];
  for (const [method, path, expected] of cases) {
    const { text } = await (method === 'GET' ? request(a).get(path) : request(a).post(path));
    if (text !== expected) wrong.push(`${method} ${path}: ${text} (expected ${expected})`);
  }
  return wrong;
}
const twoGroups = () => appOf([['g', schema, implementation], ['h', other, otherImplementation]]);

describe('sharedPrefix', () => {
  it('is the literal segments every route of a part starts with', () => {
    expect(sharedPrefix({ g: { things: schema.things } })).toBe('/v1/things');
    expect(sharedPrefix({ g: { any: schema.any } })).toBe('/v1');
    expect(sharedPrefix({ g: schema })).toBe('/v1');
    expect(sharedPrefix({ g: { a: route('GET', '/v1/a'), b: route('GET', '/v2/b') } })).toBe('');
    expect(sharedPrefix({ g: { a: route('GET', '/v1/a{/:id}') } })).toBe('/v1');
  });
});

describe('RouteTable', () => {
  it('routes as one list of routes would: in order, ignoring case, falling through when nothing matches', async () => {
    expect(
      await answersOf(app(), [
        // `/v1/:kind/first`, added first, takes the path before `/v1/things/first` as it did on one router.
        ['GET', '/v1/things/first', 'GET /v1/:kind/first'],
        ['GET', '/v1/things/th_1', 'GET /v1/things/:id'],
        ['GET', '/V1/THINGS', 'GET /v1/things'],
        ['GET', '/v1/things/', 'GET /v1/things'],
        ['POST', '/v1/other/stuff', 'POST /v1/other/stuff'],
        ['GET', '/v1/other/stuff', 'unknown GET'],
        ['GET', '/v2/things', 'unknown GET'],
      ]),
    ).toEqual([]);
  });

  it('passes OPTIONS on to what follows rather than answering it with the routes it knows', async () => {
    const res = await request(app()).options('/v1/things');
    expect(res.status).toBe(404);
    expect(res.text).toBe('unknown OPTIONS');
  });
});

describe('RouteTable across groups', () => {
  it('tries the parts of every group whose prefix fits, in the order the groups were added', async () => {
    expect(
      await answersOf(twoGroups(), [
        ['GET', '/v1/things/th_1/late', 'GET /v1/things/:id/late'],
        ['GET', '/v1/things/th_1', 'GET /v1/things/:id'],
        // A part without a prefix is tried for every path, after the parts added before it.
        ['GET', '/v1', 'GET /:kind'],
        ['GET', '/elsewhere', 'GET /:kind'],
        ['GET', '/v1/nothing/here', 'unknown GET'],
      ]),
    ).toEqual([]);
  });

  it('runs only the router of a part whose route takes the path and the method', async () => {
    // A router that takes nothing answers a turn of the event loop later: each part passed over cost one.
    const entered: string[] = [];
    const a = appOf([['g', schema, implementation], ['h', other, otherImplementation]], entered);
    const ran = async (method: 'GET' | 'POST', path: string) => {
      entered.length = 0;
      await (method === 'GET' ? request(a).get(path) : request(a).post(path));
      return [...entered];
    };
    expect(await ran('GET', '/v1/things/th_1/late')).toEqual(['/v1/things/:id/late,/v1/boom']);
    const things = '/v1/things,/v1/things/:id,/v1/things/first';
    expect(await ran('GET', '/v1/things/th_1')).toEqual([things]);
    expect(await ran('GET', '/V1/Things/')).toEqual([things]);
    expect(await ran('GET', '/v1/things/first')).toEqual(['/v1/:kind/first']);
    expect(await ran('GET', '/v1/other/stuff')).toEqual([]);
    expect(await ran('POST', '/v1/other/stuff')).toEqual(['/v1/other/stuff']);
    expect(await ran('GET', '/elsewhere')).toEqual(['/:kind']);
  });

  it('sends an error to the error handler at once, trying no later part', async () => {
    const res = await request(twoGroups()).get('/v1/boom');
    expect(res.status).toBe(500);
    expect(res.text).toBe('boom');
  });
});

describe('RouteTable remembering where a path goes', () => {
  it('routes a method and path asked again without matching any route, and as the first time', async () => {
    const matched = { count: 0 };
    const entered: string[] = [];
    const a = appOf([['g', schema, implementation], ['h', other, otherImplementation]], entered, new RouteTable(), matched);
    const cases: Array<[method: 'GET' | 'POST', path: string, expected: string]> = [
      ['GET', '/v1/things/first', 'GET /v1/:kind/first'],
      ['GET', '/v1/things/th_1/late', 'GET /v1/things/:id/late'],
      ['GET', '/V1/THINGS', 'GET /v1/things'],
      ['GET', '/v1/other/stuff', 'unknown GET'],
      ['POST', '/v1/other/stuff', 'POST /v1/other/stuff'],
      ['GET', '/elsewhere', 'GET /:kind'],
      ['GET', '/v1/nothing/here', 'unknown GET'],
    ];
    expect(await answersOf(a, cases)).toEqual([]);
    const firstTime = matched.count;
    const enteredFirst = [...entered];
    entered.length = 0;
    matched.count = 0;
    expect(await answersOf(a, cases)).toEqual([]);
    expect(entered).toEqual(enteredFirst);
    // What is left is each part's router matching the one route it runs; without a memory, the scan again.
    expect(matched.count).toBeLessThan(firstTime);
    const forgetful = { count: 0 };
    const b = appOf([['g', schema, implementation], ['h', other, otherImplementation]], [], new RouteTable(0), forgetful);
    expect(await answersOf(b, cases)).toEqual([]);
    const forgetfulFirst = forgetful.count;
    expect(await answersOf(b, cases)).toEqual([]);
    expect(forgetful.count).toBe(2 * forgetfulFirst);
  });

  it('keeps at most as many paths as it was given, the newest', async () => {
    const table = new RouteTable(3);
    const a = appOf([['g', schema, implementation]], [], table);
    for (const id of ['th_1', 'th_2', 'th_3', 'th_4', 'th_5']) expect((await request(a).get(`/v1/things/${id}`)).text).toBe('GET /v1/things/:id');
    expect(table.rememberedPaths).toBe(3);
    expect(await answersOf(a, [['GET', '/v1/things/th_1', 'GET /v1/things/:id'], ['GET', '/v1/things/first', 'GET /v1/:kind/first']])).toEqual([]);
    expect(table.rememberedPaths).toBe(3);
  });
});
