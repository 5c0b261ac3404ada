import type { NextFunction, Request, Response } from 'express';
import type { AppRoute } from '@ts-rest/core';
import type { RouteAccess } from '@svc/contract';

const ALLOWED_HEADERS = 'Svc-Publishable-Key, Authorization, Idempotency-Key, Content-Type, X-Tenant-Code, Svc-Tenant';
const EXPOSED_HEADERS = 'Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, Idempotent-Replayed';
const PREFLIGHT_MAX_AGE_SECONDS = 600;

const takesPublishable = (route: AppRoute) => {
  const a = (route.metadata as { access?: RouteAccess } | undefined)?.access;
  if (a?.auth === 'tenant' && a.credentials.includes('publishable')) return true;
  // Identity: sign-in, refresh and the signed-in person's calls come from browsers, with bearer tokens, never cookies.
  if (a?.auth === 'tenant' && (a.credentials.includes('user') || a.credentials.includes('tenant-header'))) return true;
  return route.path.startsWith('/auth/v1/') || route.path === '/.well-known/jwks.json';
};

/**
 * CORS for the routes a publishable key may call (session open, heartbeat, end): preflights are answered and
 * responses, errors included, carry `Access-Control-Allow-Origin` for the request's `Origin`, so a player page
 * on any of the tenant's domains can call them. Any origin is allowed: the publishable key and the customer
 * token authorise, and `allowed_domains` limits by origin. Routes that need a secret key advertise no CORS, so
 * a browser cannot read their answers.
 */
export function publishableCors(routes: readonly AppRoute[]) {
  const patterns = routes.filter(takesPublishable).map((r) => ({
    method: r.method,
    regex: new RegExp(`^${r.path.replace(/\./g, '\\.').replace(/:[A-Za-z_]+/g, '[^/]+')}/?$`),
  }));
  const methodsFor = (path: string): string[] => [...new Set(patterns.filter((p) => p.regex.test(path)).map((p) => p.method))];

  return (req: Request, res: Response, next: NextFunction) => {
    const origin = req.get('Origin');
    if (!origin) return next();
    const preflight = req.method === 'OPTIONS' && req.get('Access-Control-Request-Method') !== undefined;
    const methods = methodsFor(req.path);
    if (methods.length === 0 || (!preflight && !methods.includes(req.method))) return next();
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.append('Vary', 'Origin');
    if (!preflight) {
      res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
      return next();
    }
    res.setHeader('Access-Control-Allow-Methods', methods.join(', '));
    res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
    res.setHeader('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_SECONDS));
    res.status(204).end();
  };
}
