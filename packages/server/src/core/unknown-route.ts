import type { NextFunction, Request, Response } from 'express';
import type { AppRoute } from '@ts-rest/core';
import { ApiError } from './errors';

/** Flattens a ts-rest router into its routes. */
export function routesOf(router: object): AppRoute[] {
  return Object.values(router).flatMap((v) => ('method' in v && 'path' in v ? [v as AppRoute] : routesOf(v)));
}

/** Answers what no route took: `405` when the path exists under another method, else `404`. */
export function unknownRoute(routes: AppRoute[]) {
  const patterns = routes.map((r) => ({
    method: r.method,
    regex: new RegExp(`^${r.path.replace(/:[A-Za-z_]+/g, '[^/]+')}/?$`),
  }));
  return (req: Request, res: Response, next: NextFunction) => {
    const methods = [...new Set(patterns.filter((p) => p.regex.test(req.path)).map((p) => p.method))];
    if (methods.length > 0) {
      res.setHeader('Allow', methods.join(', '));
      return next(ApiError.of('method_not_allowed', { message: `${req.method} is not allowed here; use ${methods.join(' or ')}.` }));
    }
    next(ApiError.of('route_not_found', { message: `No route for ${req.method} ${req.path}.` }));
  };
}
