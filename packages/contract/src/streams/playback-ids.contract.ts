import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { CursorPageQuerySchema, cursorListOf, dataOf } from '../common/pagination';
import { CreatePlaybackIdSchema, PlaybackIdSchema, PlaybackLinkSchema, SigningKeySchema } from './playback-ids.schemas';

const c = initContract();

const read = access({ auth: 'tenant', credentials: ['secret', 'restricted'], scope: 'streams:read', product: 'streams' });
const write = access({ auth: 'tenant', credentials: ['secret', 'restricted'], scope: 'streams:write', product: 'streams' });
const errors = errorResponses(...COMMON_ERROR_STATUSES);
const IdParams = z.object({ id: z.string().max(255) });

export const playbackIdsContract = c.router(
  {
    create: {
      method: 'POST',
      path: '/v1/streams/playback_ids',
      summary: 'Create a playback id',
      description:
        'Adds a playback id to a live stream or asset (`resource`), `signed` by default. Emits `streams.live_stream.updated` or `streams.asset.updated`.',
      body: CreatePlaybackIdSchema,
      responses: { 201: dataOf(PlaybackIdSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: write,
    },
    delete: {
      method: 'DELETE',
      path: '/v1/streams/playback_ids/:id',
      summary: 'Delete a playback id',
      description: 'Removes the playback id: links made with it stop working. Returns it as it was.',
      pathParams: IdParams,
      body: c.noBody(),
      responses: { 200: dataOf(PlaybackIdSchema), ...errors, ...errorResponses(404) },
      metadata: write,
    },
    createPreviewLink: {
      method: 'POST',
      path: '/v1/streams/playback_ids/:id/preview_links',
      summary: 'Create a preview link',
      description:
        'A playback link (HLS) for the tenant\'s own staff to watch a live stream or asset, with no entitlement or viewer session: ' +
        'signed for 10 minutes when the playback id is `signed`, the plain link when it is `public`. ' +
        'A disabled stream answers `409 stream_disabled`, an asset that is not ready `409 asset_not_ready`.',
      pathParams: IdParams,
      body: c.noBody(),
      responses: { 201: dataOf(PlaybackLinkSchema), ...errors, ...errorResponses(404, 409) },
      metadata: access({ auth: 'tenant', credentials: ['secret', 'restricted', 'user'], scope: 'streams:read', permission: 'streams:read', product: 'streams' }),
    },
  },
  { strictStatusCodes: true },
);

export const signingKeysContract = c.router(
  {
    create: {
      method: 'POST',
      path: '/v1/streams/signing_keys',
      summary: 'Create a playback signing key',
      description:
        'Creates an RSA key for signing playback tokens yourself (RS256, `kid` = `key_id`, `sub` = playback id, `aud` = `v`, `exp`). ' +
        '`private_key` is returned this once; the service keeps only the public key and its fingerprint. ' +
        '`409 dedicated_environment_required` for tenants without their own video environment.',
      body: c.noBody(),
      responses: { 201: dataOf(SigningKeySchema), ...errors, ...errorResponses(409) },
      metadata: write,
    },
    list: {
      method: 'GET',
      path: '/v1/streams/signing_keys',
      summary: 'List playback signing keys',
      description: 'The environment\'s signing keys, newest first, revoked ones included; never a private key.',
      query: CursorPageQuerySchema,
      responses: { 200: cursorListOf(SigningKeySchema), ...errors, ...errorResponses(422) },
      metadata: read,
    },
    revoke: {
      method: 'DELETE',
      path: '/v1/streams/signing_keys/:id',
      summary: 'Revoke a playback signing key',
      description: 'Tokens signed with the key are refused from now on. Revoking is final.',
      pathParams: IdParams,
      body: c.noBody(),
      responses: { 200: dataOf(SigningKeySchema), ...errors, ...errorResponses(404) },
      metadata: write,
    },
  },
  { strictStatusCodes: true },
);

const hls = c.otherResponse({ contentType: 'application/vnd.apple.mpegurl', body: z.string() });
const TokenQuery = z.object({
  token: z.string().max(8192).optional().describe('The RS256 playback token; required for `signed` playback ids.'),
});
const publicErrors = errorResponses(401, 403, 404, 409, 429, 500);
const publicAccess = access({ auth: 'public' });

/**
 * The simulated network's playback: a player opens the link a playback token comes with and walks
 * master playlist → media playlist → segments, each checking the token, so the whole chain can be exercised.
 */
export const playbackContract = c.router({
  master: {
    method: 'GET',
    path: '/v1/streams/playback/:playback_id.m3u8',
    summary: 'Play (simulated network): master playlist',
    description:
      'HLS master playlist of a playback id on the simulated network; for media on a tenant\'s own video account, a `302` to the account\'s signed address once the token is good. Signed playback ids need `token` (`401 invalid_playback_token` when missing, expired or bad); ' +
      'a disabled stream answers `409 stream_disabled`, an asset that is not ready `409 asset_not_ready`, a tenant with Streams off `403 product_not_enabled`.',
    pathParams: z.object({ playback_id: z.string().max(255) }),
    query: TokenQuery,
    responses: { 200: hls, 302: c.noBody(), ...publicErrors },
    metadata: publicAccess,
  },
  media: {
    method: 'GET',
    path: '/v1/streams/playback/:playback_id/media.m3u8',
    summary: 'Play (simulated network): media playlist',
    description: 'The media playlist the master playlist points at; same token rules.',
    pathParams: z.object({ playback_id: z.string().max(255) }),
    query: TokenQuery,
    responses: { 200: hls, ...publicErrors },
    metadata: publicAccess,
  },
  segment: {
    method: 'GET',
    path: '/v1/streams/playback/:playback_id/segments/:segment.ts',
    summary: 'Play (simulated network): segment',
    description: 'A short MPEG-TS segment without pictures (null packets); same token rules.',
    pathParams: z.object({ playback_id: z.string().max(255), segment: z.coerce.number().int().min(0) }),
    query: TokenQuery,
    responses: { 200: c.otherResponse({ contentType: 'video/mp2t', body: z.instanceof(Uint8Array) }), ...publicErrors },
    metadata: publicAccess,
  },
  check: {
    method: 'GET',
    path: '/v1/streams/playback/:playback_id/check',
    summary: 'Check a playback token (CDN edge check)',
    description:
      'Answers `204` when `token` may play the playback id now, and the playlists\' errors otherwise. A CDN in front of the ' +
      'HLS routes asks it before serving a viewer anything it cached (nginx `auth_request`), so a bad, expired or revoked ' +
      'token is refused at the edge too. Its `Cache-Control` says how long the edge may keep the answer: at most 5 seconds, ' +
      'never past the token\'s expiry.',
    pathParams: z.object({ playback_id: z.string().max(255) }),
    query: TokenQuery,
    responses: { 204: c.noBody(), ...publicErrors },
    metadata: publicAccess,
  },
});
