import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../core/context';
import { assetsRouter } from './assets/assets.router';
import './assets/asset-playback-owner';
import './live-streams/live-stream-playback-owner';
import { clipsRouter } from './clips/clips.router';
import { liveStreamsRouter } from './live-streams/live-streams.router';
import { momentsRouter } from './moments/moments.router';
import { playbackIdsRouter } from './playback-ids/playback-ids.router';
import { playbackRouter } from './playback-ids/playback.router';
import { providerConfigsRouter } from './provider-configs/provider-configs.router';
import { streamSettingsRouter } from './settings/stream-settings.router';
import { signingKeysRouter } from './signing-keys/signing-keys.router';
import { streamsDeps } from './streams-deps';
import { liveStreamTestHelpersRouter } from './test-helpers/live-stream-test-helpers.router';
import { uploadsRouter } from './uploads/uploads.router';

const s = initServer();

/** Every Streams route: one router per resource, as in `contract.streams`. */
export const streamsRouter = (ctx: AppContext) => {
  const deps = streamsDeps(ctx);
  const accountDeps = { ...deps, baseUrl: ctx.config.baseUrl };
  return s.router(contract.streams, {
    liveStreams: liveStreamsRouter(deps),
    liveStreamTestHelpers: liveStreamTestHelpersRouter(deps),
    playbackIds: playbackIdsRouter(deps),
    signingKeys: signingKeysRouter(deps),
    playback: playbackRouter(deps),
    assets: assetsRouter(ctx),
    uploads: uploadsRouter(ctx),
    clips: clipsRouter(ctx),
    moments: momentsRouter(ctx),
    providerConfigs: providerConfigsRouter(accountDeps),
    settings: streamSettingsRouter(accountDeps),
  });
};
