import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { StreamsDeps } from '../streams-deps';
import { authorizePlayback, masterPlaylist, mediaPlaylist, segmentBytes } from './simulated-playback';
import { networkPlaybackRedirect } from './network-playback';

const s = initServer();

/** The simulated network's HLS playback on this server: no API key, the playback token decides. */
export const playbackRouter = (deps: StreamsDeps) =>
  s.router(contract.streams.playback, {
    master: async ({ params, query, res }) => {
      const playable = await authorizePlayback(deps, params.playback_id, query.token);
      res.setHeader('Cache-Control', 'no-store');
      const elsewhere = await networkPlaybackRedirect(deps, playable, query.token);
      if (elsewhere) {
        res.setHeader('Location', elsewhere);
        return { status: 302, body: undefined };
      }
      return { status: 200, body: masterPlaylist(playable, params.playback_id, query.token) };
    },
    media: async ({ params, query, res }) => {
      const playable = await authorizePlayback(deps, params.playback_id, query.token);
      res.setHeader('Cache-Control', 'no-store');
      return { status: 200, body: mediaPlaylist(playable, query.token, deps.now()) };
    },
    segment: async ({ params, query }) => {
      await authorizePlayback(deps, params.playback_id, query.token);
      // A Buffer, so Express sends the bytes; the contract types it as the Uint8Array it is.
      return { status: 200, body: segmentBytes() as Uint8Array<ArrayBuffer> };
    },
  });
