import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { CursorPageQuerySchema, cursorListOf, dataOf } from '../common/pagination';
import { PublicContentSchema } from './contents.schemas';
import { FollowStateSchema, PublicCapsuleSchema } from './public.schemas';

const c = initContract();

const readers = ['secret', 'restricted', 'publishable', 'tenant-header'] as const;
// The spec's public reads admit a restricted key with `events:read` or `streams:read`; capsules' own scope too.
// A signed-in person may read them too: gated content and `viewer_state` answer for the viewer.
const viewerRead = access({ auth: 'tenant', credentials: [...readers, 'user'], scope: 'events:read', altScopes: ['streams:read', 'fanbases:read'] });
const errors = errorResponses(...COMMON_ERROR_STATUSES);
const ContentParams = z.object({ content: z.string().max(255) });
const SlugParams = z.object({ slug: z.string().max(255) });
const follow = access({ auth: 'tenant', credentials: ['publishable', 'user'], scope: 'fanbases:write', customerToken: 'required' });

export const plusContract = c.router(
  {
    listPublicContents: {
      method: 'GET',
      path: '/v1/plus/contents',
      summary: 'List published content',
      description: 'Published, public content of public capsules, newest first; filter by `organization` (`org_` id or handle) and `type`. Gated content is `locked` unless the signed-in viewer is entitled.',
      query: CursorPageQuerySchema.extend({
        organization: z.string().max(255).optional(),
        type: z.enum(['drop', 'video', 'post']).optional(),
      }),
      responses: { 200: cursorListOf(PublicContentSchema), ...errors, ...errorResponses(422) },
      metadata: viewerRead,
    },
    retrievePublicContent: {
      method: 'GET',
      path: '/v1/plus/contents/:content',
      summary: 'Retrieve published content',
      description: '`{content}` is the `cnt_` id or the slug; anything not published, or of a private capsule, is `404`.',
      pathParams: ContentParams,
      responses: { 200: dataOf(PublicContentSchema), ...errors, ...errorResponses(404) },
      metadata: viewerRead,
    },
    retrievePublicCapsule: {
      method: 'GET',
      path: '/v1/public/capsules/:slug',
      summary: 'Retrieve a public capsule',
      description: 'The creator\'s public page by handle; `viewer_state` is the signed-in customer\'s. Private capsules: `404`.',
      pathParams: SlugParams,
      responses: { 200: dataOf(PublicCapsuleSchema), ...errors, ...errorResponses(404) },
      metadata: viewerRead,
    },
    followCapsule: {
      method: 'POST',
      path: '/v1/public/capsules/:slug/follow',
      summary: 'Follow a capsule',
      description: 'The signed-in customer follows; following twice changes nothing.',
      pathParams: SlugParams,
      body: c.noBody(),
      responses: { 200: dataOf(FollowStateSchema), ...errors, ...errorResponses(404) },
      metadata: follow,
    },
    unfollowCapsule: {
      method: 'DELETE',
      path: '/v1/public/capsules/:slug/follow',
      summary: 'Unfollow a capsule',
      description: 'The signed-in customer stops following; unfollowing twice changes nothing.',
      pathParams: SlugParams,
      body: c.noBody(),
      responses: { 200: dataOf(FollowStateSchema), ...errors, ...errorResponses(404) },
      metadata: follow,
    },
  },
  { strictStatusCodes: true },
);
