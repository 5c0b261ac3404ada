import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import { ApiError } from '../../../core/errors';
import type { StreamsDeps } from '../streams-deps';
import { networkPlaybackRedirect } from './network-playback';
import { localHlsOf, localMasterPlaylist, localMediaPlaylist, playbackHeaders } from './local-playback';
import { authorizePlaylist, authorizeSegment, checkPlayback } from './playback-grants';
import { masterPlaylist, mediaPlaylist, segmentBytes } from './simulated-playback';

const s = initServer();

/**
 * HLS playback on this server: no API key, the playback token decides. The simulated network's media is
 * made up here; a network that writes HLS to this server's disk (the media network) is served from there.
 */
export const playbackRouter = (deps: StreamsDeps) =>
  s.router(contract.streams.playback, {
    master: async ({ params, query, res }) => {
      const playable = await authorizePlaylist(deps, params.playback_id, query.token);
      // A tenant's own account serves its media itself: the viewer goes there with a locally signed address.
      const elsewhere = await networkPlaybackRedirect(deps, playable, query.token);
      if (elsewhere) {
        res.setHeader('Cache-Control', 'no-store');
        res.setHeader('Location', elsewhere);
        return { status: 302, body: undefined };
      }
      playbackHeaders(res, 'playlist', playable);
      const local = localHlsOf(deps, playable);
      const body = local ? localMasterPlaylist(playable, params.playback_id, query.token) : masterPlaylist(playable, params.playback_id, query.token);
      return { status: 200, body };
    },
    media: async ({ params, query, res }) => {
      const playable = await authorizePlaylist(deps, params.playback_id, query.token);
      playbackHeaders(res, 'playlist', playable);
      const local = localHlsOf(deps, playable);
      const body = local ? await localMediaPlaylist(local, playable, query.token) : mediaPlaylist(playable, query.token, deps.now());
      return { status: 200, body };
    },
    segment: async ({ params, query, res }) => {
      // Checked from memory when a playlist request of the same link was checked moments ago.
      const playable = await authorizeSegment(deps, params.playback_id, query.token);
      const local = localHlsOf(deps, playable);
      const bytes = local ? await local.segment(playable.kind, playable.providerRef!, params.segment) : segmentBytes();
      if (!bytes) throw ApiError.notFound('segment', String(params.segment));
      playbackHeaders(res, 'segment', playable);
      // A Buffer, so Express sends the bytes; the contract types it as the Uint8Array it is.
      return { status: 200, body: bytes as Uint8Array<ArrayBuffer> };
    },
    check: async ({ params, query, res }) => {
      const seconds = await checkPlayback(deps, params.playback_id, query.token);
      // The token is in the URL, so a cache keyed by it keeps one viewer's answer for that viewer only.
      res.setHeader('Cache-Control', seconds > 0 ? `public, max-age=${seconds}` : 'no-store');
      return { status: 204, body: undefined };
    },
  });
