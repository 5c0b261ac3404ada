import type { Executor } from '../../../db/database';
import type { Scope } from '../../../core/scope';
import { playbackIdRefsIn } from '../playback-ids/playback-id-rows';
import type { StreamsDeps } from '../streams-deps';
import { findAssetsByIds } from './assets.repository';

/** What another product shows of an asset it uses as content (a trailer, an item, an avatar). */
export interface ContentAsset {
  id: string;
  status: 'preparing' | 'ready' | 'errored';
  duration: number | null;
  playback_ids: Array<{ id: string; policy: 'signed' | 'public' }>;
  /** The playback URL of its first public playback id, which anyone may open; `null` without one. */
  public_url: string | null;
}

async function publicUrlOf(deps: Pick<StreamsDeps, 'videoNetworks'>, provider: string, playbackId: string): Promise<string | null> {
  try {
    return (await deps.videoNetworks.playbackOf(provider)).playbackUrl({ playbackId, token: null });
  } catch {
    // A tenant's own account is reached per tenant; its assets' addresses are read through Streams itself.
    return null;
  }
}

/** The assets among `ids` that exist in the scope, by id (deleted and unknown ones are absent). */
export async function contentAssets(deps: Pick<StreamsDeps, 'videoNetworks'>, db: Executor, scope: Scope, ids: readonly string[]): Promise<Map<string, ContentAsset>> {
  const rows = await findAssetsByIds(db, scope, ids);
  const refs = await playbackIdRefsIn(db, scope, rows.map((r) => r.id));
  return new Map(
    await Promise.all(
      rows.map(async (row): Promise<[string, ContentAsset]> => {
        const playbackIds = refs.get(row.id) ?? [];
        const open = playbackIds.find((p) => p.policy === 'public');
        const publicUrl = open ? await publicUrlOf(deps, row.provider, open.id) : null;
        return [row.id, { id: row.id, status: row.status, duration: row.duration, playback_ids: playbackIds, public_url: publicUrl }];
      }),
    ),
  );
}
