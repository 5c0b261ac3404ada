import type { ModuleDefinition } from '../../core/modules/module-definition';
import { mountConsole } from './console/console.routes';
import { mountDocs } from './docs/docs.routes';
import { keysRouter } from './keys/keys.router';
import { platformRouter } from './platform.router';
import { purgeRequestLogsJob } from './request-logs/purge-request-logs.job';
import { requestLogsRouter } from './request-logs/request-logs.router';
import { operatorRouter } from './tenants/operator.router';

/** The platform: status and build info, API keys, the request log, the operator's tenants, the API documentation, the console. */
export const platformModule: ModuleDefinition = {
  name: 'platform',
  routers: (ctx) => ({
    platform: platformRouter(ctx),
    keys: keysRouter(ctx),
    operator: operatorRouter(ctx),
    requestLogs: requestLogsRouter(ctx),
  }),
  jobs: (ctx) => [purgeRequestLogsJob(ctx)],
  pages: {
    paths: ['/openapi.json', '/openapi.3.0.json', '/docs', '/console'],
    mount: (app, ctx) => {
      mountDocs(app, ctx.config.baseUrl);
      mountConsole(app);
    },
  },
};

// What the platform offers the command line and other modules.
export { createTenant } from './tenants/tenants.service';
