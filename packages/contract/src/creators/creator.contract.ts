import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { CursorPageQuerySchema, cursorListOf, dataOf } from '../common/pagination';
import { CapsuleProfileSchema, ReadinessSchema, UpdateCapsuleProfileSchema } from './capsules.schemas';
import { CONTENT_STATUSES, ContentSchema, CreateContentSchema, UpdateContentSchema } from './contents.schemas';

const c = initContract();

/**
 * A creator's own routes: a signed-in member of the organization (owner, admin or manager; `capsules:read` /
 * `capsules:write` from the role in that organization), or a secret or restricted key. `{org}` is the handle.
 */
const creatorRoute = (scope: 'fanbases:read' | 'fanbases:write') => access({ auth: 'tenant', credentials: ['secret', 'restricted', 'user'], scope });
const errors = errorResponses(...COMMON_ERROR_STATUSES);
const OrgParams = z.object({ org: z.string().max(255) });
const ContentParams = z.object({ org: z.string().max(255), content: z.string().max(255) });

export const creatorContract = c.router(
  {
    retrieveCapsuleProfile: {
      method: 'GET',
      path: '/v1/creator/orgs/:org/capsule-profile',
      summary: 'Retrieve the capsule profile',
      description: 'The creator organization\'s public profile with its readiness. Unknown handles, and people who are not members: `404`.',
      pathParams: OrgParams,
      responses: { 200: dataOf(CapsuleProfileSchema), ...errors, ...errorResponses(404) },
      metadata: creatorRoute('fanbases:read'),
    },
    updateCapsuleProfile: {
      method: 'PATCH',
      path: '/v1/creator/orgs/:org/capsule-profile',
      summary: 'Update the capsule profile',
      description: 'Changes the fields given. `avatar_asset` and `cover_asset` take a ready Streams asset or an https URL.',
      pathParams: OrgParams,
      body: UpdateCapsuleProfileSchema,
      responses: { 200: dataOf(CapsuleProfileSchema), ...errors, ...errorResponses(404, 422) },
      metadata: creatorRoute('fanbases:write'),
    },
    retrieveReadiness: {
      method: 'GET',
      path: '/v1/creator/orgs/:org/readiness',
      summary: 'Retrieve the capsule readiness',
      description: 'The score, status, completed and missing items, warnings and share blockers, computed from the profile.',
      pathParams: OrgParams,
      responses: { 200: dataOf(ReadinessSchema), ...errors, ...errorResponses(404) },
      metadata: creatorRoute('fanbases:read'),
    },
    createContent: {
      method: 'POST',
      path: '/v1/creator/orgs/:org/contents',
      summary: 'Create content',
      description: 'A drop, video or post, in `draft`. `trailer` and `items` name Streams assets of the environment.',
      pathParams: OrgParams,
      body: CreateContentSchema,
      responses: { 201: dataOf(ContentSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: creatorRoute('fanbases:write'),
    },
    listContents: {
      method: 'GET',
      path: '/v1/creator/orgs/:org/contents',
      summary: 'List content',
      description: 'The organization\'s content, newest first, in every status (filter `status`).',
      pathParams: OrgParams,
      query: CursorPageQuerySchema.extend({ status: z.enum(CONTENT_STATUSES).optional() }),
      responses: { 200: cursorListOf(ContentSchema), ...errors, ...errorResponses(404, 422) },
      metadata: creatorRoute('fanbases:read'),
    },
    retrieveContent: {
      method: 'GET',
      path: '/v1/creator/orgs/:org/contents/:content',
      summary: 'Retrieve content',
      description: '`{content}` is the `cnt_` id or the slug.',
      pathParams: ContentParams,
      responses: { 200: dataOf(ContentSchema), ...errors, ...errorResponses(404) },
      metadata: creatorRoute('fanbases:read'),
    },
    updateContent: {
      method: 'PATCH',
      path: '/v1/creator/orgs/:org/contents/:content',
      summary: 'Update content',
      description: 'Only in `draft` or `changes_requested`; otherwise `409 INVALID_STATE`.',
      pathParams: ContentParams,
      body: UpdateContentSchema,
      responses: { 200: dataOf(ContentSchema), ...errors, ...errorResponses(404, 409, 422) },
      metadata: creatorRoute('fanbases:write'),
    },
    submitContent: {
      method: 'POST',
      path: '/v1/creator/orgs/:org/contents/:content/submit',
      summary: 'Submit content for review',
      description: '`draft` or `changes_requested` → `pending_review`; any other status: `409 INVALID_STATE`.',
      pathParams: ContentParams,
      body: c.noBody(),
      responses: { 200: dataOf(ContentSchema), ...errors, ...errorResponses(404, 409) },
      metadata: creatorRoute('fanbases:write'),
    },
  },
  { strictStatusCodes: true },
);
