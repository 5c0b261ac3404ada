import { LiveStreamEventObjectSchema } from '../streams/live-streams.schemas';
import { defineEvents } from './define-events';
import { AssetSchema } from '../streams/assets.contract';
import { ClipSchema } from '../streams/clips.contract';
import { MomentSchema } from '../streams/moments.contract';
import { UploadSchema } from '../streams/uploads.contract';

/** An upload as events carry it: the one-time `url` is a secret and never leaves in an event. */
const UploadEventSchema = UploadSchema.omit({ url: true });

// Payloads are the resources as the Streams routes return them, without secrets (stream key, SRT passphrase,
// upload address).
export const streamsEvents = defineEvents({
  'streams.live_stream.created': { payload: LiveStreamEventObjectSchema, description: 'A live stream was created.' },
  'streams.live_stream.updated': {
    payload: LiveStreamEventObjectSchema,
    description: 'Settings, key, simulcast targets or playback ids changed, or an encoder connected (`status: connecting`).',
  },
  'streams.live_stream.active': { payload: LiveStreamEventObjectSchema, description: 'The encoder is sending video.' },
  'streams.live_stream.disconnected': {
    payload: LiveStreamEventObjectSchema,
    description: 'The encoder dropped; it may return within the reconnect window.',
  },
  'streams.live_stream.idle': { payload: LiveStreamEventObjectSchema, description: 'The broadcast ended.' },
  'streams.live_stream.unhealthy': {
    payload: LiveStreamEventObjectSchema,
    description: 'The video network is struggling or down; `data.object.health` says which and why.',
  },
  'streams.live_stream.recovered': { payload: LiveStreamEventObjectSchema, description: 'The video network is healthy again.' },
  'streams.live_stream.deleted': { payload: LiveStreamEventObjectSchema, description: 'A live stream was deleted.' },
  'streams.asset.created': { payload: AssetSchema, description: 'An asset or clip was created, or an upload produced one.' },
  'streams.asset.ready': { payload: AssetSchema, description: 'The asset can be played.' },
  'streams.asset.errored': { payload: AssetSchema, description: 'Processing failed; `data.object.error` says why.' },
  'streams.asset.updated': { payload: AssetSchema, description: 'Metadata, external id or playback ids changed.' },
  'streams.asset.deleted': { payload: AssetSchema, description: 'An asset was deleted.' },
  'streams.clip.created': { payload: ClipSchema, description: 'A clip was created.' },
  'streams.upload.asset_created': { payload: UploadEventSchema, description: 'An upload finished and its asset exists.' },
  'streams.moment.clip_ready': {
    payload: MomentSchema,
    description: 'The clip of a moment can be played; `data.object` is the moment with `customer` and `clip_asset`.',
  },
  'streams.moment.clip_failed': { payload: MomentSchema, description: 'The clip could not be made; the moment has `clip_error`.' },
});
