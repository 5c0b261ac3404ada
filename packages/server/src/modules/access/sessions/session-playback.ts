import { ACCESS_LIMITS, type SessionGrant } from '@svc/contract';
import type { AccessSessionRow } from '../../../db/access.schema';
import { ApiError } from '../../../core/errors';
import { InFlight } from '../../../core/in-flight';
import type { Scope } from '../../../core/scope';
import { linkForPlayable, ownerOf, playbackIdRefsOf, signPlaybackToken, type Playable, type PlaybackIdRef } from '../../streams';
import type { AccessDeps } from '../access-deps';
import type { AccessResource } from '../resources';

const { heartbeatIntervalSeconds, lapseSeconds, linkGraceSeconds, failover } = ACCESS_LIMITS.session;

/** What a session plays and the link it hands out. */
export interface SessionPlayback {
  playbackId: string;
  policy: 'signed' | 'public';
  provider: string;
  url: string;
  /** `null` for a public playback id: its link carries no token. */
  tokenExpiresAt: Date | null;
}

/** A session lapses 90 s after its last heartbeat; its signed link lasts 10 minutes longer. */
export const sessionTimes = (now: Date) => {
  const expiresAt = new Date(now.getTime() + lapseSeconds * 1000);
  return { expiresAt, linkExpiresAt: new Date(expiresAt.getTime() + linkGraceSeconds * 1000) };
};

/** What a session open reads about its resource: whether it plays, and its playback ids. */
interface ResourcePlayback {
  playable: PromiseSettledResult<Playable>;
  refs: PromiseSettledResult<PlaybackIdRef[]>;
}

/**
 * Reads of a resource's playback in flight, by scope and resource. A show's viewers open at once: an open
 * arriving while the same read runs takes its answer instead of reading again. It may thus miss a change
 * that committed while that read ran, as if it had arrived a moment earlier; nothing is kept after the read.
 */
const reading = new InFlight<ResourcePlayback>();

function readResourcePlayback(deps: AccessDeps, scope: Scope, resource: AccessResource): Promise<ResourcePlayback> {
  const key = `${scope.tenantId}:${scope.livemode}:${resource.id}`;
  // Both reads at once; the resource's own refusal (404, not playable) comes first.
  return reading.run(key, () =>
    Promise.allSettled([
      ownerOf(resource.id).assertPlayable(deps.db, scope, resource.id),
      playbackIdRefsOf(deps, scope, [resource.id]).then((m) => m.get(resource.id) ?? []),
    ]).then(([playable, refs]) => ({ playable, refs })),
  );
}

/**
 * The resource's playback for a new session: `404` when it is not the caller's, `409 stream_disabled`,
 * `409 asset_not_ready`, `409 no_playback_id`; a signed playback id is preferred over a public one.
 */
export async function openPlayback(deps: AccessDeps, scope: Scope, resource: AccessResource, linkExpiresAt: Date): Promise<SessionPlayback> {
  const { playable, refs } = await readResourcePlayback(deps, scope, resource);
  if (playable.status === 'rejected') throw playable.reason;
  if (refs.status === 'rejected') throw refs.reason;
  const chosen = refs.value.find((r) => r.policy === 'signed') ?? refs.value[0];
  if (!chosen) throw ApiError.of('no_playback_id', { message: `${resource.id} has no playback id yet.` });
  const link = await linkForPlayable(deps, scope, chosen, playable.value, linkExpiresAt);
  return {
    playbackId: chosen.id,
    policy: chosen.policy,
    provider: playable.value.provider,
    url: link.url,
    tokenExpiresAt: link.expires_at ? new Date(link.expires_at) : null,
  };
}

/** A fresh link for a heartbeat, from what the session recorded: no lookup of the resource again. */
export async function renewPlayback(
  deps: AccessDeps,
  scope: Scope,
  session: Pick<AccessSessionRow, 'playback_id' | 'playback_policy' | 'provider'>,
  linkExpiresAt: Date,
): Promise<SessionPlayback> {
  const signed = session.playback_policy === 'signed';
  const token = signed ? await signPlaybackToken(deps, scope, session.provider, session.playback_id, linkExpiresAt) : null;
  const network = await deps.videoNetworks.playbackOf(session.provider);
  return {
    playbackId: session.playback_id,
    policy: session.playback_policy,
    provider: session.provider,
    url: network.playbackUrl({ playbackId: session.playback_id, token }),
    tokenExpiresAt: signed ? linkExpiresAt : null,
  };
}

export function grantOf(playback: SessionPlayback): SessionGrant {
  return {
    sources: [{ provider: playback.provider, url: playback.url }],
    failover: { max_errors: failover.maxErrors, window_seconds: failover.windowSeconds },
    heartbeat_interval: heartbeatIntervalSeconds,
    token_expires_at: playback.tokenExpiresAt?.toISOString() ?? null,
  };
}
