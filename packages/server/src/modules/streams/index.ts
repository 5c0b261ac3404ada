import type { ModuleDefinition } from '../../core/modules/module-definition';
// Assets answer `assertPlayable` (sessions of other modules too) through the owner this file registers.
import './assets/asset-playback-owner';
import './live-streams/live-stream-playback-owner';
import { streamsMediaJobs } from './assets/media-jobs';
import { reconnectWindowJob } from './live-streams/reconnect-window.job';
import { VideoNetworks } from './network/video-networks';
import { streamsDeps } from './streams-deps';
import { videoNetworksPart } from './streams-parts';
import { streamsRouter } from './streams.router';
import { mountUploadReceiver } from './uploads/upload-receiver';
import { mountProviderWebhooks } from './provider-webhooks/provider-webhooks.receiver';
import { mountMediaHooks } from './network/media/media-hooks.router';
import { purgeProviderNoticesJob } from './provider-webhooks/purge-provider-notices.job';
import { mediaProcessingJob } from './network/media/media-processing.job';
import { startMediaNetwork, type RunningMediaNetwork } from './network/media/start-media-network';
import { storedMediaHls } from './network/media/media-hls';
import { mediaPlaybackElsewhere } from './network/media/media-address';
import { MEDIA_PROVIDER } from './network/media/media-network';

/** Streams: live streams, assets, uploads, clips, moments, playback ids and signing keys, over a video network. */
export const streamsModule: ModuleDefinition = {
  name: 'streams',
  setup: (ctx) => {
    const networks = VideoNetworks.forServer(ctx.config.baseUrl, { db: ctx.db, secrets: ctx.secrets });
    // The media network's HLS in the bucket is served by every process, whichever machine runs the network.
    const stored = storedMediaHls(ctx);
    if (stored) networks.serveStoredHls(MEDIA_PROVIDER, stored);
    // Its playback links are made by every process too, with the address its process recorded.
    networks.runsElsewhere(MEDIA_PROVIDER, mediaPlaybackElsewhere(ctx.db));
    videoNetworksPart.set(ctx, networks);
  },
  routers: (ctx) => ({ streams: streamsRouter(ctx) }),
  mountRaw: (app, ctx, middleware) => {
    // Test-mode direct uploads take a raw file.
    mountUploadReceiver(app, ctx, middleware);
    // Provider webhooks are signed over their raw bytes.
    mountProviderWebhooks(app, ctx, middleware);
    // nginx's callbacks of the media network: form bodies, a secret in the URL, no API key.
    mountMediaHooks(app, ctx);
  },
  jobs: (ctx) => [...streamsMediaJobs(ctx), reconnectWindowJob(streamsDeps(ctx)), mediaProcessingJob(ctx), purgeProviderNoticesJob(ctx)],
  // The server's own media network (nginx-rtmp supervised, ffmpeg), when it is enabled and installed.
  worker: (ctx) => {
    let media: RunningMediaNetwork | undefined;
    return {
      runsIn: 'media',
      // nginx calls back to this process's own address, known once it listens.
      start: async ({ url }) => {
        media = await startMediaNetwork(ctx, url);
      },
      stop: async () => {
        await media?.stop();
      },
    };
  },
};

// What Streams offers other modules (Access makes playback links with it).
export { streamsDeps, type StreamsDeps } from './streams-deps';
export { videoNetworksPart } from './streams-parts';
export type { VideoNetworks } from './network/video-networks';
export { ownerOf, type Playable } from './playback-ids/playback-owners';
export { linkForPlayable, playbackIdRefsOf, type PlaybackIdRef } from './playback-ids/playback-ids.service';
export { signPlaybackToken } from './playback-ids/playback-tokens';
export { playableExists, playableScopes } from './playables.service';
export { contentAssets, type ContentAsset } from './assets/content-assets.service';
