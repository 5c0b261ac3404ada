import { decodeJwt } from 'jose';
import { ApiError } from '../../../core/errors';
import type { StreamsDeps } from '../streams-deps';
import type { Playable } from './playback-owners';

/** How long a link to a network's media lasts when the playback id is public (no token to follow). */
const PUBLIC_LINK_SECONDS = 3600;

/**
 * For media a network serves itself (a tenant's own account): where the player goes once this server let
 * it in, signed until the presented token's `exp` (or an hour for a public playback id). `null` for the
 * networks this server plays itself.
 */
export async function networkPlaybackRedirect(deps: StreamsDeps, playable: Playable, token: string | undefined): Promise<string | null> {
  // A network this server does not run is served from the bucket or refused (`localHlsOf`), never redirected to.
  if (!deps.videoNetworks.names.includes(playable.provider)) return null;
  const network = deps.videoNetworks.byProvider(playable.provider);
  if (!network.playbackRedirect) return null;
  if (!playable.providerRef) throw ApiError.of('asset_not_ready', { message: 'The video network has not named this media yet.' });
  const now = deps.now().getTime();
  let exp = now + PUBLIC_LINK_SECONDS * 1000;
  // The token was verified by `authorizePlayback` just before; only its expiry is read here.
  if (token) exp = (decodeJwt(token).exp ?? exp / 1000) * 1000;
  return network.playbackRedirect(playable.providerRef, new Date(exp));
}
