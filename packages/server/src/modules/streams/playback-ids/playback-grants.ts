import { decodeJwt } from 'jose';
import type { StreamsDeps } from '../streams-deps';
import type { Playable } from './playback-owners';
import { authorizePlayback } from './simulated-playback';

/** How long a checked playlist request lets the same link fetch segments without another check. */
const GRANT_MS = 30_000;
const MAX_GRANTS = 50_000;

/** Links checked recently, by playback id and token: what they may play and until when. */
const grants = new Map<string, { playable: Playable; until: number }>();

const keyOf = (playbackId: string, token: string | undefined) => `${playbackId}\n${token ?? ''}`;

/**
 * Playlists: the full check (playback id, tenant, token signature and key revocation, resource state), which
 * is then remembered for the link, at most until its token expires and for 30 seconds. Players fetch the
 * playlist every few seconds, so a revoked key or a disabled stream stops segments within that time too.
 */
export async function authorizePlaylist(deps: StreamsDeps, playbackId: string, token: string | undefined): Promise<Playable> {
  const playable = await authorizePlayback(deps, playbackId, token);
  const now = deps.now().getTime();
  let until = now + GRANT_MS;
  if (token) {
    const exp = decodeJwt(token).exp;
    if (exp) until = Math.min(until, exp * 1000);
  }
  const key = keyOf(playbackId, token);
  grants.delete(key);
  if (grants.size >= MAX_GRANTS) grants.delete(grants.keys().next().value!);
  grants.set(key, { playable, until });
  return playable;
}

/**
 * Segments: a link checked by a playlist request moments ago plays without a database read; anything else
 * (another stream's token, no token, an expired one) goes through the full check.
 */
export async function authorizeSegment(deps: StreamsDeps, playbackId: string, token: string | undefined): Promise<Playable> {
  const grant = grants.get(keyOf(playbackId, token));
  if (grant && grant.until > deps.now().getTime()) return grant.playable;
  return authorizePlaylist(deps, playbackId, token);
}

/** How long a CDN may keep a yes of the edge check: a revoked link stops at the edge within this much more. */
const EDGE_CHECK_SECONDS = 5;

/**
 * The edge check a CDN runs before serving a cached playlist or segment: the segment rule, and how many seconds
 * the yes may be kept (never past the token's expiry; 0 when it expires within the second).
 */
export async function checkPlayback(deps: StreamsDeps, playbackId: string, token: string | undefined): Promise<number> {
  await authorizeSegment(deps, playbackId, token);
  const exp = token ? decodeJwt(token).exp : undefined;
  const left = exp ? Math.floor(exp - deps.now().getTime() / 1000) : EDGE_CHECK_SECONDS;
  return Math.max(0, Math.min(EDGE_CHECK_SECONDS, left));
}
