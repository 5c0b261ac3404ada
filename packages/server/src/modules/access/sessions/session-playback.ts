import { ACCESS_LIMITS, type SessionGrant } from '@svc/contract';
import type { AccessSessionRow } from '../../../db/access.schema';
import { ApiError } from '../../../core/errors';
import type { Scope } from '../../../core/scope';
// Assets answer `assertPlayable` through the owner this module registers.
import '../../streams/assets/asset-playback-owner';
import { ownerOf } from '../../streams/playback-ids/playback-owners';
import { listPlaybackIdRefs } from '../../streams/playback-ids/playback-ids.repository';
import { linkForPlayable } from '../../streams/playback-ids/playback-ids.service';
import { signPlaybackToken } from '../../streams/playback-ids/playback-tokens';
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

/**
 * The resource's playback for a new session: `404` when it is not the caller's, `409 stream_disabled`,
 * `409 asset_not_ready`, `409 no_playback_id`; a signed playback id is preferred over a public one.
 */
export async function openPlayback(deps: AccessDeps, scope: Scope, resource: AccessResource, linkExpiresAt: Date): Promise<SessionPlayback> {
  // Both reads at once; the resource's own refusal (404, not playable) comes first.
  const [playable, refs] = await Promise.allSettled([
    ownerOf(resource.id).assertPlayable(deps.db, scope, resource.id),
    listPlaybackIdRefs(deps.db, scope, [resource.id]).then((m) => m.get(resource.id) ?? []),
  ]);
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
  return {
    playbackId: session.playback_id,
    policy: session.playback_policy,
    provider: session.provider,
    url: deps.videoNetworks.byProvider(session.provider).playbackUrl({ playbackId: session.playback_id, token }),
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
