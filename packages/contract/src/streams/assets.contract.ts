import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { ExternalIdSchema, MetadataFilterSchema, MetadataSchema } from '../common/metadata';
import { CursorPageQuerySchema, cursorListOf, dataOf } from '../common/pagination';
import { PlaybackIdRefSchema, PlaybackPolicyEnum } from './playback-ids.schemas';
import { MAX_SOURCE_URL_LENGTH, publicHttpsUrlProblem } from './public-url';
import { testHelperAccess } from './test-helpers.contract';

const c = initContract();

export const ASSET_STATUSES = ['preparing', 'ready', 'errored'] as const;
/** `recording` is the replay of a live stream; clients ignore sources they do not know. */
export const ASSET_SOURCES = ['upload', 'url', 'clip', 'recording'] as const;

/** The longest asset the simulated network will pretend to hold (7 days, the recording cut of the spec). */
export const MAX_ASSET_DURATION_S = 604_800;

export const PlaybackPolicySchema = PlaybackPolicyEnum.describe(
  'Policy of the playback id made with the asset: `signed` (default), only holders of a signed playback token can play; `public`, anyone with the link.',
);

export const GeneratedSubtitlesSchema = z
  .string()
  .regex(/^[a-z]{2}(-[A-Z]{2})?$/, 'Must be a language code such as `en` or `en-US`.')
  .describe('Language to generate subtitles in, for example `en` or `pt-BR`.');

export const AssetSchema = z
  .object({
    id: z.string().describe('Starts `ast_`.'),
    object: z.literal('asset'),
    livemode: z.boolean(),
    status: z.enum(ASSET_STATUSES),
    error: z.string().nullable().describe('Why processing failed, when `status` is `errored`.'),
    source: z.enum(ASSET_SOURCES).describe('Where the asset came from; new values may appear, so ignore ones you do not know.'),
    duration: z.number().nullable().describe('Seconds, once `ready`.'),
    audio_only: z.boolean(),
    playback_ids: z.array(PlaybackIdRefSchema),
    provider: z.string().describe('Read-only name of the video network; `simulated` in test mode. Do not branch on it.'),
    generated_subtitles: z.string().nullable(),
    live_stream: z.string().nullable().describe('For a recording: the live stream it records.'),
    recording_started_at: z.string().nullable().describe('For a recording: clock time of its first frame.'),
    recording_ended_at: z.string().nullable().describe('For a recording: clock time of its last frame, once the broadcast ended.'),
    clip: z.string().nullable().describe('For a clip: the clip (`clp_`) that describes the cut.'),
    upload: z.string().nullable().describe('For an upload: the upload (`upl_`) the file came through.'),
    external_id: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Asset' });
export type Asset = z.infer<typeof AssetSchema>;

export const SourceUrlSchema = z
  .string()
  .max(MAX_SOURCE_URL_LENGTH)
  .superRefine((value, ctx) => {
    const problem = publicHttpsUrlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .describe(`A public HTTPS address of a video file, at most ${MAX_SOURCE_URL_LENGTH} characters.`);

export const CreateAssetSchema = z
  .object({
    url: SourceUrlSchema,
    playback_policy: PlaybackPolicySchema.optional(),
    generated_subtitles: GeneratedSubtitlesSchema.optional(),
    metadata: MetadataSchema.nullable().optional(),
    external_id: ExternalIdSchema.nullable().optional(),
  })
  .meta({ id: 'CreateAssetRequest' });

export const UpdateAssetSchema = z
  .object({
    metadata: MetadataSchema.nullable().optional().describe('Replaces the whole map; `null` empties it.'),
    external_id: ExternalIdSchema.nullable().optional().describe('`null` removes it.'),
  })
  .meta({ id: 'UpdateAssetRequest' });

/** `metadata[key]=value` pairs, or the same pairs as one JSON object in `metadata`. */
const AssetMetadataFilterSchema = z
  .union([
    MetadataFilterSchema,
    z.string().transform((text, ctx) => {
      try {
        const parsed: unknown = JSON.parse(text);
        const ok = z.record(z.string(), z.string()).safeParse(parsed);
        if (ok.success) return ok.data;
      } catch {
        // reported below
      }
      ctx.addIssue({ code: 'custom', message: 'Send `metadata[key]=value`, or a JSON object of text values.' });
      return z.NEVER;
    }),
  ])
  .optional();

export const SimulateAssetSchema = z
  .object({
    event: z.enum(['ready', 'errored']),
    duration: z.number().positive().max(MAX_ASSET_DURATION_S).optional().describe('Seconds, for `ready`; a default length otherwise.'),
    error: z.string().min(1).max(500).optional().describe('Message, for `errored`.'),
  })
  .superRefine((v, ctx) => {
    if (v.event !== 'ready' && v.duration !== undefined) ctx.addIssue({ code: 'custom', path: ['duration'], message: 'Only with `event: "ready"`.' });
    if (v.event !== 'errored' && v.error !== undefined) ctx.addIssue({ code: 'custom', path: ['error'], message: 'Only with `event: "errored"`.' });
  })
  .meta({ id: 'SimulateAssetRequest' });

const IdParams = z.object({ id: z.string().max(255) });
const read = access({ auth: 'tenant', credentials: ['secret', 'restricted', 'user'], scope: 'streams:read', permission: 'streams:read', product: 'streams' });
const write = access({ auth: 'tenant', credentials: ['secret', 'restricted'], scope: 'streams:write', product: 'streams' });
const errors = errorResponses(...COMMON_ERROR_STATUSES);

export const assetsContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/v1/streams/assets',
      summary: 'List assets',
      description: 'The environment\'s assets, newest first, filtered by `status`, `source`, `external_id`, `metadata[key]=value` and `live_stream` ' +
        '(the stream\'s recordings and the clips cut from them).',
      query: CursorPageQuerySchema.extend({
        status: z.enum(ASSET_STATUSES).optional(),
        source: z.enum(ASSET_SOURCES).optional(),
        external_id: ExternalIdSchema.optional(),
        live_stream: z.string().max(255).optional().describe('A live stream (`ls_`): its recordings and the clips cut from them.'),
        metadata: AssetMetadataFilterSchema,
      }),
      responses: { 200: cursorListOf(AssetSchema), ...errors, ...errorResponses(422) },
      metadata: read,
    },
    create: {
      method: 'POST',
      path: '/v1/streams/assets',
      summary: 'Create an asset from a URL',
      description:
        'The video network fetches the file at `url` and prepares it: the asset starts `preparing` and becomes `ready` (`streams.asset.ready`) or `errored` (`streams.asset.errored`). In test mode simulated processing finishes by itself after a short delay, or at once through the test helper.',
      body: CreateAssetSchema,
      responses: { 201: dataOf(AssetSchema), ...errors, ...errorResponses(409, 422) },
      metadata: write,
    },
    retrieve: {
      method: 'GET',
      path: '/v1/streams/assets/:id',
      summary: 'Retrieve an asset',
      description: 'One asset of this environment.',
      pathParams: IdParams,
      responses: { 200: dataOf(AssetSchema), ...errors, ...errorResponses(404) },
      metadata: read,
    },
    retrieveByExternalId: {
      method: 'GET',
      path: '/v1/streams/assets/external/:external_id',
      summary: 'Retrieve an asset by external id',
      description: 'The asset whose `external_id` is the one given.',
      pathParams: z.object({ external_id: ExternalIdSchema }),
      responses: { 200: dataOf(AssetSchema), ...errors, ...errorResponses(404, 422) },
      metadata: read,
    },
    update: {
      method: 'PATCH',
      path: '/v1/streams/assets/:id',
      summary: 'Update an asset',
      description: 'Changes `metadata` or `external_id`; emits `streams.asset.updated` with the old values.',
      pathParams: IdParams,
      body: UpdateAssetSchema,
      responses: { 200: dataOf(AssetSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: write,
    },
    delete: {
      method: 'DELETE',
      path: '/v1/streams/assets/:id',
      summary: 'Delete an asset',
      description: 'Deletes the asset on the video network, releasing its stored minutes at once; later reads answer `404`. Emits `streams.asset.deleted`.',
      pathParams: IdParams,
      body: c.noBody(),
      responses: { 200: dataOf(AssetSchema), ...errors, ...errorResponses(404) },
      metadata: write,
    },
    simulate: {
      method: 'POST',
      path: '/v1/test_helpers/assets/:id/simulate',
      summary: 'Simulate asset processing (test mode)',
      description:
        'Finishes the simulated processing of a `preparing` test-mode asset now: `ready` (with an optional `duration` in seconds) or `errored` (with an optional `error`). Emits the same events as the network would. Test-mode secret keys only; an asset that already finished answers `409 invalid_state_transition`.',
      pathParams: IdParams,
      body: SimulateAssetSchema,
      responses: { 200: dataOf(AssetSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: testHelperAccess,
    },
  },
  { strictStatusCodes: true },
);
