import type { Config } from '../../../boot/config';
import type { AppContext } from '../../../core/context';
import type { SecretBox } from '../../../core/secret-box';
import type { Database } from '../../../db/database';
import type { VideoNetworks } from '../network/video-networks';
import { videoNetworksPart } from '../streams-parts';

/**
 * What the asset, upload, clip and moment services use. The clock and the networks come from here, not from
 * imports, so tests can move time and put a failing network in place without touching any schedule.
 */
export interface MediaDeps {
  db: Database;
  secrets: SecretBox;
  config: Config;
  networks: VideoNetworks;
  now: () => Date;
}

export const mediaDeps = (ctx: AppContext): MediaDeps => ({
  db: ctx.db,
  secrets: ctx.secrets,
  config: ctx.config,
  networks: videoNetworksPart.of(ctx),
  now: () => (ctx.clock ? ctx.clock() : new Date()),
});
