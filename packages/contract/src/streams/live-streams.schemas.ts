import { z } from 'zod';
import { ExternalIdSchema, MetadataSchema } from '../common/metadata';
import { PlaybackIdRefSchema, PlaybackPolicyEnum } from './playback-ids.schemas';

/** The spec's live-stream limits. */
export const LIVE_STREAM_LIMITS = {
  reconnectWindow: { min: 0, max: 1800, default: 60 },
  maxSimulcastTargets: 6,
  simulcastUrlMaxLength: 2048,
  simulcastStreamKeyMaxLength: 500,
} as const;

export const LIVE_STREAM_STATUSES = ['idle', 'connecting', 'active', 'disconnected', 'disabled'] as const;
export type LiveStreamStatus = (typeof LIVE_STREAM_STATUSES)[number];

export const LatencyModeSchema = z.enum(['low', 'standard']);

const ReconnectWindowSchema = z
  .number()
  .int()
  .min(LIVE_STREAM_LIMITS.reconnectWindow.min)
  .max(LIVE_STREAM_LIMITS.reconnectWindow.max)
  .describe('Seconds the broadcast stays open after the encoder drops, 0 to 1800.');

export const SimulcastTargetInputSchema = z
  .object({
    url: z
      .url({ protocol: /^rtmps?$/, error: 'Must be an rtmp:// or rtmps:// address.' })
      .max(LIVE_STREAM_LIMITS.simulcastUrlMaxLength),
    stream_key: z.string().min(1).max(LIVE_STREAM_LIMITS.simulcastStreamKeyMaxLength).describe('Stored encrypted; never returned.'),
  })
  .meta({ id: 'SimulcastTargetRequest' });

export const SimulcastTargetSchema = z
  .object({
    id: z.string().describe('Starts `sct_`.'),
    object: z.literal('simulcast_target'),
    url: z.string(),
    status: z.enum(['active', 'errored']).describe('`errored` when the video network rejected the target; the stream still exists.'),
    error: z.string().nullable().describe('Why the network rejected the target, when `errored`.'),
    created_at: z.string(),
  })
  .meta({ id: 'SimulcastTarget' });
export type SimulcastTarget = z.infer<typeof SimulcastTargetSchema>;

const ingestAddresses = {
  rtmp_url: z.string().describe('RTMP over TLS; the encoder address is `rtmp_url`, a slash, then `stream_key`.'),
  rtmp_backup_url: z.string().nullable().describe('Second RTMP address; `null` when not offered.'),
  srt_url: z.string().nullable().describe('SRT address; `null` when not offered.'),
  whip_url: z.string().nullable().describe('WHIP address for browsers; `null` when not offered.'),
};

export const IngestSchema = z
  .object({
    ...ingestAddresses,
    stream_key: z.string().describe('Secret. Shown only in the stream\'s own API responses, never in events.'),
    srt_passphrase: z.string().nullable().describe('Secret; `null` when SRT needs none or is not offered.'),
  })
  .meta({ id: 'Ingest', description: 'How an encoder reaches the stream. A `null` field means the capability is not offered.' });

/** The ingest object as events carry it: no stream key, no SRT passphrase. */
export const EventIngestSchema = z.object(ingestAddresses).meta({ id: 'EventIngest' });

export const LiveStreamHealthSchema = z
  .object({
    status: z.enum(['healthy', 'unhealthy']),
    network: z.string().describe('Which video network the report is about.'),
    reason: z.string().nullable().describe('Why it is unhealthy; `null` when healthy.'),
    changed_at: z.string(),
  })
  .meta({ id: 'LiveStreamHealth' });

const liveStreamFields = {
  id: z.string().describe('Starts `ls_`.'),
  object: z.literal('live_stream'),
  livemode: z.boolean(),
  status: z.enum(LIVE_STREAM_STATUSES),
  provider: z.string().describe('Read-only; `simulated` in test mode. Clients must not branch on it.'),
  latency_mode: LatencyModeSchema,
  reconnect_window: z.number().int(),
  audio_only: z.boolean(),
  playback_policy: PlaybackPolicyEnum.describe('Policy of the playback id made when the stream was created.'),
  simulcast_targets: z.array(SimulcastTargetSchema),
  playback_ids: z.array(PlaybackIdRefSchema),
  health: LiveStreamHealthSchema,
  sequence: z
    .number()
    .int()
    .describe('Grows by one with every event about this stream; events carry it so receivers can order them.'),
  external_id: z.string().nullable(),
  metadata: z.record(z.string(), z.string()),
  created_at: z.string(),
  updated_at: z.string(),
};

export const LiveStreamSchema = z.object({ ...liveStreamFields, ingest: IngestSchema }).meta({ id: 'LiveStream' });
export type LiveStream = z.infer<typeof LiveStreamSchema>;

/** `data.object` of `streams.live_stream.*` events: the stream without its secrets. */
export const LiveStreamEventObjectSchema = z
  .object({ ...liveStreamFields, ingest: EventIngestSchema })
  .meta({ id: 'LiveStreamEventObject' });
export type LiveStreamEventObject = z.infer<typeof LiveStreamEventObjectSchema>;

export const CreateLiveStreamSchema = z
  .object({
    latency_mode: LatencyModeSchema.optional().describe('Default `low`.'),
    reconnect_window: ReconnectWindowSchema.optional().describe('Default 60.'),
    audio_only: z.boolean().optional().describe('Default `false`.'),
    playback_policy: PlaybackPolicyEnum.optional().describe('Default `signed`.'),
    simulcast_targets: z.array(SimulcastTargetInputSchema).max(LIVE_STREAM_LIMITS.maxSimulcastTargets).optional(),
    external_id: ExternalIdSchema.optional(),
    metadata: MetadataSchema.optional(),
  })
  .meta({ id: 'CreateLiveStreamRequest' });
export type CreateLiveStreamInput = z.infer<typeof CreateLiveStreamSchema>;

export const UpdateLiveStreamSchema = z
  .object({
    latency_mode: LatencyModeSchema.optional(),
    reconnect_window: ReconnectWindowSchema.optional(),
    metadata: MetadataSchema.optional().describe('Replaces the whole map.'),
    external_id: ExternalIdSchema.nullable().optional().describe('`null` clears it.'),
  })
  .meta({ id: 'UpdateLiveStreamRequest' });
export type UpdateLiveStreamInput = z.infer<typeof UpdateLiveStreamSchema>;

export const SIMULATED_LIVE_STREAM_EVENTS = ['connected', 'active', 'disconnected', 'idle', 'unhealthy', 'recovered'] as const;

export const SimulateLiveStreamSchema = z
  .object({
    event: z.enum(SIMULATED_LIVE_STREAM_EVENTS).describe('What the simulated network reports.'),
    stream_key: z
      .string()
      .max(200)
      .optional()
      .describe('The key the encoder presents; a key that is not the current one is refused with `409 stream_key_rejected`.'),
    reason: z.string().min(1).max(500).optional().describe('For `unhealthy`: why, as `health.reason` will say.'),
  })
  .meta({ id: 'SimulateLiveStreamRequest' });
export type SimulateLiveStreamInput = z.infer<typeof SimulateLiveStreamSchema>;
