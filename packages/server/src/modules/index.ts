import type { ModuleDefinition } from '../core/modules/module-definition';
import { accessModule } from './access';
import { platformModule } from './platform';
import { streamsModule } from './streams';
import { webhooksModule } from './webhooks';
import { identityModule } from './identity';
import { ticketingModule } from './ticketing';
import { messagingModule } from './messaging';
import { creatorsModule } from './creators';
import { paymentsModule } from './payments';
import { whitelabelModule } from './whitelabel';
import { fanbasesModule } from './fanbases';
import { commerceModule } from './commerce';
import { promotersModule } from './promoters';

/**
 * The product modules of the server, one line each. Routes are tried in this order: Access first, since its
 * routes (heartbeats, session opens, checks) are the hottest and no other route matches an Access path.
 */
export const MODULES: readonly ModuleDefinition[] = [
  accessModule,
  platformModule,
  webhooksModule,
  streamsModule,
  identityModule,
  ticketingModule,
  paymentsModule,
  messagingModule,
  creatorsModule,
  whitelabelModule,
  fanbasesModule,
  commerceModule,
  promotersModule,
];
