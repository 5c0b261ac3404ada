import type { ModuleDefinition } from '../../core/modules/module-definition';
import { mountDocs } from './docs/docs.routes';
import { keysRouter } from './keys/keys.router';
import { platformRouter } from './platform.router';
import { operatorRouter } from './tenants/operator.router';

/** The platform: status and build info, API keys, the operator's tenants, the API documentation. */
export const platformModule: ModuleDefinition = {
  name: 'platform',
  routers: (ctx) => ({ platform: platformRouter(ctx), keys: keysRouter(ctx), operator: operatorRouter(ctx) }),
  pages: { paths: ['/openapi.json', '/openapi.3.0.json', '/docs'], mount: (app, ctx) => mountDocs(app, ctx.config.baseUrl) },
};

// What the platform offers the command line and other modules.
export { createTenant } from './tenants/tenants.service';
