import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { routesOf } from './unknown-route';

/** A path segment that only ever matches itself (no parameter, wildcard, optional part or escape). */
const LITERAL_SEGMENT = /^[A-Za-z0-9_-]+$/;

/** The leading literal segments every route of a contract group shares (`/v1/streams`), or `''` when none. */
export function sharedPrefix(group: object): string {
  let common: string[] | undefined;
  for (const { path } of routesOf(group)) {
    const segments = path.split('/').slice(1);
    const firstOther = segments.findIndex((s) => !LITERAL_SEGMENT.test(s));
    const literal = firstOther === -1 ? segments : segments.slice(0, firstOther);
    if (!common) common = literal;
    let n = 0;
    while (n < common.length && n < literal.length && common[n] === literal[n]) n++;
    common = common.slice(0, n);
  }
  return common?.length ? `/${common.join('/')}` : '';
}

/**
 * A contract group's routes on routers of their own, one per part of the group (each of its sub-routers, each
 * of its routes), each tried only for paths under the part's shared prefix. Express tries an app's routes one
 * by one, matching each route's pattern against the path: a request for a route added late walked every route
 * before it (70 patterns for the list of live streams). A path outside a part's prefix cannot match any of its
 * routes (routing ignores case, so the test does too). `OPTIONS`, which no route takes, is not passed in either,
 * so no part's router makes an `Allow` answer of its own and the request reaches the unknown-route handler as
 * before. The parts keep the group's order, so routes are tried in the order they were before.
 */
export function mountRouteGroup(
  app: Router,
  group: string,
  schema: Record<string, object>,
  implementation: Record<string, unknown>,
  mount: (router: Router, part: object, implementation: object) => void,
): void {
  for (const [key, impl] of Object.entries(implementation)) {
    const part = { [group]: { [key]: schema[key] } };
    const router = express.Router();
    mount(router, part, { [group]: { [key]: impl } });
    const under = new RegExp(`^${sharedPrefix(part)}`, 'i');
    app.use((req: Request, res: Response, next: NextFunction) => {
      if (req.method === 'OPTIONS' || !under.test(req.path)) return next();
      router(req, res, next);
    });
  }
}
