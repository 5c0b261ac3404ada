import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { MetadataSchema } from '../common/metadata';
import { CursorPageQuerySchema, CursorPaginationSchema, dataOf } from '../common/pagination';

const c = initContract();

/** Longest stretch a moment's clip may reach on either side of it. */
export const MAX_CLIP_SIDE_S = 600;
export const MOMENT_CLIP_STATUSES = ['pending', 'ready', 'failed'] as const;

export const MomentSchema = z
  .object({
    id: z.string().describe('Starts `mom_`.'),
    object: z.literal('moment'),
    livemode: z.boolean(),
    live_stream: z.string(),
    type: z.string(),
    label: z.string().nullable(),
    customer: z.string().nullable().describe('The caller\'s reference for the viewer the moment belongs to.'),
    clip_before_s: z.number().nullable(),
    clip_after_s: z.number().nullable(),
    clip_status: z
      .enum(MOMENT_CLIP_STATUSES)
      .nullable()
      .describe('`pending` while the clip is being made, `ready`, `failed` (see `clip_error`); `null` without a clip window or once cancelled.'),
    clip_error: z.string().nullable(),
    clip_asset: z.string().nullable().describe('The clip\'s asset (`ast_`), once ready.'),
    recording: z.string().nullable().describe('The recording asset (`ast_`) the moment falls in, when known.'),
    offset_s: z.number().nullable().describe('Seconds from the first frame of `recording`.'),
    occurred_at: z.string().describe('Clock time of the moment (when it was created).'),
    cancelled_at: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    created_at: z.string(),
  })
  .meta({ id: 'Moment' });
export type Moment = z.infer<typeof MomentSchema>;

const ClipSideSchema = z.number().min(0).max(MAX_CLIP_SIDE_S);

export const CreateMomentSchema = z
  .object({
    type: z.string().min(1).max(64).describe('What happened, in the caller\'s words, for example `goal`.'),
    label: z.string().min(1).max(200).optional(),
    customer: z.string().min(1).max(255).optional(),
    clip_before_s: ClipSideSchema.optional().describe(`Seconds of video before the moment to clip, at most ${MAX_CLIP_SIDE_S}.`),
    clip_after_s: ClipSideSchema.optional().describe(`Seconds of video after the moment to clip, at most ${MAX_CLIP_SIDE_S}.`),
    metadata: MetadataSchema.optional(),
  })
  .superRefine((v, ctx) => {
    const given = v.clip_before_s !== undefined || v.clip_after_s !== undefined;
    if (given && (v.clip_before_s ?? 0) + (v.clip_after_s ?? 0) <= 0) {
      ctx.addIssue({ code: 'custom', path: ['clip_after_s'], message: 'A clip window must be longer than 0 seconds.' });
    }
  })
  .meta({ id: 'CreateMomentRequest' });

const IdParams = z.object({ id: z.string().max(255) });
const write = access({ auth: 'tenant', credentials: ['secret', 'restricted'], scope: 'streams:write', product: 'streams' });
const read = access({ auth: 'tenant', credentials: ['secret', 'restricted'], scope: 'streams:read', product: 'streams' });
const errors = errorResponses(...COMMON_ERROR_STATUSES);

export const momentsContract = c.router(
  {
    create: {
      method: 'POST',
      path: '/v1/streams/live_streams/:id/moments',
      summary: 'Mark a moment',
      description:
        'Marks now on the live stream. With `clip_before_s` or `clip_after_s` the service clips that window from the recording once it has closed (`clip_status: pending`, then `streams.moment.clip_ready` or, after 8 tries, `streams.moment.clip_failed`). Send an `Idempotency-Key` so a retry does not mark twice.',
      pathParams: IdParams,
      body: CreateMomentSchema,
      responses: { 201: dataOf(MomentSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: write,
    },
    retrieve: {
      method: 'GET',
      path: '/v1/streams/moments/:id',
      summary: 'Retrieve a moment',
      description: 'One moment, cancelled or not.',
      pathParams: IdParams,
      responses: { 200: dataOf(MomentSchema), ...errors, ...errorResponses(404) },
      metadata: read,
    },
    cancel: {
      method: 'POST',
      path: '/v1/streams/moments/:id/cancel',
      summary: 'Cancel a moment',
      description:
        'Takes the moment back: it leaves the recording\'s moment list and `clip_status` becomes `null`; a pending clip is not made. Cancelling again returns the moment unchanged.',
      pathParams: IdParams,
      body: c.noBody(),
      responses: { 200: dataOf(MomentSchema), ...errors, ...errorResponses(404) },
      metadata: write,
    },
    listForAsset: {
      method: 'GET',
      path: '/v1/streams/assets/:id/moments',
      summary: 'List the moments of a recording',
      description:
        'Moments inside a recording of a live stream, newest first, each with `offset_s` from the recording\'s first frame; cancelled ones are left out. An asset that is not a recording answers `{data: []}`.',
      pathParams: IdParams,
      query: CursorPageQuerySchema,
      responses: {
        200: z.object({ data: z.array(MomentSchema), meta: z.object({ pagination: CursorPaginationSchema }).optional() }),
        ...errors,
        ...errorResponses(404, 422),
      },
      metadata: read,
    },
  },
  { strictStatusCodes: true },
);
