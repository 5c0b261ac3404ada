import type { Moment } from '@svc/contract';
import type { MomentRow } from './moments.repository';

export interface RecordingRef {
  id: string;
  recording_started_at: Date | null;
}

/** The moment as the API shows it; `offset_s` is measured from the first frame of `recording`. */
export function serializeMoment(row: MomentRow, recording: RecordingRef | null): Moment {
  const started = recording?.recording_started_at ?? null;
  return {
    id: row.id,
    object: 'moment',
    livemode: row.livemode,
    live_stream: row.live_stream_id,
    type: row.type,
    label: row.label,
    customer: row.customer,
    clip_before_s: row.clip_before_s,
    clip_after_s: row.clip_after_s,
    clip_status: row.clip_status,
    clip_error: row.clip_error,
    clip_asset: row.clip_asset_id,
    recording: recording?.id ?? null,
    offset_s: started ? Math.max(0, (row.occurred_at.getTime() - started.getTime()) / 1000) : null,
    occurred_at: row.occurred_at.toISOString(),
    cancelled_at: row.cancelled_at?.toISOString() ?? null,
    metadata: row.metadata,
    created_at: new Date(row.created_at).toISOString(),
  };
}
