import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { dataOf } from '../common/pagination';
import { ASSET_STATUSES, AssetSchema, GeneratedSubtitlesSchema, MAX_ASSET_DURATION_S, PlaybackPolicySchema } from './assets.contract';

const c = initContract();

export const ClipSchema = z
  .object({
    id: z.string().describe('Starts `clp_`.'),
    object: z.literal('clip'),
    livemode: z.boolean(),
    asset: z.string().describe('The clip\'s own asset (`source: clip`).'),
    source_asset: z.string().describe('The asset the clip was cut from.'),
    start_time: z.number().describe('Seconds from the start of the source asset.'),
    end_time: z.number(),
    status: z.enum(ASSET_STATUSES).describe('The status of the clip\'s asset.'),
    moment: z.string().nullable().describe('The moment (`mom_`) the clip was made for, if any.'),
    created_at: z.string(),
  })
  .meta({ id: 'Clip' });
export type Clip = z.infer<typeof ClipSchema>;

export const CreateClipSchema = z
  .object({
    start_time: z.number().min(0).max(MAX_ASSET_DURATION_S).describe('Seconds from the start of the asset, at least 0.'),
    end_time: z.number().max(MAX_ASSET_DURATION_S).describe('Seconds from the start of the asset; after `start_time` and inside the asset.'),
    playback_policy: PlaybackPolicySchema.optional(),
    generated_subtitles: GeneratedSubtitlesSchema.optional(),
    aspect: z.literal('9:16').optional().describe('Only `9:16` is named, and it is not supported yet: `422 aspect_not_supported`.'),
  })
  .superRefine((v, ctx) => {
    if (v.end_time <= v.start_time) ctx.addIssue({ code: 'custom', path: ['end_time'], message: 'Must be after `start_time`.' });
  })
  .meta({ id: 'CreateClipRequest' });

const errors = errorResponses(...COMMON_ERROR_STATUSES);

export const clipsContract = c.router(
  {
    create: {
      method: 'POST',
      path: '/v1/streams/assets/:id/clips',
      summary: 'Clip an asset',
      description:
        'Cuts `start_time`..`end_time` from a `ready` asset into a new asset with `source: clip` (returned), which is `preparing` until the network finishes it. Emits `streams.clip.created` and `streams.asset.created`. A not-ready asset answers `409 asset_not_ready`; `aspect` answers `422 aspect_not_supported` and creates nothing.',
      pathParams: z.object({ id: z.string().max(255) }),
      body: CreateClipSchema,
      responses: { 201: dataOf(AssetSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: access({ auth: 'tenant', credentials: ['secret', 'restricted'], scope: 'streams:write', product: 'streams' }),
    },
    retrieve: {
      method: 'GET',
      path: '/v1/streams/clips/:id',
      summary: 'Retrieve a clip',
      description: 'The cut a clip asset was made from. The clip\'s id is in its asset\'s `clip` field.',
      pathParams: z.object({ id: z.string().max(255) }),
      responses: { 200: dataOf(ClipSchema), ...errors, ...errorResponses(404) },
      metadata: access({ auth: 'tenant', credentials: ['secret', 'restricted', 'user'], scope: 'streams:read', permission: 'streams:read', product: 'streams' }),
    },
  },
  { strictStatusCodes: true },
);
