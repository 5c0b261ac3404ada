import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { ExpandQuerySchema } from '../common/expand';
import { ExternalIdSchema, MetadataFilterSchema } from '../common/metadata';
import { CursorPageQuerySchema, cursorListOf, dataOf } from '../common/pagination';
import {
  CreateLiveStreamSchema,
  LiveStreamSchema,
  SimulcastTargetInputSchema,
  SimulcastTargetSchema,
  UpdateLiveStreamSchema,
} from './live-streams.schemas';

const c = initContract();

const read = access({ auth: 'tenant', credentials: ['secret', 'restricted', 'user'], scope: 'streams:read', permission: 'streams:read', product: 'streams' });
const write = access({ auth: 'tenant', credentials: ['secret', 'restricted'], scope: 'streams:write', product: 'streams' });
const errors = errorResponses(...COMMON_ERROR_STATUSES);
const IdParams = z.object({ id: z.string().max(255) });
const ExpandQuery = z.object({ expand: ExpandQuerySchema });
const one = dataOf(LiveStreamSchema);

/** A state change on an existing stream: no body, the stream back. */
const action = (path: string, summary: string, description: string) =>
  ({
    method: 'POST',
    path,
    summary,
    description,
    pathParams: IdParams,
    body: c.noBody(),
    responses: { 200: one, ...errors, ...errorResponses(404, 409, 422, 502) },
    metadata: write,
  }) as const;

export const liveStreamsContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/v1/streams/live_streams',
      summary: 'List live streams',
      description: 'Live streams of the environment, newest first, cursor-paginated; filter by `external_id` or `metadata[key]=value`.',
      query: CursorPageQuerySchema.extend({
        external_id: ExternalIdSchema.optional(),
        metadata: MetadataFilterSchema,
        expand: ExpandQuerySchema,
      }),
      responses: { 200: cursorListOf(LiveStreamSchema), ...errors, ...errorResponses(422) },
      metadata: read,
    },
    create: {
      method: 'POST',
      path: '/v1/streams/live_streams',
      summary: 'Create a live stream',
      description:
        'Creates a stream with its ingest addresses, stream key and one playback id (`playback_policy`). Every field is optional. ' +
        'Simulcast targets the network rejects are kept with `status: errored`. `422 provider_rejected` when the network refuses a setting; ' +
        '`409 video_network_not_configured` in live mode before the operator chose a network.',
      body: CreateLiveStreamSchema,
      responses: { 201: one, ...errors, ...errorResponses(409, 422, 502) },
      metadata: write,
    },
    retrieve: {
      method: 'GET',
      path: '/v1/streams/live_streams/:id',
      summary: 'Retrieve a live stream',
      description: 'One stream, with its stream key in `ingest`.',
      pathParams: IdParams,
      query: ExpandQuery,
      responses: { 200: one, ...errors, ...errorResponses(404, 422) },
      metadata: read,
    },
    retrieveByExternalId: {
      method: 'GET',
      path: '/v1/streams/live_streams/external/:external_id',
      summary: 'Retrieve a live stream by external id',
      description: 'The stream whose `external_id` is the one given.',
      pathParams: z.object({ external_id: ExternalIdSchema }),
      query: ExpandQuery,
      responses: { 200: one, ...errors, ...errorResponses(404, 422) },
      metadata: read,
    },
    update: {
      method: 'PATCH',
      path: '/v1/streams/live_streams/:id',
      summary: 'Update a live stream',
      description: 'Changes `latency_mode`, `reconnect_window`, `metadata` (replaced whole) or `external_id`. Emits `streams.live_stream.updated`.',
      pathParams: IdParams,
      body: UpdateLiveStreamSchema,
      responses: { 200: one, ...errors, ...errorResponses(404, 409, 422, 502) },
      metadata: write,
    },
    delete: {
      method: 'DELETE',
      path: '/v1/streams/live_streams/:id',
      summary: 'Delete a live stream',
      description: 'Ends any broadcast, stops the stream key and deletes the stream; later reads answer `404`. Returns the stream as it was.',
      pathParams: IdParams,
      body: c.noBody(),
      responses: { 200: one, ...errors, ...errorResponses(404, 502) },
      metadata: write,
    },
    disable: action(
      '/v1/streams/live_streams/:id/disable',
      'Disable a live stream',
      'Moves the stream to `disabled` from any status, ending a running broadcast: the encoder is refused and new viewers get `409 stream_disabled`.',
    ),
    enable: action(
      '/v1/streams/live_streams/:id/enable',
      'Enable a live stream',
      'Moves a `disabled` stream to `idle`: it takes video again. On a stream that is not disabled it changes nothing.',
    ),
    complete: action(
      '/v1/streams/live_streams/:id/complete',
      'Complete a live stream\'s broadcast',
      'Ends the broadcast now (`idle`, event `streams.live_stream.idle`) instead of waiting for the reconnect window. Without a broadcast it changes nothing.',
    ),
    resetStreamKey: action(
      '/v1/streams/live_streams/:id/reset_stream_key',
      'Reset the stream key',
      'Gives the stream a new stream key (and SRT passphrase): the new key works at once and the old one stops.',
    ),
    createSimulcastTarget: {
      method: 'POST',
      path: '/v1/streams/live_streams/:id/simulcast_targets',
      summary: 'Add a simulcast target',
      description:
        'Adds an RTMP(S) destination the network re-sends the broadcast to (at most 6 per stream). `stream_key` is stored encrypted and never returned; ' +
        'a target the network rejects is kept with `status: errored`.',
      pathParams: IdParams,
      body: SimulcastTargetInputSchema,
      responses: { 201: dataOf(SimulcastTargetSchema), ...errors, ...errorResponses(404, 422, 502) },
      metadata: write,
    },
    deleteSimulcastTarget: {
      method: 'DELETE',
      path: '/v1/streams/live_streams/:id/simulcast_targets/:target_id',
      summary: 'Remove a simulcast target',
      description: 'Removes the target from the stream; returns it as it was.',
      pathParams: z.object({ id: z.string().max(255), target_id: z.string().max(255) }),
      body: c.noBody(),
      responses: { 200: dataOf(SimulcastTargetSchema), ...errors, ...errorResponses(404, 502) },
      metadata: write,
    },
  },
  { strictStatusCodes: true },
);
