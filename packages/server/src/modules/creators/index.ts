import type { ModuleDefinition } from '../../core/modules/module-definition';
import { creatorsRouter } from './creators.router';
import { mountCapsulePage } from './public/capsule-page';

// Commerce fills the capsule's merch (it depends on creators, not the reverse).
export { registerCapsuleMerch, type CapsuleMerch } from './public/capsule-merch';

/**
 * Creators: the capsule (a creator organization's public profile) and its readiness, creator content with its
 * review by tenant staff, the public capsule and content reads, and following. Organizations and members come
 * from identity, assets from Streams.
 */
export const creatorsModule: ModuleDefinition = {
  name: 'creators',
  routers: (ctx) => ({ creators: creatorsRouter(ctx) }),
  pages: { paths: ['/capsules'], mount: mountCapsulePage },
};

// The fanbases product registers what the public capsule shows of it (its id, the viewer's membership and subscription).
export { capsuleFanbasePart, type CapsuleFanbaseSource, type CapsuleFanbaseState } from './public/capsule-fanbase';
// Fanbases grants the assets of published content (`cnt` tier grants) and reads a creator's capsule switches.
export { publishedContentAssets } from './contents/content-assets';
export { capsuleSwitches } from './capsules/capsule-switches';
