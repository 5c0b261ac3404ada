import type { NextFunction, Request, Response } from 'express';
import { LIMITS } from '@svc/contract';
import { ApiError } from './errors';

type RouteWithQuery = { query?: { shape?: Record<string, unknown> } | null };

/** The paths of `expand[]=a`, `expand[0]=a` or `expand=a`, as the contract's `ExpandQuerySchema` reads them. */
function pathsOf(value: unknown): string[] {
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : typeof value === 'object' && value !== null ? Object.values(value) : [value];
  return list.map(String);
}

/**
 * `expand[]` on a route whose contract declares no `expand` query: the route has nothing to expand, so any
 * path is unknown (`400 invalid_expand_path`, the path in `param`) rather than silently ignored. Routes that
 * declare `expand` check their own paths against what they can expand (`core/expand.ts`).
 */
export function expandGuard() {
  return (req: Request, _res: Response, next: NextFunction) => {
    const query = req.query as Record<string, unknown> | undefined;
    if (!query || !Object.hasOwn(query, 'expand')) return next();
    const route = (req as Request & { tsRestRoute?: RouteWithQuery }).tsRestRoute;
    if (route?.query?.shape && Object.hasOwn(route.query.shape, 'expand')) return next();
    const path = pathsOf(query.expand)[0] ?? '';
    next(
      ApiError.of('invalid_expand_path', {
        message: `Cannot expand \`${path}\`: the path is unknown or deeper than ${LIMITS.expansion.maxDepth} levels.`,
        param: path,
      }),
    );
  };
}
