import type { ModuleDefinition } from '../../core/modules/module-definition';
import { capsuleFanbasePart } from '../creators';
import { fanbasesRouter } from './fanbases/fanbases.router';
import { capsuleFanbaseSource } from './public/capsule-source';
import { fanbasesPublicRouter } from './public/public.router';
import { syncTierJob } from './tiers/sync-tier.job';

/**
 * Fanbases: an organization's community of fans, its membership tiers (free or paid), memberships (joined,
 * subscribed or comp), and the Access entitlements that follow them. The public capsule (creators) reads the
 * fanbase through the source registered here.
 */
export const fanbasesModule: ModuleDefinition = {
  name: 'fanbases',
  setup: (ctx) => capsuleFanbasePart.set(ctx, capsuleFanbaseSource),
  routers: (ctx) => ({ fanbases: fanbasesRouter(ctx), fanbasesPublic: fanbasesPublicRouter(ctx) }),
  jobs: (ctx) => [syncTierJob(ctx)],
};
