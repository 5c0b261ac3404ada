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

/** A path's first two segments, lower-cased (`/v1/events/ev_1` → `/v1/events`): the key parts are filed under. */
function headOf(path: string): string {
  const lower = path.toLowerCase();
  const first = lower.indexOf('/', 1);
  const second = first === -1 ? -1 : lower.indexOf('/', first + 1);
  return second === -1 ? lower : lower.slice(0, second);
}

interface Part {
  prefix: string;
  router: Router;
}

/** What a part's router holds: the routes `createExpressEndpoints` put on it, then its error handler. */
interface RouteLayer {
  handle: (...args: never[]) => unknown;
  match(path: string): unknown;
  route?: { _handlesMethod(method: string): boolean };
}

/**
 * Whether the part's router would take the request, judged as the router judges its layers: the layer's path
 * matches and its route takes the method (a `HEAD` is tried on any route). A router that takes nothing answers
 * through `setImmediate`: one turn of the event loop, and a router's setup, for every part passed over.
 */
function couldServe(router: Router, method: string, path: string): boolean {
  for (const layer of (router as unknown as { stack: RouteLayer[] }).stack) {
    // An error handler (four parameters) is passed over by a request that carries no error.
    if (!layer.route && layer.handle.length === 4) continue;
    try {
      if (!layer.match(path)) continue;
    } catch {
      // A path that cannot be decoded: the router itself reports it, as it did before.
      return true;
    }
    if (!layer.route || method === 'HEAD' || layer.route._handlesMethod(method)) return true;
  }
  return false;
}

/**
 * The contract's routes as parts (each sub-router or route of a group, on a router of its own), tried only for
 * paths under the part's shared prefix. Express tries an app's middleware one by one: with a layer per part, a
 * request for a route of a late module walked about a hundred layers first, a quarter of a microsecond each. The
 * table is one layer: a request's candidates are found by its path's first two segments, and only those parts
 * run, in the order they were added (the module list's), so routes are tried in the order they were before. A
 * path outside a part's prefix cannot match any of its routes (routing ignores case, so the test does too).
 * `OPTIONS`, which no route takes, is passed on, so no part's router makes an `Allow` answer of its own and the
 * request reaches the unknown-route handler as before. Of the candidates, only the parts whose routes match the
 * path and method are run: an organizer route had about twenty parts under its head to pass over.
 */
export class RouteTable {
  private readonly parts: Part[] = [];
  /**
   * For a method and path seen before: its candidates and the first of them that could serve it. The routes never
   * change once mounted, so the answer is the scan's own; hot paths repeat (one event's door scans, one page,
   * a thousand viewers' heartbeats). The oldest entry goes first when it is full.
   */
  private readonly firstServing = new Map<string, { candidates: Part[]; first: number }>();

  constructor(private readonly remembered = 4096) {}

  /** Mounts each part of a contract group (`mount` puts the part's routes on the router it is given). */
  addGroup(group: string, schema: Record<string, object>, implementation: Record<string, unknown>, mount: (router: Router, part: object, implementation: object) => void): void {
    for (const [key, impl] of Object.entries(implementation)) {
      const part = { [group]: { [key]: schema[key] } };
      const router = express.Router();
      mount(router, part, { [group]: { [key]: impl } });
      this.parts.push({ prefix: sharedPrefix(part).toLowerCase(), router });
    }
  }

  /** How many methods and paths are remembered (bounded by the constructor's `remembered`). */
  get rememberedPaths(): number {
    return this.firstServing.size;
  }

  /** The one middleware that routes to the parts. */
  handler(): (req: Request, res: Response, next: NextFunction) => void {
    // A part whose prefix has two segments or more serves only paths with the same head; a shorter one, any path.
    const anyHead = this.parts.filter((p) => p.prefix.split('/').length < 3);
    const byHead = new Map<string, Part[]>();
    for (const head of new Set(this.parts.filter((p) => !anyHead.includes(p)).map((p) => headOf(p.prefix)))) {
      byHead.set(head, this.parts.filter((p) => anyHead.includes(p) || headOf(p.prefix) === head));
    }
    const firstFrom = (candidates: Part[], from: number, method: string, original: string): number => {
      const path = original.toLowerCase();
      let i = from;
      while (i < candidates.length) {
        const part = candidates[i]!;
        if (path.startsWith(part.prefix) && couldServe(part.router, method, original)) return i;
        i++;
      }
      return i;
    };
    return (req, res, next) => {
      if (req.method === 'OPTIONS') return next();
      const original = req.path;
      const key = `${req.method} ${original}`;
      let known = this.firstServing.get(key);
      if (!known) {
        const candidates = byHead.get(headOf(original)) ?? anyHead;
        known = { candidates, first: firstFrom(candidates, 0, req.method, original) };
        if (this.remembered > 0) {
          if (this.firstServing.size >= this.remembered) this.firstServing.delete(this.firstServing.keys().next().value!);
          this.firstServing.set(key, known);
        }
      }
      const { candidates } = known;
      // A router that matched nothing calls back with no error (or `null`, when a route said `next('router')`).
      const run = (i: number): void => {
        if (i >= candidates.length) return next();
        candidates[i]!.router(req, res, (err?: unknown) => (err ? next(err) : run(firstFrom(candidates, i + 1, req.method, original))));
      };
      run(known.first);
    };
  }
}
