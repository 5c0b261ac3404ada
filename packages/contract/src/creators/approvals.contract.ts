import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { dataOf } from '../common/pagination';
import {
  ApprovalContentDetailSchema,
  ApprovalContentSchema,
  ApproveContentSchema,
  CONTENT_STATUSES,
  RejectContentSchema,
  RequestChangesSchema,
} from './contents.schemas';
import { pageLinksListOf } from './public.schemas';

const c = initContract();

/** Tenant staff who review content (`contents:review`: owners, admins, support), or a secret or restricted key. */
const staffRoute = (scope: 'fanbases:read' | 'fanbases:write') =>
  access({ auth: 'tenant', credentials: ['secret', 'restricted', 'user'], scope, permission: 'contents:review' });
const errors = errorResponses(...COMMON_ERROR_STATUSES);
const ContentParams = z.object({ content: z.string().max(255) });
const decision = { 200: dataOf(ApprovalContentSchema), ...errors, ...errorResponses(404, 409, 422) };

export const approvalsContract = c.router(
  {
    listApprovals: {
      method: 'GET',
      path: '/v1/tenant/admin/plus/approvals',
      summary: 'List content for review',
      description: 'Page-numbered, oldest submission first; `status` defaults to `pending_review`.',
      query: z.object({
        status: z.enum(CONTENT_STATUSES).default('pending_review'),
        page: z.coerce.number().int().min(1).max(100_000).default(1),
        per_page: z.coerce.number().int().min(1).max(100).default(15),
      }),
      responses: { 200: pageLinksListOf(ApprovalContentSchema), ...errors, ...errorResponses(422) },
      metadata: staffRoute('fanbases:read'),
    },
    retrieveApproval: {
      method: 'GET',
      path: '/v1/tenant/admin/plus/approvals/:content',
      summary: 'Retrieve content for review',
      description: '`{content}` is the slug. With the history of submissions and decisions (`approvals`).',
      pathParams: ContentParams,
      responses: { 200: dataOf(ApprovalContentDetailSchema), ...errors, ...errorResponses(404) },
      metadata: staffRoute('fanbases:read'),
    },
    approve: {
      method: 'POST',
      path: '/v1/tenant/admin/plus/approvals/:content/approve',
      summary: 'Approve content',
      description: '`pending_review` or `changes_requested` → `approved`, then published at once; if publishing fails it stays `approved`.',
      pathParams: ContentParams,
      body: ApproveContentSchema,
      responses: decision,
      metadata: staffRoute('fanbases:write'),
    },
    reject: {
      method: 'POST',
      path: '/v1/tenant/admin/plus/approvals/:content/reject',
      summary: 'Reject content',
      description: '`pending_review` or `changes_requested` → `rejected`, with the `reason` sent to the creator.',
      pathParams: ContentParams,
      body: RejectContentSchema,
      responses: decision,
      metadata: staffRoute('fanbases:write'),
    },
    requestChanges: {
      method: 'POST',
      path: '/v1/tenant/admin/plus/approvals/:content/request-changes',
      summary: 'Request changes',
      description: '`pending_review` → `changes_requested`; the creator edits and submits again.',
      pathParams: ContentParams,
      body: RequestChangesSchema,
      responses: decision,
      metadata: staffRoute('fanbases:write'),
    },
    publish: {
      method: 'POST',
      path: '/v1/tenant/admin/plus/contents/:content/publish',
      summary: 'Publish approved content',
      description: 'The fallback when publishing on approval failed. Not approved: `422 INVALID_OPERATION`; already published: `200`.',
      pathParams: ContentParams,
      body: c.noBody(),
      responses: decision,
      metadata: staffRoute('fanbases:write'),
    },
  },
  { strictStatusCodes: true },
);
