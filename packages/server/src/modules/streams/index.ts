import type { ModuleDefinition } from '../../core/modules/module-definition';
// Assets answer `assertPlayable` (sessions of other modules too) through the owner this file registers.
import './assets/asset-playback-owner';
import { streamsMediaJobs } from './assets/media-jobs';
import { reconnectWindowJob } from './live-streams/reconnect-window.job';
import { VideoNetworks } from './network/video-networks';
import { streamsDeps } from './streams-deps';
import { videoNetworksPart } from './streams-parts';
import { streamsRouter } from './streams.router';
import { mountUploadReceiver } from './uploads/upload-receiver';
import { mountProviderWebhooks } from './provider-webhooks/provider-webhooks.receiver';

/** Streams: live streams, assets, uploads, clips, moments, playback ids and signing keys, over a video network. */
export const streamsModule: ModuleDefinition = {
  name: 'streams',
  setup: (ctx) => videoNetworksPart.set(ctx, VideoNetworks.forServer(ctx.config.baseUrl, { db: ctx.db, secrets: ctx.secrets })),
  routers: (ctx) => ({ streams: streamsRouter(ctx) }),
  mountRaw: (app, ctx, middleware) => {
    // Test-mode direct uploads take a raw file.
    mountUploadReceiver(app, ctx, middleware);
    // Provider webhooks are signed over their raw bytes.
    mountProviderWebhooks(app, ctx, middleware);
  },
  jobs: (ctx) => [...streamsMediaJobs(ctx), reconnectWindowJob(streamsDeps(ctx))],
};

// What Streams offers other modules (Access makes playback links with it).
export { streamsDeps, type StreamsDeps } from './streams-deps';
export { videoNetworksPart } from './streams-parts';
export type { VideoNetworks } from './network/video-networks';
export { ownerOf, type Playable } from './playback-ids/playback-owners';
export { linkForPlayable, playbackIdRefsOf, type PlaybackIdRef } from './playback-ids/playback-ids.service';
export { signPlaybackToken } from './playback-ids/playback-tokens';
export { playableExists, playableScopes } from './playables.service';
