import type { Clip } from '@svc/contract';
import type { ClipWithStatus } from './clips.repository';

export function serializeClip(row: ClipWithStatus): Clip {
  return {
    id: row.id,
    object: 'clip',
    livemode: row.livemode,
    asset: row.asset_id,
    source_asset: row.source_asset_id,
    start_time: row.start_time,
    end_time: row.end_time,
    status: row.status,
    moment: row.moment_id,
    created_at: new Date(row.created_at).toISOString(),
  };
}
