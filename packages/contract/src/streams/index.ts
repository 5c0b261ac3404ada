import { initContract } from '@ts-rest/core';
import { liveStreamsContract } from './live-streams.contract';
import { playbackContract, playbackIdsContract, signingKeysContract } from './playback-ids.contract';
import { liveStreamTestHelpersContract } from './test-helpers.contract';
import { assetsContract } from './assets.contract';
import { uploadsContract } from './uploads.contract';
import { clipsContract } from './clips.contract';
import { momentsContract } from './moments.contract';
import { providerConfigsContract, streamSettingsContract } from './provider-configs.contract';

export * from './live-streams.schemas';
export * from './live-streams.contract';
export * from './playback-ids.schemas';
export * from './playback-ids.contract';
export * from './test-helpers.contract';
export * from './public-url';
export * from './assets.contract';
export * from './uploads.contract';
export * from './clips.contract';
export * from './moments.contract';
export * from './provider-configs.contract';

const c = initContract();

/**
 * Every Streams route, one entry per resource. Each needs the Streams product (`403 product_not_enabled`
 * otherwise) except the simulated network's playback routes, which a player opens with a token.
 */
export const streamsContract = c.router({
  liveStreams: liveStreamsContract,
  liveStreamTestHelpers: liveStreamTestHelpersContract,
  playbackIds: playbackIdsContract,
  signingKeys: signingKeysContract,
  playback: playbackContract,
  assets: assetsContract,
  uploads: uploadsContract,
  clips: clipsContract,
  moments: momentsContract,
  providerConfigs: providerConfigsContract,
  settings: streamSettingsContract,
});
