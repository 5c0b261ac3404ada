import express, { type Express } from 'express';
import qs from 'qs';
import { createExpressEndpoints, initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from './core/context';
import { authenticate } from './core/auth/authenticate';
import { errorHandler } from './core/error-handler';
import { expandGuard } from './core/expand-guard';
import { ApiError } from './core/errors';
import { idempotency } from './core/idempotency';
import { inputGuard } from './core/input-guard';
import { jsonBody } from './core/json-body';
import { sendJsonBytes } from './core/json-bytes';
import { newId } from './core/ids';
import { rateLimit } from './core/rate-limit';
import { refusedBodies } from './core/refused-body';
import { requestLog } from './core/request-log';
import { recordRequests } from './core/request-records';
import { RouteTable } from './core/route-groups';
import { routesOf, unknownRoute } from './core/unknown-route';
import { publishableCors } from './core/cors';
import { customDomains } from './core/custom-domain';
import { checkModules } from './core/modules/module-definition';

const s = initServer();

/**
 * The Express app: request id and logs, JSON bodies, the contract's routes behind auth, rate limits and
 * idempotency, then errors. The routes come from the context's modules (`modules/index.ts`).
 */
export function createApp(ctx: AppContext): Express {
  const routers = ctx.modules.map((m) => m.routers?.(ctx) ?? {});
  checkModules(ctx.modules, routers, Object.keys(contract));
  const app = express();
  app.disable('x-powered-by');
  // Every answer is built for its request; hashing each body for an ETag costs more than the rare 304 saves.
  app.set('etag', false);
  sendJsonBytes(app);
  app.set('trust proxy', ctx.config.TRUST_PROXY);
  // `expand[]=a`, `expand[0]=a` and `metadata[key]=v` need bracket parsing.
  app.set('query parser', (query: string) => qs.parse(query, { depth: 2, arrayLimit: 100, parameterLimit: 200 }));

  app.use((req, res, next) => {
    req.id = newId('request');
    res.setHeader('Request-Id', req.id);
    // Express 5 parses the query string again on every read of `req.query` (three a request): once is enough.
    Object.defineProperty(req, 'query', { value: req.query, writable: true, configurable: true, enumerable: true });
    next();
  });
  app.use(requestLog(ctx.log, ctx.config.SVC_LOG_SUMMARY_SECONDS));
  // A tenant's custom domain names the tenant and limits the paths served on it.
  app.use(customDomains(ctx));
  app.use(recordRequests(ctx));
  // Browsers may call the publishable-key routes; before the body parser so its errors carry CORS headers too.
  app.use(publishableCors(routesOf(contract)));
  // Routes that take a raw body (test-mode direct uploads) come before the JSON body parser.
  for (const m of ctx.modules) m.mountRaw?.(app, ctx, [rateLimit(ctx), inputGuard()]);
  // Size, nesting depth and per-IP concurrency are enforced on the raw bytes, before parsing and authentication.
  app.use(jsonBody());
  // A body the JSON parser did not take is in some other format: say so rather than failing validation.
  app.use((req, res, next) => {
    const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    if (hasBody && !req.is('application/json')) {
      if (!refusedBodies.drop(req)) res.setHeader('Connection', 'close');
      return next(ApiError.of('unsupported_media_type', { message: 'Send the request body as application/json.' }));
    }
    next();
  });

  const endpoints = {
    logInitialization: false,
    jsonQuery: false,
    responseValidation: false,
    // After authentication (an anonymous bad request is a 401), before anything walks or stores the input.
    globalMiddleware: [authenticate(ctx), rateLimit(ctx), inputGuard(), expandGuard(), idempotency(ctx)],
    requestValidationErrorHandler: (err: unknown, _req: express.Request, _res: express.Response, next: express.NextFunction) => next(err),
  };
  // Routes are tried in the order they were added: the module list's order.
  const table = new RouteTable();
  for (const groups of routers) {
    for (const [group, router] of Object.entries(groups)) {
      const schema = { [group]: contract[group as keyof typeof contract] };
      // Each module's router was checked against its contract group by `s.router` where it was made.
      table.addGroup(group, schema[group] as never, router as Record<string, unknown>, (r, part, impl) =>
        createExpressEndpoints(part as typeof schema, s.router(part as typeof schema, impl as never), r, endpoints),
      );
    }
  }
  app.use(table.handler());

  // Routes outside the contract (documentation, unknown paths) are limited per client IP like public routes. They
  // come after the contract's, whose paths are not theirs, so an API request passes over none of their layers.
  const limitByIp = rateLimit(ctx);
  for (const m of ctx.modules) {
    if (!m.pages) continue;
    app.use([...m.pages.paths], limitByIp);
    m.pages.mount(app, ctx);
  }
  app.use(limitByIp, unknownRoute(routesOf(contract)));
  app.use(errorHandler(ctx.log, ctx.config.baseUrl));
  return app;
}
