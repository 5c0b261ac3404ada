import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { MetadataSchema } from '../common/metadata';
import { dataOf } from '../common/pagination';
import { PlaybackPolicySchema } from './assets.contract';

const c = initContract();

export const UPLOAD_STATUSES = ['waiting', 'asset_created'] as const;

/** An origin (`https://app.example.com`, with a port when not the default) or `*` for any. */
export const CorsOriginSchema = z
  .string()
  .max(255)
  .refine((value) => {
    if (value === '*') return true;
    try {
      const u = new URL(value);
      return (u.protocol === 'https:' || u.protocol === 'http:') && u.origin === value;
    } catch {
      return false;
    }
  }, 'Must be an origin such as `https://app.example.com` (scheme, host and optional port, no path), or `*`.')
  .describe('The browser origin allowed to send the file (CORS); `*` allows any. Without it only non-browser clients can upload.');

export const UploadSchema = z
  .object({
    id: z.string().describe('Starts `upl_`.'),
    object: z.literal('upload'),
    livemode: z.boolean(),
    status: z.enum(UPLOAD_STATUSES).describe('`waiting` for the file, then `asset_created` once it arrived.'),
    url: z
      .string()
      .nullable()
      .describe('One-time address to `PUT` the file to. A secret: anyone holding it can upload. `null` once used; never in events.'),
    cors_origin: z.string().nullable(),
    asset: z.string().nullable().describe('The asset (`ast_`) made from the file, once it arrived.'),
    new_asset_settings: z.object({ playback_policy: PlaybackPolicySchema, metadata: z.record(z.string(), z.string()) }),
    max_bytes: z.number().int().describe('Largest file the URL accepts.'),
    provider: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Upload' });
export type Upload = z.infer<typeof UploadSchema>;

export const CreateUploadSchema = z
  .object({
    cors_origin: CorsOriginSchema.optional(),
    new_asset_settings: z
      .object({ playback_policy: PlaybackPolicySchema.optional(), metadata: MetadataSchema.optional() })
      .optional()
      .describe('Settings of the asset the file becomes.'),
  })
  .meta({ id: 'CreateUploadRequest' });

const write = access({ auth: 'tenant', credentials: ['secret', 'restricted'], scope: 'streams:write', product: 'streams' });
const read = access({ auth: 'tenant', credentials: ['secret', 'restricted'], scope: 'streams:read', product: 'streams' });
const errors = errorResponses(...COMMON_ERROR_STATUSES);

export const uploadsContract = c.router(
  {
    create: {
      method: 'POST',
      path: '/v1/streams/uploads',
      summary: 'Create a direct upload',
      description:
        'Returns a one-time `url`; the browser (from `cors_origin`) sends the file to it with one `PUT`. When the file arrives the upload becomes `asset_created` with `asset` filled, and `streams.upload.asset_created` and `streams.asset.created` are emitted. Send an `Idempotency-Key` so a retry does not make a second upload.',
      body: CreateUploadSchema,
      responses: { 201: dataOf(UploadSchema), ...errors, ...errorResponses(409, 422) },
      metadata: write,
    },
    retrieve: {
      method: 'GET',
      path: '/v1/streams/uploads/:id',
      summary: 'Retrieve an upload',
      description: 'One upload; `url` is shown while the upload still waits for its file.',
      pathParams: z.object({ id: z.string().max(255) }),
      responses: { 200: dataOf(UploadSchema), ...errors, ...errorResponses(404) },
      metadata: read,
    },
  },
  { strictStatusCodes: true },
);
